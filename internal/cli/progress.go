package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// colorMode is the --color flag: auto, always or never.
type colorMode string

// String implements flag.Value.
func (c *colorMode) String() string { return string(*c) }

// Set implements flag.Value.
func (c *colorMode) Set(s string) error {
	switch s {
	case "auto", "always", "never":
		*c = colorMode(s)
		return nil
	}
	return fmt.Errorf("want auto, always or never, got %q", s)
}

// on says whether to colour what goes to w: always, never, or (auto) when
// w is a terminal and NO_COLOR is not set.
func (c colorMode) on(w io.Writer) bool {
	switch c {
	case "always":
		return true
	case "never":
		return false
	}
	if _, ok := os.LookupEnv("NO_COLOR"); ok {
		return false
	}
	return isTerminal(w)
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progress reports a run as it goes, on stderr: with -v a line per case as
// it finishes; on a terminal otherwise one live line (cases done of total,
// failures so far, elapsed); nothing with --quiet, or when stderr is not a
// terminal and -v is not set.
type progress struct {
	w       io.Writer
	verbose bool
	live    bool
	color   bool
	total   int
	start   time.Time

	mu       sync.Mutex
	done     int
	outcomes map[runner.Outcome]int
	drawn    bool
	stop     chan struct{}
	stopped  chan struct{}
}

// newProgress starts the progress of a run of total cases.
func newProgress(w io.Writer, o outputs, total int) *progress {
	p := &progress{w: w, verbose: o.verbose && !o.quiet, live: !o.quiet && !o.verbose && isTerminal(w),
		color: o.color.on(w), total: total, start: time.Now()}
	if p.live {
		p.stop, p.stopped = make(chan struct{}), make(chan struct{})
		go p.tick()
	}
	return p
}

// tick redraws the live line while slow cases run, so the elapsed time
// moves.
func (p *progress) tick() {
	defer close(p.stopped)
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.mu.Lock()
			p.draw()
			p.mu.Unlock()
		}
	}
}

// onResult is the runner's OnResult.
func (p *progress) onResult(c runner.CaseResult) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if p.outcomes == nil {
		p.outcomes = map[runner.Outcome]int{}
	}
	p.outcomes[c.Outcome]++
	switch {
	case p.verbose:
		st := report.PaintOutcome(c.Outcome, fmt.Sprintf("%-16s", c.Outcome), p.color)
		fmt.Fprintf(p.w, "%s %8.3fs  %s\n", st, time.Duration(c.Duration).Seconds(), c.ID)
	case p.live:
		p.draw()
	}
}

// draw rewrites the live line; p.mu is held.
func (p *progress) draw() {
	total := max(p.total, p.done)
	fmt.Fprintf(p.w, "\r\x1b[K%d/%d cases · %s · %s", p.done, total, p.counts(), time.Since(p.start).Round(100*time.Millisecond))
	p.drawn = true
}

// counts is the outcomes so far but pass and skip, fail and unsupported
// always, the others when there are any: "6 fail · 319 unsupported"; p.mu is held.
func (p *progress) counts() string {
	var parts []string
	for _, o := range runner.Outcomes {
		n := p.outcomes[o]
		if o == protocol.OutcomePass || o == protocol.OutcomeSkip || n == 0 && o != protocol.OutcomeFail && o != protocol.OutcomeUnsupported {
			continue
		}
		s := fmt.Sprintf("%d %s", n, o)
		if p.color && n > 0 && o != protocol.OutcomeUnsupported && o != protocol.OutcomeXFail {
			s = "\x1b[31m" + s + "\x1b[0m"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " · ")
}

// finish stops the live line and clears it, so that nothing written next
// lands on it.
func (p *progress) finish() {
	if !p.live {
		return
	}
	close(p.stop)
	<-p.stopped
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
