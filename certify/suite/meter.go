package suite

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fairhold/fairhold/replay/money"
)

// meterEvery is how often a long check reports its progress on
// Options.Log (a variable for the tests).
var meterEvery = 5 * time.Second

// meter reports the progress of the work inside a check on Options.Log:
// a line every meterEvery while the work runs ("  replay: 1,234,567
// rounds, 12s"), so that a person watching a long certification sees it
// move even when stderr is not a terminal. A nil meter (no Log) counts
// nothing.
type meter struct {
	n     atomic.Int64
	stop  chan struct{}
	done  sync.WaitGroup
	once  sync.Once
	label string
	unit  string
	total int64
	start time.Time
}

// meter starts a meter of label's work in unit, of total units (0:
// unknown); stop it with [meter.end].
func (e *env) meter(label, unit string, total int64) *meter {
	if e.opts.Log == nil {
		return nil
	}
	m := &meter{stop: make(chan struct{}), label: label, unit: unit, total: total, start: time.Now()}
	m.done.Add(1)
	go func() {
		defer m.done.Done()
		t := time.NewTicker(meterEvery)
		defer t.Stop()
		for {
			select {
			case <-m.stop:
				return
			case <-t.C:
				fmt.Fprintln(e.opts.Log, m.line())
			}
		}
	}()
	return m
}

// add counts n units done; safe for concurrent use.
func (m *meter) add(n int64) {
	if m != nil {
		m.n.Add(n)
	}
}

// end stops the meter's reports.
func (m *meter) end() {
	if m != nil {
		m.once.Do(func() { close(m.stop) })
		m.done.Wait()
	}
}

func (m *meter) line() string {
	n := m.n.Load()
	el := time.Since(m.start).Round(time.Second)
	if m.total > 0 {
		return fmt.Sprintf("  %s: %s of %s %s (%.0f%%), %s", m.label, money.FormatNumber(n, 0), money.FormatNumber(m.total, 0), m.unit, 100*float64(n)/float64(m.total), el)
	}
	return fmt.Sprintf("  %s: %s %s, %s", m.label, money.FormatNumber(n, 0), m.unit, el)
}
