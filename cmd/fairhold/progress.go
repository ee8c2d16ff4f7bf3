package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// progressInterval is how often a progress line is printed when stderr is
// not a terminal (--progress).
var progressInterval = 5 * time.Second

// progressMode is how a long command shows its progress on stderr.
type progressMode int

const (
	progressOff   progressMode = iota
	progressBar                // a bar redrawn in place: stderr is a terminal
	progressLines              // a line every progressInterval, and one at the end
)

// addProgressFlag gives a long command the --progress flag.
func addProgressFlag(cmd *cobra.Command) {
	cmd.Flags().Bool("progress", false, "show progress on stderr: a bar on a terminal, else a line every few seconds (default: a bar on a terminal, except with --json)")
}

// progressModeOf decides how cmd shows its progress: with --progress, a
// bar on a terminal and lines elsewhere; with --progress=false, nothing;
// by default a bar when stderr is a terminal and the output is not JSON.
func progressModeOf(cmd *cobra.Command) progressMode {
	w := cmd.ErrOrStderr()
	tty := isTerminal(w)
	if f := cmd.Flags().Lookup("progress"); f != nil && f.Changed {
		switch {
		case f.Value.String() != "true":
			return progressOff
		case tty:
			return progressBar
		}
		return progressLines
	}
	if j := cmd.Flags().Lookup("json"); j != nil && j.Value.String() == "true" {
		return progressOff
	}
	if tty {
		return progressBar
	}
	return progressOff
}

// progress shows the progress of long work on stderr, as progressModeOf
// decides. It is safe for concurrent use; Add is a single atomic operation.
type progress struct {
	w     io.Writer // nil when disabled
	mode  progressMode
	label string
	total int64
	done  atomic.Int64
	start time.Time
	stop  chan struct{}
	wg    sync.WaitGroup
}

// newProgress starts showing the progress of total units of work for cmd;
// a total that is not positive is unknown: the units done are counted.
func newProgress(cmd *cobra.Command, label string, total int64) *progress {
	return startProgress(cmd.ErrOrStderr(), progressModeOf(cmd), label, total)
}

func startProgress(w io.Writer, mode progressMode, label string, total int64) *progress {
	p := &progress{label: label, total: total, start: time.Now(), stop: make(chan struct{}), mode: mode}
	if mode == progressOff {
		return p
	}
	p.w = w
	every := 200 * time.Millisecond
	if mode == progressLines {
		every = progressInterval
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.draw()
			}
		}
	}()
	return p
}

// Add records n more units done.
func (p *progress) Add(n int64) { p.done.Add(n) }

// Done stops the progress and ends its line.
func (p *progress) Done() {
	if p.w == nil {
		return
	}
	close(p.stop)
	p.wg.Wait()
	p.draw()
	if p.mode == progressBar {
		fmt.Fprintln(p.w)
	}
	p.w = nil
}

func (p *progress) draw() {
	d := p.done.Load()
	el := time.Since(p.start).Seconds()
	if p.total <= 0 {
		if p.mode == progressLines {
			fmt.Fprintf(p.w, "%s: %d done %.1fs\n", p.label, d, el)
		} else {
			fmt.Fprintf(p.w, "\r%s: %d done %.1fs   ", p.label, d, el)
		}
		return
	}
	if d > p.total {
		d = p.total
	}
	eta := ""
	if d > 0 && d < p.total {
		eta = fmt.Sprintf(" eta %.0fs", el*float64(p.total-d)/float64(d))
	}
	pct := 100 * float64(d) / float64(p.total)
	if p.mode == progressLines {
		fmt.Fprintf(p.w, "%s: %d of %d (%.1f%%) %.1fs%s\n", p.label, d, p.total, pct, el, eta)
		return
	}
	const width = 30
	filled := int(float64(width) * float64(d) / float64(p.total))
	bar := make([]byte, width)
	for i := range bar {
		if i < filled {
			bar[i] = '#'
		} else {
			bar[i] = '.'
		}
	}
	fmt.Fprintf(p.w, "\r%s [%s] %5.1f%% %.1fs%s   ", p.label, bar, pct, el, eta)
}

// isTerminal reports whether w is a terminal (golang.org/x/term: a
// character device such as /dev/null is not one).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
