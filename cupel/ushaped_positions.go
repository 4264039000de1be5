package cupel

// The position fast path of UShapedPlacer: the placed order as positions in
// the input, for the pipeline's PositionPlacer path, computed with
// sortKeyIdx instead of a comparison sort.
//
// It must equal [UShapedPlacer.Place]: items[p].Item for p in
// PlacePositions(items) is Place(items), item for item. It has no
// threshold of its own (sortKeyIdx chooses its algorithm by length; its
// result does not depend on the choice). placeRanked is the same order for
// input already in rank order. TestUShapedPositionsEqualPlace and
// TestUShapedPlaceRankedEqualsPlace (placers_positions_internal_test.go)
// prove both on random inputs with ties, NaN and -0.0, at lengths on both
// sides of fewRadixPasses (sortKeyIdx's switch to the radix sort).
// BenchmarkUShapedPlacer and
// BenchmarkPlacerPipeline (placers_bench_test.go) measure what it saves.

// PlacePositions implements [PositionPlacer]: the positions in items of
// [UShapedPlacer.Place]'s order.
func (u *UShapedPlacer) PlacePositions(items []ScoredItem) []int {
	return u.placeInto(items, make([]int, len(items)))
}

// placeInto writes PlacePositions(items) to out, of len(items), and
// returns it.
func (*UShapedPlacer) placeInto(items []ScoredItem, out []int) []int {
	if len(items) <= 1 {
		clear(out)
		return out // [] or [0]
	}
	kp := getScratch(len(items))
	defer putScratch(kp)
	keys := (*kp)[:len(items)]
	for i, si := range items {
		keys[i] = keyIdx{descKey(si.Score), i}
	}
	sortKeyIdx(keys)
	n := len(items)
	for rank, k := range keys {
		out[ushapedSlot(rank, n)] = k.idx
	}
	return out
}

// placeRanked is placeInto for items already in rank order (score
// descending, ties in input order), the order in which the pipeline's Sort
// stage delivers them: the rank of each item is its position. It writes the
// positions to out (len(items)) and returns it.
func (*UShapedPlacer) placeRanked(out []int) []int {
	n := len(out)
	for rank := range out {
		out[ushapedSlot(rank, n)] = rank
	}
	return out
}

// ushapedSlot is where UShapedPlacer puts the item of the given rank among
// n: even ranks fill from the start, odd ranks from the end.
func ushapedSlot(rank, n int) int {
	half := int(uint(rank) >> 1)
	if rank&1 == 0 {
		return half
	}
	return n - 1 - half
}
