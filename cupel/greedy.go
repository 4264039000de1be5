package cupel

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
// O(N log N) time, and orders only what it needs to: the densest items
// until the budget is spent, then only the items that still fit. It never
// returns an error.
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
	f := newGreedyFill(len(sorted), target, false)
	defer f.release()
	for i, si := range sorted {
		if it := si.Item; it != nil {
			f.add(i, si.Score, it.tokens)
		}
	}
	taken := f.run()
	out := make([]int, len(taken))
	for i, r := range taken {
		out[i] = r.idx
	}
	return out, nil
}
