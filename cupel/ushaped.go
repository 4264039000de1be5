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
	left, right := 0, len(items)-1
	for rank, k := range keys {
		if rank%2 == 0 {
			out[left] = k.idx
			left++
		} else {
			out[right] = k.idx
			right--
		}
	}
	return out
}
