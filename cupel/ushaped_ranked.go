package cupel

// PlaceRanked implements [RankedPlacer]: it writes to out the positions of
// Place's order for len(out) items already in rank order (score descending,
// ties in input order), where the rank of each item is its position, so no
// sort is needed, and returns out. It is
// the pipeline's fast path for UShapedPlacer in a batch run without pinned
// items, whose selection comes in the Sort stage's order.
//
//   - (a) It must equal [UShapedPlacer.Place] on any input in rank order.
//   - (b) It has no threshold.
//   - (c) "UShapedPlacer.PlaceRanked" in dispatch_test.go compares it with
//     Place on random ranked inputs with ties, NaN and -0.0;
//     BenchmarkRankedPlacer (configuration A, "spec" through PlacePositions)
//     measures what it saves.
func (*UShapedPlacer) PlaceRanked(out []int) []int {
	n := len(out)
	for rank := range out {
		half := rank >> 1
		if rank&1 == 0 {
			out[half] = rank
		} else {
			out[n-1-half] = rank
		}
	}
	return out
}
