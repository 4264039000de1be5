package keysort

import "math/bits"

// This file speeds up Sort (sortkey.go) for long inputs and for keys
// that differ in few bytes. RadixSortKeyIdx must give exactly the order of
// slices.SortFunc(k, Cmp) for records in idx order;
// TestSortKeyIdxAgreesWithReference and TestRadixSortAgreesWithReference
// prove it on random keys of every shape, on both sides of the
// fewRadixPasses threshold, and BenchmarkSortKeyIdx measures it against
// slices.SortFunc and the introsort.

// fewRadixPasses is the one threshold of Sort: it reports whether the
// radix sort, one pass over n records and 256 buckets per varying byte of
// diff, costs less than the introsort's n log2 n comparisons. The weights
// are the per-record costs measured on random keys (a radix pass record
// about 1.5 introsort comparisons): with all eight bytes varying the radix
// sort takes over at about 4,000 records, with one byte (priorities) at
// about 40.
func fewRadixPasses(n int, diff uint64) bool {
	return 3*varyingBytes(diff)*(n+256) < 2*n*bits.Len(uint(n))
}

// VaryingBits returns the bits in which some two keys of k differ.
func VaryingBits(k []KeyIdx) uint64 {
	and, or := ^uint64(0), uint64(0)
	for _, r := range k {
		and &= r.Key
		or |= r.Key
	}
	return and ^ or
}

// varyingBytes is the number of non-zero bytes of diff.
func varyingBytes(diff uint64) int {
	n := 0
	for ; diff != 0; diff >>= 8 {
		if byte(diff) != 0 {
			n++
		}
	}
	return n
}

// RadixSortKeyIdx is a stable LSD radix sort on key, 8 bits a pass, over
// the bytes in which diff (the keys' VaryingBits) is non-zero only: recency
// keys in seconds over a month vary in 3 bytes of 8, priorities in 1. It
// keeps records of equal keys in input order. It takes one scratch slice
// of len(k) from the pool, and calls poll (when not nil) before each pass,
// returning its error.
func RadixSortKeyIdx(k []KeyIdx, diff uint64, poll func() error) error {
	if len(k) < 2 {
		return nil
	}
	var shifts [8]uint
	np := 0
	for p := uint(0); p < 64; p += 8 {
		if byte(diff>>p) != 0 {
			shifts[np] = p
			np++
		}
	}
	if np == 0 {
		return nil // all keys equal: k is in input order already
	}
	var counts [8][256]int
	for i := range k {
		v := k[i].Key
		for j := range np {
			counts[j][byte(v>>shifts[j])]++
		}
	}
	n := len(k)
	scratch := GetScratch(n)
	defer PutScratch(scratch)
	src, dst := k, (*scratch)[:n]
	for j := range np {
		if poll != nil {
			if err := poll(); err != nil {
				return err
			}
		}
		radixPass(src, dst, &counts[j], shifts[j])
		src, dst = dst, src
	}
	if &src[0] != &k[0] {
		copy(k, src)
	}
	return nil
}

// radixPass moves the records of src to dst in the order of their byte
// at shift, stably; cnt holds the number of records with each byte value.
func radixPass(src, dst []KeyIdx, cnt *[256]int, shift uint) {
	sum := 0
	for b := 0; b < 256; b++ {
		x := cnt[b]
		cnt[b] = sum
		sum += x
	}
	for _, r := range src {
		b := byte(r.Key >> shift)
		dst[cnt[b]] = r
		cnt[b]++
	}
}
