package keysort

import "math"

// KeyIdx is a sort record: an order-preserving unsigned key and the position
// of the record in the input. Sorting by (key asc, idx asc) gives a
// deterministic order without relying on sort stability (spec P1).
type KeyIdx struct {
	Key uint64
	Idx int
}

// DescKey maps a float64 to a uint64 whose ascending order is the order of
// CompareScoreDesc: descending, -0.0 equal to +0.0, NaN after every number
// and all NaNs equal (ruling 6).
func DescKey(f float64) uint64 {
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

// Cmp is the order Sort sorts in: key ascending, then idx
// ascending.
func Cmp(a, b KeyIdx) int {
	switch {
	case a.Key < b.Key:
		return -1
	case a.Key > b.Key:
		return 1
	case a.Idx < b.Idx:
		return -1
	case a.Idx > b.Idx:
		return 1
	}
	return 0
}

// Sort sorts k by Cmp: it is slices.SortFunc(k, Cmp),
// faster (BenchmarkSortKeyIdx measures the two).
func Sort(k []KeyIdx) {
	_ = SortPoll(k, nil)
}

// SortPoll is Sort calling poll (when not nil) between the
// passes of the radix sort; it returns poll's error when there is one,
// leaving k in some permutation of its records.
//
// It is the one place that picks a sort. Sorted input (placer input
// arrives in score order) is left alone after one pass. Records in idx
// order take the radix sort (sort_radix.go) when fewRadixPasses says its
// passes cost less than the comparisons of the introsort (sortsmall.go),
// which takes everything else: the radix sort keeps records of equal keys
// in input order, which is (key, idx) order only when idx ascends.
// TestSortKeyIdxAgreesWithReference checks every branch against
// slices.SortFunc.
func SortPoll(k []KeyIdx, poll func() error) error {
	if SortedKeyIdx(k) {
		return nil
	}
	if idxAscending(k) {
		if diff := VaryingBits(k); fewRadixPasses(len(k), diff) {
			return RadixSortKeyIdx(k, diff, poll)
		}
	}
	IntroSortKeyIdx(k)
	return nil
}

func SortedKeyIdx(k []KeyIdx) bool {
	for i := 1; i < len(k); i++ {
		if Cmp(k[i-1], k[i]) > 0 {
			return false
		}
	}
	return true
}

func idxAscending(k []KeyIdx) bool {
	for i := 1; i < len(k); i++ {
		if k[i].Idx <= k[i-1].Idx {
			return false
		}
	}
	return true
}
