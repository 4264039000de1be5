package cupel

import "math"

// keyIdx is a sort record: an order-preserving unsigned key and the position
// of the record in the input. Sorting by (key asc, idx asc) gives a
// deterministic order without relying on sort stability (spec P1).
type keyIdx struct {
	key uint64
	idx int
}

// descKey maps a float64 to a uint64 whose ascending order is the order of
// compareScoreDesc: descending, -0.0 equal to +0.0, NaN after every number
// and all NaNs equal (ruling 6).
func descKey(f float64) uint64 {
	if f != f {
		return math.MaxUint64
	}
	if f == 0 {
		f = 0 // -0.0 -> +0.0
	}
	b := math.Float64bits(f)
	if b>>63 != 0 {
		b = ^b
	} else {
		b |= 1 << 63
	}
	// b now ascends with f; no number maps to b == 0 (that would be a NaN),
	// so ^b never equals the NaN key.
	return ^b
}

// cmpKeyIdx is the order sortKeyIdx sorts in: key ascending, then idx
// ascending.
func cmpKeyIdx(a, b keyIdx) int {
	switch {
	case a.key < b.key:
		return -1
	case a.key > b.key:
		return 1
	case a.idx < b.idx:
		return -1
	case a.idx > b.idx:
		return 1
	}
	return 0
}

// sortKeyIdx sorts k by cmpKeyIdx: it is slices.SortFunc(k, cmpKeyIdx),
// faster (BenchmarkSortKeyIdx measures the two).
func sortKeyIdx(k []keyIdx) {
	_ = sortKeyIdxStop(k, nil, "")
}

// sortKeyIdxStop is sortKeyIdx polling c (when not nil) between the passes
// of the radix sort; it returns c's *CanceledError, naming stage, when the
// context is done, leaving k in some permutation of its records.
//
// It is the one place that picks a sort. Sorted input (placer input
// arrives in score order) is left alone after one pass. Records in idx
// order take the radix sort (sort_radix.go) when fewRadixPasses says its
// passes cost less than the comparisons of the introsort (sortsmall.go),
// which takes everything else: the radix sort keeps records of equal keys
// in input order, which is (key, idx) order only when idx ascends.
// TestSortKeyIdxAgreesWithReference checks every branch against
// slices.SortFunc.
func sortKeyIdxStop(k []keyIdx, c *canceller, stage PipelineStage) error {
	if sortedKeyIdx(k) {
		return nil
	}
	if idxAscending(k) {
		if diff := varyingBits(k); fewRadixPasses(len(k), diff) {
			return radixSortKeyIdx(k, diff, c, stage)
		}
	}
	introSortKeyIdx(k)
	return nil
}

func sortedKeyIdx(k []keyIdx) bool {
	for i := 1; i < len(k); i++ {
		if cmpKeyIdx(k[i-1], k[i]) > 0 {
			return false
		}
	}
	return true
}

func idxAscending(k []keyIdx) bool {
	for i := 1; i < len(k); i++ {
		if k[i].idx <= k[i-1].idx {
			return false
		}
	}
	return true
}
