package cupel

import (
	"cmp"
	"slices"
	"time"
)

// ChronologicalPlacer orders items by timestamp, oldest first (spec chapter
// 32 (ChronologicalPlacer)): items with a timestamp come first, ascending by
// instant; items without one follow in input order; equal timestamps keep
// input order. Scores are ignored.
//
// A ScoredItem with a nil Item is treated as an item without a timestamp and
// placed (as nil) among them, so that the output is always a permutation of
// the input. ChronologicalPlacer has no state: the zero value and a nil
// *ChronologicalPlacer are ready to use and safe for concurrent use.
type ChronologicalPlacer struct{}

// NewChronologicalPlacer returns a ChronologicalPlacer.
func NewChronologicalPlacer() *ChronologicalPlacer { return &ChronologicalPlacer{} }

// timedIndex is an entry of CHRONOLOGICAL-PLACE's sortable array: the
// item's timestamp (when has is set) and its index in the input.
type timedIndex struct {
	timestamp time.Time
	has       bool
	index     int
}

// timedIndexOf is the sortable entry of si at index i; a nil Item has no
// timestamp.
func timedIndexOf(si ScoredItem, i int) timedIndex {
	if it := si.Item; it != nil && it.hasTimestamp {
		return timedIndex{timestamp: it.timestamp, has: true, index: i}
	}
	return timedIndex{index: i}
}

// Place implements [Placer]: CHRONOLOGICAL-PLACE of spec chapter 32
// (ChronologicalPlacer), section Algorithm. It does not modify items.
func (*ChronologicalPlacer) Place(items []ScoredItem) []*ContextItem {
	if len(items) <= 1 {
		return placeTrivial(items)
	}

	// Build sortable array with original indices.
	sortable := make([]timedIndex, len(items))
	for i, si := range items {
		sortable[i] = timedIndexOf(si, i)
	}

	// Timestamped items ascending, then items without a timestamp, then by
	// index (the index makes the order that of a stable sort).
	slices.SortFunc(sortable, chronologicalCompare)

	result := make([]*ContextItem, len(items))
	for i, s := range sortable {
		result[i] = items[s.index].Item
	}
	return result
}

// chronologicalCompare is CHRONOLOGICAL-COMPARE (spec chapter 32, section
// Sort Order Detail) as a three-way comparison: < 0 when a sorts first.
// Timestamps compare as instants (they are stored in UTC, without a
// monotonic reading).
func chronologicalCompare(a, b timedIndex) int {
	if a.has && b.has {
		if c := a.timestamp.Compare(b.timestamp); c != 0 {
			return c // ascending
		}
		return cmp.Compare(a.index, b.index) // tiebreak
	}
	if a.has {
		return -1 // a (with timestamp) sorts before b (without)
	}
	if b.has {
		return 1 // b (with timestamp) sorts before a (without)
	}
	return cmp.Compare(a.index, b.index) // both null: original order
}
