package cupel

import "math"

// ReflexiveScorer passes the item's futureRelevanceHint through as its
// score, clamped to [0, 1] (spec chapter 19 (ReflexiveScorer)). In order: no
// hint gives 0.0; a non-finite hint (NaN, +Inf, -Inf) gives 0.0, never a
// clamped bound; any other hint is clamped to [0, 1].
//
// A nil item scores 0; allItems is ignored. The zero value is ready to use;
// a ReflexiveScorer is safe for concurrent use.
type ReflexiveScorer struct{}

// NewReflexiveScorer returns a ReflexiveScorer.
func NewReflexiveScorer() *ReflexiveScorer { return &ReflexiveScorer{} }

// Score implements REFLEXIVE-SCORE of spec chapter 19 (ReflexiveScorer).
func (*ReflexiveScorer) Score(item *ContextItem, _ []*ContextItem) float64 {
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
