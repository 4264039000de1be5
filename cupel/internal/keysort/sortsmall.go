package keysort

import "math/bits"

// This file speeds up Sort (sortkey.go) for short inputs, and sorts
// records not in idx order: an introsort specialised to KeyIdx, quicksort
// with a median-of-three pivot, insertion sort for ranges of up to 16
// records and heapsort past 2 log2 n levels of recursion. Unlike
// slices.SortFunc it calls no comparator through a function value, which
// at a few hundred keys is most of the cost. Records are distinct under
// lessKeyIdx (idx differs), so the order is fully determined: that of
// slices.SortFunc(k, Cmp), which TestSortKeyIdxAgreesWithReference
// checks on random and adversarial keys, with the heapsort fallback
// forced; BenchmarkSortKeyIdx measures it against slices.SortFunc and the
// radix sort.

func lessKeyIdx(a, b KeyIdx) bool {
	return a.Key < b.Key || (a.Key == b.Key && a.Idx < b.Idx)
}

func IntroSortKeyIdx(k []KeyIdx) {
	introSortKeyIdxDepth(k, 2*bits.Len(uint(len(k))))
}

func introSortKeyIdxDepth(k []KeyIdx, depth int) {
	for len(k) > 16 {
		if depth == 0 {
			HeapSortKeyIdx(k)
			return
		}
		depth--
		p := PartitionKeyIdx(k)
		// Recurse into the shorter side, loop on the longer.
		if p < len(k)-p-1 {
			introSortKeyIdxDepth(k[:p], depth)
			k = k[p+1:]
		} else {
			introSortKeyIdxDepth(k[p+1:], depth)
			k = k[:p]
		}
	}
	InsertionSortKeyIdx(k)
}

// PartitionKeyIdx moves the median of k's first, middle and last records to
// its place and returns that place: records before it are less, after it
// greater.
func PartitionKeyIdx(k []KeyIdx) int {
	n := len(k)
	a, b, c := 0, n/2, n-1
	if lessKeyIdx(k[b], k[a]) {
		a, b = b, a
	}
	if lessKeyIdx(k[c], k[b]) {
		b = c
		if lessKeyIdx(k[b], k[a]) {
			b = a
		}
	}
	k[0], k[b] = k[b], k[0]
	pivot := k[0]
	i, j := 1, n-1
	for {
		for i <= j && lessKeyIdx(k[i], pivot) {
			i++
		}
		for i <= j && lessKeyIdx(pivot, k[j]) {
			j--
		}
		if i > j {
			break
		}
		k[i], k[j] = k[j], k[i]
		i++
		j--
	}
	k[0], k[j] = k[j], k[0]
	return j
}

func InsertionSortKeyIdx(k []KeyIdx) {
	for i := 1; i < len(k); i++ {
		x := k[i]
		j := i
		for j > 0 && lessKeyIdx(x, k[j-1]) {
			k[j] = k[j-1]
			j--
		}
		k[j] = x
	}
}

func HeapSortKeyIdx(k []KeyIdx) {
	n := len(k)
	for i := n/2 - 1; i >= 0; i-- {
		siftDownKeyIdx(k, i, n)
	}
	for end := n - 1; end > 0; end-- {
		k[0], k[end] = k[end], k[0]
		siftDownKeyIdx(k, 0, end)
	}
}

func siftDownKeyIdx(k []KeyIdx, root, n int) {
	for {
		child := 2*root + 1
		if child >= n {
			return
		}
		if child+1 < n && lessKeyIdx(k[child], k[child+1]) {
			child++
		}
		if !lessKeyIdx(k[root], k[child]) {
			return
		}
		k[root], k[child] = k[child], k[root]
		root = child
	}
}
