package cupel

import "math"

// GreedySlice selects items by value density, score per token, filling the
// budget from the densest item down (spec chapter 26 (GreedySlice)).
//
//   - Density is score / tokens. Zero-token items get density math.MaxFloat64,
//     so they come first (ordered by input index only) and are always included.
//   - Densities sort descending with the input index as tiebreak; -0.0 equals
//     +0.0 and NaN densities sort after every number (ruling 6).
//   - An item that does not fit the remaining targetTokens is skipped, not
//     deferred: the fill is a single pass.
//   - The output is in density order, not input order.
//
// Items with negative tokens and ScoredItems with a nil Item are never
// selected. An empty input or targetTokens <= 0 selects nothing.
//
// GreedySlice has no state: the zero value and a nil *GreedySlice are ready
// to use, and one value may serve concurrent calls. Slice runs in
// O(N log N) time (O(N) for large inputs, whose density keys are radix
// sorted) and never returns an error.
type GreedySlice struct{}

// NewGreedySlice returns a GreedySlice.
func NewGreedySlice() *GreedySlice { return &GreedySlice{} }

// Slice implements [Slicer]. It does not modify sorted.
func (g *GreedySlice) Slice(sorted []ScoredItem, budget ContextBudget) ([]*ContextItem, error) {
	pos, _ := g.SlicePositions(sorted, budget)
	out := make([]*ContextItem, len(pos))
	for i, p := range pos {
		out[i] = sorted[p].Item
	}
	return out, nil
}

// SlicePositions returns the positions in sorted of the selected items, in
// selection order (the pipeline's PositionSlicer fast path).
func (*GreedySlice) SlicePositions(sorted []ScoredItem, budget ContextBudget) ([]int, error) {
	target := budget.targetTokens
	if len(sorted) == 0 || target <= 0 {
		return []int{}, nil
	}
	kp := getScratch(len(sorted))
	defer putScratch(kp)
	keys := (*kp)[:0]
	for i, si := range sorted {
		it := si.Item
		if it == nil || it.tokens < 0 {
			continue
		}
		d := math.MaxFloat64
		if it.tokens != 0 {
			d = si.Score / float64(it.tokens)
		}
		keys = append(keys, keyIdx{descKey(d), i})
	}
	sortKeyIdx(keys)

	// Two passes over the keys: count, then fill an exactly sized result.
	count, remaining := 0, target
	for _, k := range keys {
		t := sorted[k.idx].Item.tokens
		if t <= remaining {
			count++
			remaining -= t
		}
	}
	out := make([]int, 0, count)
	remaining = target
	for _, k := range keys {
		if t := sorted[k.idx].Item.tokens; t <= remaining {
			out = append(out, k.idx)
			remaining -= t
		}
	}
	return out, nil
}
