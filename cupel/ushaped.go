package cupel

// UShapedPlacer puts the highest-scored items at both edges of the context
// and the lowest in the middle (spec chapter 33 (UShapedPlacer)). Items are
// ranked by score descending (-0.0 = +0.0, NaN after every number,
// ruling 6), input order breaking ties; even ranks fill from the
// start, odd ranks from the end.
//
// A ScoredItem with a nil Item is placed (as nil) by its score like any other,
// so that the output is always a permutation of the input. UShapedPlacer has
// no state: the zero value and a nil *UShapedPlacer are ready to use and safe
// for concurrent use.
type UShapedPlacer struct{}

// NewUShapedPlacer returns a UShapedPlacer.
func NewUShapedPlacer() *UShapedPlacer { return &UShapedPlacer{} }

// Place implements [Placer]. It does not modify items.
func (u *UShapedPlacer) Place(items []ScoredItem) []*ContextItem {
	return itemsAt(items, u.PlacePositions(items))
}

// PlacePositions returns the placed order as positions in items (the
// pipeline's PositionPlacer fast path).
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
