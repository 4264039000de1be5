package scorer

import (
	"time"

	"github.com/cupel-go/go-cupel/cupel"
)

// ScoreAll is the batch path of [Decay.Score]. Score reads the clock
// once per call, as the spec's DECAY-SCORE does; ScoreAll reads it once per
// pass (and only when some item has a timestamp), so that every item of a
// pass is aged against the same instant. With a clock that does not move
// between the reads (every test clock), ScoreAll equals Score bit for bit;
// with the system clock, each item scores as Score would have scored it at
// the pass's instant. It has no threshold.
//
// BenchmarkScorers/decay measures it against Score per item with the
// system clock: 1.5x to 1.9x faster at 100, 10,000 and 100,000 items, the
// clock reads it saves (it would stay for the single instant anyway). The tests "the batch path gives the per-item scores of
// every leaf scorer on random inputs" (exponential, step and window curves
// with a fixed clock) and "reads the injected clock: per call in Score, once
// per pass in the batch path" prove it.
func (s *Decay) ScoreAll(items []*cupel.ContextItem, out []float64) {
	if s.clock == nil {
		clear(out[:len(items)])
		return
	}
	var now time.Time
	haveNow := false
	for i, it := range items {
		if it == nil {
			out[i] = 0.0
			continue
		}
		t, ok := it.Timestamp()
		if !ok {
			out[i] = s.nullScore
			continue
		}
		if !haveNow {
			now, haveNow = s.clock.Now(), true
		}
		out[i] = s.scoreAt(t, now)
	}
}
