package cupel

// itemsAt returns the items of items at the given positions, in order.
func itemsAt(items []ScoredItem, positions []int) []*ContextItem {
	out := make([]*ContextItem, len(positions))
	for i, p := range positions {
		out[i] = items[p].Item
	}
	return out
}
