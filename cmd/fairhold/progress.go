package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// progress draws a one-line progress bar on stderr while long work runs,
// but only when stderr is a terminal: logs and pipes stay clean. It is safe
// for concurrent use; Add is a single atomic operation.
type progress struct {
	w     io.Writer // nil when disabled
	label string
	total int64
	done  atomic.Int64
	start time.Time
	stop  chan struct{}
	wg    sync.WaitGroup
}

// newProgress starts a progress bar for total units of work on w, or a
// silent one when w is not a terminal or total is not positive.
func newProgress(w io.Writer, label string, total int64) *progress {
	p := &progress{label: label, total: total, start: time.Now(), stop: make(chan struct{})}
	if total <= 0 || !isTerminal(w) {
		return p
	}
	p.w = w
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(200 * time.Millisecond)
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

// Done stops the bar and clears its line.
func (p *progress) Done() {
	if p.w == nil {
		return
	}
	close(p.stop)
	p.wg.Wait()
	p.draw()
	fmt.Fprintln(p.w)
	p.w = nil
}

func (p *progress) draw() {
	d := p.done.Load()
	if d > p.total {
		d = p.total
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
	el := time.Since(p.start).Seconds()
	eta := ""
	if d > 0 && d < p.total {
		eta = fmt.Sprintf(" eta %.0fs", el*float64(p.total-d)/float64(d))
	}
	fmt.Fprintf(p.w, "\r%s [%s] %5.1f%% %.1fs%s   ", p.label, bar, 100*float64(d)/float64(p.total), el, eta)
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	if err != nil {
		return false
	}
	return st.Mode()&os.ModeCharDevice != 0
}
