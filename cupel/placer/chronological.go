package placer

import (
	"cmp"
	"slices"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
)

// Chronological is the spec's ChronologicalPlacer (chapter 32): it orders
// items by timestamp, oldest first. Items with a timestamp come first,
// ascending by instant; items without one follow in input order; equal
// timestamps keep input order. Scores are ignored.
//
// A ScoredItem with a nil Item is treated as an item without a timestamp and
// placed (as nil) among them, so that the output is always a permutation of
// the input. Chronological has no state: the zero value and a nil
// *Chronological are ready to use and safe for concurrent use.
type Chronological struct{}

// NewChronological returns a Chronological.
func NewChronological() *Chronological { return &Chronological{} }

// timedIndex is an entry of CHRONOLOGICAL-PLACE's sortable array: the
// item's timestamp (when has is set) and its index in the input.
type timedIndex struct {
	timestamp time.Time
	has       bool
	index     int
}

// timedIndexOf is the sortable entry of si at index i; a nil Item has no
// timestamp.
func timedIndexOf(si cupel.ScoredItem, i int) timedIndex {
	if it := si.Item; it != nil {
		if ts, ok := it.Timestamp(); ok {
			return timedIndex{timestamp: ts, has: true, index: i}
		}
	}
	return timedIndex{index: i}
}

// Place implements [cupel.Placer]: CHRONOLOGICAL-PLACE of spec chapter 32
// (ChronologicalPlacer), section Algorithm. It does not modify items.
func (*Chronological) Place(items []cupel.ScoredItem) []*cupel.ContextItem {
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

	result := make([]*cupel.ContextItem, len(items))
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
