package scorer

import (
	"math"

	"github.com/cupel-go/go-cupel/cupel"
)

// Reflexive is the spec's ReflexiveScorer (chapter 19): it passes the
// item's futureRelevanceHint through as its score, clamped to [0, 1]. In order: no
// hint gives 0.0; a non-finite hint (NaN, +Inf, -Inf) gives 0.0, never a
// clamped bound; any other hint is clamped to [0, 1].
//
// A nil item scores 0; allItems is ignored. The zero value is ready to use;
// a Reflexive is safe for concurrent use.
type Reflexive struct{}

// NewReflexive returns a Reflexive.
func NewReflexive() *Reflexive { return &Reflexive{} }

// Score implements REFLEXIVE-SCORE of spec chapter 19 (ReflexiveScorer).
func (*Reflexive) Score(item *cupel.ContextItem, _ []*cupel.ContextItem) float64 {
	if item == nil {
		return 0.0
	}
	hint, ok := item.FutureRelevanceHint()
	if !ok {
		return 0.0
	}
	return clampUnit(hint, 0.0)
}

// clampUnit returns ifNotFinite for NaN and ±Inf (checked before clamping,
// as the spec requires), and v clamped to [0, 1] otherwise.
func clampUnit(v, ifNotFinite float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ifNotFinite
	}
	if v < 0.0 {
		return 0.0
	}
	if v > 1.0 {
		return 1.0
	}
	return v
}
