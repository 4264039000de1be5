package cupel

import (
	"math"
	"math/bits"
	"sync"
)

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

// sortKeyIdx sorts k by key ascending, then idx ascending. Sorted inputs are
// detected in one pass and left alone. Short inputs use an introsort
// specialised to keyIdx (sortsmall.go); longer ones a stable LSD radix sort on the key,
// which keeps equal keys in input (idx) order when k is built in idx order.
func sortKeyIdx(k []keyIdx) {
	_ = sortKeyIdxStop(k, nil, "")
}

// sortKeyIdxStop is sortKeyIdx polling c (when not nil) between the passes
// of the radix sort; it returns c's *CanceledError, naming stage, when the
// context is done, leaving k in some permutation of its records.
func sortKeyIdxStop(k []keyIdx, c *canceller, stage PipelineStage) error {
	if sortedKeyIdx(k) {
		return nil // common: placer input arrives in score order
	}
	if !idxAscending(k) {
		introSortKeyIdx(k)
		return nil
	}
	if len(k) < radixThreshold {
		diff := varyingBits(k)
		if !fewRadixPasses(len(k), diff) {
			introSortKeyIdx(k)
			return nil
		}
		if varyingBytes(diff) <= radixFewBytes {
			return radixSortFewBytes(k, diff, c, stage)
		}
	}
	return radixSortKeyIdx(k, c, stage)
}

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

// radixThreshold is where the radix sort overtakes introSortKeyIdx: below
// about 1,000 keys the radix sort's eight 256-bucket histograms and passes
// cost more than the comparisons (measured on random float keys: the
// introsort took about 2/5 of the radix time at 100 and 256 keys, 2/3 at
// 1,000, and the two were level at 2,000 to 4,000).
const radixThreshold = 1024

// scratchPool recycles []keyIdx buffers: the radix sort's scratch and the
// key slices the stages and batch scorers sort. A run sorts several times,
// and the buffers would otherwise be garbage after each sort. A buffer is
// returned to the pool by the function that took it, before it returns;
// none is ever stored or handed out.
var scratchPool slicePool[keyIdx]

func getScratch(n int) *[]keyIdx { return scratchPool.get(n) }

func putScratch(p *[]keyIdx) { scratchPool.put(p) }

// slicePool recycles buffers of one element type, under the rules of
// scratchPool: the function that takes a buffer gives it back before it
// returns.
type slicePool[T any] struct{ p sync.Pool }

// get returns a buffer of capacity at least n (its contents are garbage).
func (sp *slicePool[T]) get(n int) *[]T {
	if p, ok := sp.p.Get().(*[]T); ok && cap(*p) >= n {
		return p
	}
	b := make([]T, n)
	return &b
}

func (sp *slicePool[T]) put(p *[]T) {
	const maxPooled = 1 << 20 // do not hold on to buffers of huge inputs
	if cap(*p) <= maxPooled {
		sp.p.Put(p)
	}
}

// varyingBits returns the bits in which some two keys of k differ.
func varyingBits(k []keyIdx) uint64 {
	and, or := ^uint64(0), uint64(0)
	for _, r := range k {
		and &= r.key
		or |= r.key
	}
	return and ^ or
}

// fewRadixPasses reports whether the radix sort, needing one pass over n
// records and 256 buckets per varying byte of diff, beats the introsort's
// n log2 n comparisons for n below radixThreshold. The weights are the
// per-record costs measured on random keys (a radix pass record about 1.5
// introsort comparisons). Keys that differ in few bytes (priorities, small
// counts, 32-bit hashes) take the radix sort even when short.
func fewRadixPasses(n int, diff uint64) bool {
	return 3*varyingBytes(diff)*(n+256) < 2*n*bits.Len(uint(n))
}

// radixSortKeyIdx is a stable LSD radix sort on key, 8 bits per pass,
// skipping passes in which every key has the same byte. It takes one
// scratch slice of len(k) from the pool. A non-nil c is polled before each
// pass. (Counting only the varying bytes, with a loop over a list of them,
// measured about 15 % slower at 100,000 float keys than this fixed loop;
// radixSortFewBytes does so when few bytes vary.)
func radixSortKeyIdx(k []keyIdx, c *canceller, stage PipelineStage) error {
	var counts [8][256]int
	for i := range k {
		v := k[i].key
		for p := 0; p < 8; p++ {
			counts[p][byte(v>>(8*p))]++
		}
	}
	n := len(k)
	scratch := getScratch(n)
	defer putScratch(scratch)
	src, dst := k, (*scratch)[:n]
	for p := 0; p < 8; p++ {
		cnt := &counts[p]
		if cnt[byte(src[0].key>>(8*p))] == n {
			continue // all keys share this byte
		}
		if err := c.err(stage); err != nil {
			return err
		}
		radixPass(src, dst, cnt, uint(8*p))
		src, dst = dst, src
	}
	if &src[0] != &k[0] {
		copy(k, src)
	}
	return nil
}

// radixFewBytes is the most varying bytes for which radixSortFewBytes
// counts only those bytes.
const radixFewBytes = 4

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

// radixSortFewBytes is radixSortKeyIdx for keys that differ only in the
// bytes where diff (their varyingBits) is non-zero, at most radixFewBytes
// of them: it counts and passes over those bytes only (recency keys in
// seconds over a month vary in 3 of 8). The same stable order.
func radixSortFewBytes(k []keyIdx, diff uint64, c *canceller, stage PipelineStage) error {
	var shifts [radixFewBytes]uint
	np := 0
	for p := uint(0); p < 64; p += 8 {
		if byte(diff>>p) != 0 {
			shifts[np] = p
			np++
		}
	}
	if np == 0 {
		return nil // all keys equal: k is in idx order already
	}
	var counts [radixFewBytes][256]int
	for i := range k {
		v := k[i].key
		for j := range np {
			counts[j][byte(v>>shifts[j])]++
		}
	}
	n := len(k)
	scratch := getScratch(n)
	defer putScratch(scratch)
	src, dst := k, (*scratch)[:n]
	for j := range np {
		if err := c.err(stage); err != nil {
			return err
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
func radixPass(src, dst []keyIdx, cnt *[256]int, shift uint) {
	sum := 0
	for b := 0; b < 256; b++ {
		x := cnt[b]
		cnt[b] = sum
		sum += x
	}
	for _, r := range src {
		b := byte(r.key >> shift)
		dst[cnt[b]] = r
		cnt[b]++
	}
}
