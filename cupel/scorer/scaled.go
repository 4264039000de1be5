package scorer

import (
	"math"

	"github.com/cupel-go/go-cupel/cupel"
)

// Scaled is the spec's ScaledScorer (chapter 21): it min-max normalizes an
// inner scorer over allItems, (raw - min) / (max - min), where raw is the
// inner score of the item and min and max are the smallest and largest
// inner scores of allItems. The item(s) with the smallest inner score get 0.0 and the
// largest 1.0.
//
// The degenerate cases return exactly 0.5: an empty allItems, and every
// inner score equal (a single item included). The item is found in allItems
// by pointer identity (ruling 14).
//
// An item that is not in allItems at all breaks the Scorer contract (allItems
// includes the item); the spec's pseudocode leaves its rawScore at the "not
// yet computed" NaN sentinel. Score then computes the missing raw score as
// inner.Score(item, allItems), the value the loop would have captured had
// the item been there, and applies the same formula (so the result may lie
// outside [0, 1]); the degenerate cases still return 0.5.
//
// NaN inner scores take no part in min and max (no comparison with NaN
// holds), exactly as in the spec's loop.
//
// A nil item scores 0 and nil entries of allItems are ignored as if absent
// (the inner scorer is never called with a nil item). Like
// [Composite], a Scaled captures a Composite or
// Scaled inner as its immutable state. The zero value scores every
// item 0. A Scaled is immutable; it is safe for concurrent use when its
// inner scorer is.
type Scaled struct {
	s *scaled
}

// scaled is the immutable state of a Scaled.
type scaled struct {
	given cupel.Scorer // as given, for Inner
	inner cupel.Scorer // built-in composites resolved to their state
}

// NewScaled returns a Scaled around inner, which must not be
// nil (also not a typed nil pointer, and not the zero value of
// Composite or Scaled). The error is a [*cupel.ValidationError]
// wrapping [cupel.ErrInvalidConfig] with Field "inner".
func NewScaled(inner cupel.Scorer) (*Scaled, error) {
	kid, err := resolveChild(inner, "ScaledScorer", "inner")
	if err != nil {
		return nil, err
	}
	return &Scaled{s: &scaled{given: inner, inner: kid}}, nil
}

// Inner returns the inner scorer as given.
func (s *Scaled) Inner() cupel.Scorer {
	if s == nil || s.s == nil {
		return nil
	}
	return s.s.given
}

// Score implements SCALED-SCORE of spec chapter 21 (ScaledScorer): it calls
// the inner scorer once per item of allItems, so O(N * inner cost) per item.
// The pipeline uses the batch path instead, [Scaled.ScoreAll], which
// scores the inner scorer once per pass.
func (s *Scaled) Score(item *cupel.ContextItem, allItems []*cupel.ContextItem) float64 {
	if s == nil || s.s == nil {
		return 0.0
	}
	return s.s.Score(item, allItems)
}

// Score is SCALED-SCORE.
func (s *scaled) Score(item *cupel.ContextItem, allItems []*cupel.ContextItem) float64 {
	if item == nil {
		return 0.0
	}
	raw, found := math.NaN(), false
	lo, hi := math.Inf(1), math.Inf(-1)
	n := 0
	for _, other := range allItems {
		if other == nil {
			continue
		}
		n++
		v := s.inner.Score(other, allItems)
		if v < lo {
			lo = v
		}
		if v > hi {
			hi = v
		}
		if other == item {
			raw, found = v, true
		}
	}
	if n == 0 || hi == lo {
		return 0.5
	}
	if !found {
		raw = s.inner.Score(item, allItems)
	}
	return (raw - lo) / (hi - lo)
}
