package placer

import (
	"math"
	"slices"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/internal/keysort"
)

// The position fast path of Chronological: the placed order as
// positions in the input, for the pipeline's PositionPlacer path, sorting
// one uint64 key per item with keysort.Sort instead of comparing time.Time
// values.
//
// It must equal [Chronological.Place]: items[p].Item for p in
// PlacePositions(items) is Place(items), item for item. It forks at one
// threshold: when every timestamp has an exact UnixNano (keysort.NanosExact: the
// years 1678 to 2262) the key is the UnixNano; otherwise the entries of
// Place are sorted with chronologicalCompare. TestChronologicalPositionsEqualPlace
// (placers_positions_internal_test.go) proves it on random inputs on both
// sides of the threshold, timestamps within seconds of each end of the
// UnixNano range included. BenchmarkChronologicalPlacer
// (placers_bench_test.go) and BenchmarkPlacerPipeline (package cupel's
// placers_bench_test.go) measure what it saves.

// PlacePositions implements [cupel.PositionPlacer]: the positions in items of
// [Chronological.Place]'s order.
func (*Chronological) PlacePositions(items []cupel.ScoredItem) []int {
	out := make([]int, len(items))
	if len(items) <= 1 {
		return out // [] or [0]
	}
	kp := keysort.GetScratch(len(items))
	defer keysort.PutScratch(kp)
	if keys, ok := chronoFastKeys(items, (*kp)[:len(items)]); ok {
		keysort.Sort(keys)
		for i, k := range keys {
			out[i] = k.Idx
		}
		return out
	}
	sortable := make([]timedIndex, len(items))
	for i, si := range items {
		sortable[i] = timedIndexOf(si, i)
	}
	slices.SortFunc(sortable, chronologicalCompare)
	for i, s := range sortable {
		out[i] = s.index
	}
	return out
}

// chronoFastKeys fills keys, of len(items), with the placer's uint64 keys
// (items without a timestamp get the largest), or reports that some
// timestamp has no exact UnixNano.
func chronoFastKeys(items []cupel.ScoredItem, keys []keysort.KeyIdx) ([]keysort.KeyIdx, bool) {
	for i, si := range items {
		k := uint64(math.MaxUint64)
		if it := si.Item; it != nil {
			if t, ok := it.Timestamp(); ok {
				if !keysort.NanosExact(t.Unix()) {
					return nil, false
				}
				k = uint64(t.UnixNano()) ^ 1<<63 // order-preserving
			}
		}
		keys[i] = keysort.KeyIdx{Key: k, Idx: i}
	}
	return keys, true
}
