package slicer

import (
	"cmp"
	"math"
	"slices"

	"github.com/cupel-go/go-cupel/cupel"
)

// Greedy is the spec's GreedySlice (chapter 26): it selects items by value
// density, score per token, filling the budget from the densest item down.
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
// Greedy has no state: the zero value and a nil *Greedy are ready
// to use, and one value may serve concurrent calls. Slice runs in
// O(N log N) time and never returns an error. [Greedy.SlicePositions]
// (greedy_fill.go) is its fast path, which the pipeline takes.
type Greedy struct{}

// NewGreedy returns a Greedy.
func NewGreedy() *Greedy { return &Greedy{} }

// Slice implements [cupel.Slicer]: GREEDY-SLICE, spec chapter 26 (GreedySlice),
// section Algorithm, step by step. It does not modify sorted.
//
// Two additions to the pseudocode, for inputs the pipeline never passes
// (the Classify stage excludes negative tokens): a nil Item, or an item
// with negative tokens, gets no density record, so it is never selected.
func (*Greedy) Slice(sorted []cupel.ScoredItem, budget cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	if len(sorted) == 0 || budget.TargetTokens() <= 0 {
		return []*cupel.ContextItem{}, nil
	}

	// Step 1: compute value densities.
	type densityIndex struct {
		density float64
		index   int
	}
	densities := make([]densityIndex, 0, len(sorted))
	for i, si := range sorted {
		if si.Item == nil || si.Item.Tokens() < 0 {
			continue
		}
		tokens := si.Item.Tokens()
		if tokens == 0 {
			densities = append(densities, densityIndex{math.MaxFloat64, i})
		} else {
			densities = append(densities, densityIndex{si.Score / float64(tokens), i})
		}
	}

	// Step 2: sort by density descending, tiebreak by index ascending.
	slices.SortFunc(densities, func(a, b densityIndex) int {
		return cmp.Or(cmpDensityDesc(a.density, b.density), cmp.Compare(a.index, b.index))
	})

	// Step 3: greedy fill.
	remaining := budget.TargetTokens()
	selected := []*cupel.ContextItem{}
	for _, d := range densities {
		item := sorted[d.index].Item
		tokens := item.Tokens()
		if tokens == 0 {
			selected = append(selected, item)
		} else if tokens <= remaining {
			selected = append(selected, item)
			remaining -= tokens
		}
	}
	return selected, nil
}

// cmpDensityDesc orders densities descending: -0.0 equals +0.0, and NaN
// sorts after every number and equals NaN (ruling 6).
func cmpDensityDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	case a == b: // -0.0 == +0.0
		return 0
	case math.IsNaN(a) && math.IsNaN(b):
		return 0
	case math.IsNaN(a):
		return 1
	default:
		return -1
	}
}
