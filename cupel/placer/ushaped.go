package placer

import (
	"cmp"
	"slices"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/internal/keysort"
)

// UShaped is the spec's UShapedPlacer (chapter 33): it puts the
// highest-scored items at both edges of the context and the lowest in the
// middle. Items are ranked by score descending (-0.0 = +0.0, NaN after
// every number, ruling 6), input order breaking ties; even ranks fill from
// the start, odd ranks from the end.
//
// A ScoredItem with a nil Item is placed (as nil) by its score like any other,
// so that the output is always a permutation of the input. UShaped has
// no state: the zero value and a nil *UShaped are ready to use and safe
// for concurrent use.
type UShaped struct{}

// NewUShaped returns a UShaped.
func NewUShaped() *UShaped { return &UShaped{} }

// rankedScore is an entry of U-SHAPED-PLACE's scored array.
type rankedScore struct {
	score float64
	index int
}

// Place implements [cupel.Placer]: U-SHAPED-PLACE of spec chapter 33
// (UShapedPlacer), section Algorithm. It does not modify items.
func (*UShaped) Place(items []cupel.ScoredItem) []*cupel.ContextItem {
	if len(items) <= 1 {
		return placeTrivial(items)
	}

	// Step 1: sort by score descending, tiebreak by index ascending (the
	// composite key the chapter allows; -0.0 = +0.0 and NaN after every
	// number, ruling 6).
	scored := make([]rankedScore, len(items))
	for i, si := range items {
		scored[i] = rankedScore{score: si.Score, index: i}
	}
	slices.SortFunc(scored, func(a, b rankedScore) int {
		return cmp.Or(keysort.CompareScoreDesc(a.score, b.score), cmp.Compare(a.index, b.index))
	})

	// Step 2: alternate placement, even ranks to the left edge, odd ranks
	// to the right edge.
	result := make([]*cupel.ContextItem, len(items))
	left, right := 0, len(items)-1
	for i, s := range scored {
		item := items[s.index].Item
		if i%2 == 0 {
			result[left] = item
			left++
		} else {
			result[right] = item
			right--
		}
	}
	return result
}

// placeTrivial is both placers' answer for fewer than two items: [] or
// [items[0].item].
func placeTrivial(items []cupel.ScoredItem) []*cupel.ContextItem {
	out := make([]*cupel.ContextItem, len(items))
	for i, si := range items {
		out[i] = si.Item
	}
	return out
}
