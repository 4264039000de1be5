package cupel

import (
	"math"
	"slices"
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

// chronoKey sorts timestamped items by (sec, nsec), then untimed ones, then idx.
type chronoKey struct {
	sec  int64
	nsec int32
	none bool // no timestamp
	idx  int
}

// Place implements [Placer]. It does not modify items.
func (c *ChronologicalPlacer) Place(items []ScoredItem) []*ContextItem {
	return itemsAt(items, c.PlacePositions(items))
}

// PlacePositions returns the placed order as positions in items (the
// pipeline's PositionPlacer fast path).
func (c *ChronologicalPlacer) PlacePositions(items []ScoredItem) []int {
	return c.placeInto(items, make([]int, len(items)))
}

// placeInto writes PlacePositions(items) to out, of len(items), and
// returns it.
func (*ChronologicalPlacer) placeInto(items []ScoredItem, out []int) []int {
	if len(items) <= 1 {
		clear(out)
		return out // [] or [0]
	}
	// Fast path: when every timestamp's UnixNano is exact (years 1678 to
	// 2262) the order is that of one uint64 key (items without a timestamp
	// get the largest key), sorted with the index as tiebreak.
	kp := getScratch(len(items))
	defer putScratch(kp)
	if keys, ok := chronoFastKeys(items, (*kp)[:len(items)]); ok {
		sortKeyIdx(keys)
		for i, k := range keys {
			out[i] = k.idx
		}
		return out
	}
	keys := make([]chronoKey, len(items))
	for i, si := range items {
		k := chronoKey{none: true, idx: i}
		if it := si.Item; it != nil && it.hasTimestamp {
			k = chronoKey{sec: it.timestamp.Unix(), nsec: int32(it.timestamp.Nanosecond()), idx: i}
		}
		keys[i] = k
	}
	slices.SortFunc(keys, cmpChrono)
	for i, k := range keys {
		out[i] = k.idx
	}
	return out
}

// itemsAt returns the items of items at the given positions, in order.
func itemsAt(items []ScoredItem, positions []int) []*ContextItem {
	out := make([]*ContextItem, len(positions))
	for i, p := range positions {
		out[i] = items[p].Item
	}
	return out
}

// nanosExact reports whether every instant in the Unix second sec has an
// exact UnixNano below math.MaxInt64 (which chronoFastKeys keeps for "no
// timestamp"): the seconds of the years 1678 to 2262, less the partial
// ones at each end.
func nanosExact(sec int64) bool {
	return sec >= math.MinInt64/1_000_000_000 && sec < math.MaxInt64/1_000_000_000
}

// chronoFastKeys fills keys, of len(items), with the placer's uint64 keys,
// or reports that some timestamp has no exact UnixNano.
func chronoFastKeys(items []ScoredItem, keys []keyIdx) ([]keyIdx, bool) {
	for i, si := range items {
		k := uint64(math.MaxUint64)
		if it := si.Item; it != nil && it.hasTimestamp {
			t := it.timestamp
			if !nanosExact(t.Unix()) {
				return nil, false
			}
			k = uint64(t.UnixNano()) ^ 1<<63 // order-preserving
		}
		keys[i] = keyIdx{k, i}
	}
	return keys, true
}

func cmpChrono(a, b chronoKey) int {
	if a.none != b.none {
		if a.none {
			return 1
		}
		return -1
	}
	if !a.none {
		switch {
		case a.sec < b.sec:
			return -1
		case a.sec > b.sec:
			return 1
		case a.nsec < b.nsec:
			return -1
		case a.nsec > b.nsec:
			return 1
		}
	}
	switch {
	case a.idx < b.idx:
		return -1
	case a.idx > b.idx:
		return 1
	}
	return 0
}
