package placer

import (
	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/internal/keysort"
)

// The position fast path of UShaped: the placed order as positions in
// the input, for the pipeline's PositionPlacer path, computed with
// keysort.Sort instead of a comparison sort.
//
// It must equal [UShaped.Place]: items[p].Item for p in
// PlacePositions(items) is Place(items), item for item. It has no
// threshold of its own (keysort.Sort chooses its algorithm by length; its
// result does not depend on the choice). PlaceRanked
// ([cupel.RankedPlacer]) is the same order for input already in rank order.
// TestUShapedPositionsEqualPlace and TestUShapedPlaceRankedEqualsPlace
// (placers_positions_internal_test.go) prove both on random inputs with ties, NaN and -0.0, at lengths on both
// sides of keysort's fewRadixPasses (keysort.Sort's switch to the radix sort).
// BenchmarkUShapedPlacer (placers_bench_test.go) and
// BenchmarkPlacerPipeline (package cupel's placers_bench_test.go) measure
// what it saves.

// PlacePositions implements [cupel.PositionPlacer]: the positions in items of
// [UShaped.Place]'s order.
func (*UShaped) PlacePositions(items []cupel.ScoredItem) []int {
	out := make([]int, len(items))
	if len(items) <= 1 {
		return out // [] or [0]
	}
	kp := keysort.GetScratch(len(items))
	defer keysort.PutScratch(kp)
	keys := (*kp)[:len(items)]
	for i, si := range items {
		keys[i] = keysort.KeyIdx{Key: keysort.DescKey(si.Score), Idx: i}
	}
	keysort.Sort(keys)
	n := len(items)
	for rank, k := range keys {
		out[ushapedSlot(rank, n)] = k.Idx
	}
	return out
}

// PlaceRanked implements [cupel.RankedPlacer]: it writes to out the positions of
// Place's order for len(out) items already in rank order (score
// descending, ties in input order), where the rank of each item is its
// position, so no sort is needed, and returns out. It is the pipeline's
// fast path for UShaped in a batch run without pinned items, whose
// selection comes in the Sort stage's order. It must equal
// [UShaped.Place] on any input in rank order; it has no threshold.
// TestUShapedPlaceRankedEqualsPlace and "UShapedPlacer.PlaceRanked"
// (package cupel's dispatch_test.go) compare it with Place on random ranked
// inputs with ties, NaN and -0.0; BenchmarkRankedPlacer (package cupel's
// dispatch_bench_test.go: configuration A, "spec" through PlacePositions)
// measures what it saves.
func (*UShaped) PlaceRanked(out []int) []int {
	n := len(out)
	for rank := range out {
		out[ushapedSlot(rank, n)] = rank
	}
	return out
}

// ushapedSlot is where UShaped puts the item of the given rank among
// n: even ranks fill from the start, odd ranks from the end.
func ushapedSlot(rank, n int) int {
	half := int(uint(rank) >> 1)
	if rank&1 == 0 {
		return half
	}
	return n - 1 - half
}
