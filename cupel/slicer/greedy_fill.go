package slicer

import (
	"math"
	"math/bits"
	"sync"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/internal/keysort"
)

// SlicePositions returns the positions in sorted of the items
// [Greedy.Slice] selects, in its order: the pipeline's
// [cupel.PositionSlicer] fast path, which must equal Slice exactly (same items,
// same order). Where Slice sorts every density, SlicePositions orders only
// what the fill needs (see greedyFill). The fill, with Sort-stage tie keys,
// also serves the pipeline's fused Sort and Slice stages
// (Greedy.SliceUnsorted, greedy_unsorted.go), where it must select the set that the Sort stage
// followed by Slice selects.
//
// The code forks at these points, all covered on both sides by
// TestGreedySlicePositionsEqualsSlice (random inputs against Slice), with
// TestGreedyFillTieKeysDecide and TestGreedyFillAllFitWaitsForTies:
//   - add leaves out items with negative tokens or more than the target;
//   - a part of at most greedyInsertionMax records is insertion-sorted, a
//     larger one partitioned; past 2*bits.Len(n) levels of partitioning a
//     part is heapsorted instead (the introsort guard);
//   - a part whose largest tokens exceed the remaining budget is first
//     filtered of the records that no longer fit;
//   - with tie keys only: a part whose records all fit is taken unsorted,
//     unless it continues the pending run of equal density, and a run of
//     equal density is ordered by keysort.Sort (a radix sort where
//     fewRadixPasses says it pays).
//
// It pays (BenchmarkGreedySlice, spec against fast in one run, items of
// 50-550 tokens, budgets of 30,000 and 128,000 tokens): 2x to 5x faster
// than Slice from 1,000 to 10,000 items, 1.7x at 100,000, with one
// allocation instead of six to eleven.
func (*Greedy) SlicePositions(sorted []cupel.ScoredItem, budget cupel.ContextBudget) ([]int, error) {
	target := budget.TargetTokens()
	if len(sorted) == 0 || target <= 0 {
		return []int{}, nil
	}
	f := newGreedyFill(len(sorted), target, false)
	defer f.release()
	for i, si := range sorted {
		if it := si.Item; it != nil {
			f.add(i, si.Score, it.Tokens())
		}
	}
	taken := f.run()
	out := make([]int, len(taken))
	for i, r := range taken {
		out[i] = r.Idx
	}
	return out, nil
}

// greedyFill is Greedy's fill (spec chapter 26 (GreedySlice)) without a
// full sort of the density order. It sorts the density records
// incrementally, quicksort style, and takes each record as soon as it is
// in place: the densest records are ordered first, and once the remaining
// budget drops below the largest tokens of a part not yet ordered, the
// records of that part that can no longer fit (tokens > remaining, and the
// remaining budget only shrinks) are dropped before it is partitioned. Past
// the point where the budget is spent, what is left to order is only the
// records that still fit, usually few. The selection and its order are
// exactly those of sorting every record by (density key, position) and
// taking, in that order, each one whose tokens fit what remains.
//
// The records are keysort.KeyIdx{keysort.DescKey(density), pos}. In the pipeline's fused
// path (tie != nil) positions are survivor positions, not Sort-stage
// positions, and a tie of densities breaks by (tie[pos], pos), the
// Sort-stage order: records of equal density are collected as they come out
// of the incremental sort (they come out together, by pos) and reordered
// before any of them is taken.
type greedyFill struct {
	recs      []keysort.KeyIdx // the records; taken ones are rewritten to recs[:n]
	toks      []int            // toks[pos]: the tokens of the record at pos
	tie       []uint64         // Sort-stage keys by pos, or nil: ties break by pos
	unordered bool             // the caller needs the set, not the order: all-fit parts are taken unsorted
	remaining int
	maxTok    int // the largest tokens among recs
	sum       int // their total, or math.MaxInt once it exceeds remaining
	n         int // records taken so far
	pend      []keysort.KeyIdx
	pendKey   uint64 // the density of pend: records not yet decided (tie != nil)
	kp        *[]keysort.KeyIdx
	gs        *greedyScratch
}

// greedyInsertionMax is the largest part the fill insertion-sorts rather
// than partitions.
const greedyInsertionMax = 16

// greedyScratch is the pooled memory of a fill besides its records.
type greedyScratch struct {
	toks []int
	tie  []uint64
	pend []keysort.KeyIdx
}

var greedyScratchPool = sync.Pool{New: func() any { return new(greedyScratch) }}

// newGreedyFill prepares a fill of up to n candidates (positions 0 to n-1)
// under target > 0; the caller adds them, runs the fill and calls release.
// With tie (of length n) ties break by the Sort-stage keys (see
// greedyFill).
func newGreedyFill(n, target int, tie bool) greedyFill {
	gs := greedyScratchPool.Get().(*greedyScratch)
	f := greedyFill{kp: keysort.GetScratch(n), gs: gs, toks: keysort.Resize(&gs.toks, n), remaining: target, pend: gs.pend[:0]}
	f.recs = (*f.kp)[:0]
	if tie {
		f.tie = keysort.Resize(&gs.tie, n)
		f.unordered = true
	}
	return f
}

// release returns the fill's memory to the pools; the records run returned
// are invalid afterwards.
func (f *greedyFill) release() {
	keysort.PutScratch(f.kp)
	f.gs.pend = f.pend[:0]
	if cap(f.gs.toks) <= keysort.MaxScratchItems {
		greedyScratchPool.Put(f.gs)
	}
}

// add adds the candidate at pos. Items with negative tokens, or more tokens
// than the target, can never be selected and are left out.
func (f *greedyFill) add(pos int, score float64, tokens int) {
	if tokens < 0 || tokens > f.remaining {
		return
	}
	f.toks[pos] = tokens
	f.recs = append(f.recs, keysort.KeyIdx{Key: greedyKey(score, tokens), Idx: pos})
	f.maxTok = max(f.maxTok, tokens)
	f.sum = addWithin(f.sum, tokens, f.remaining)
}

// addWithin is sum + t when that is at most limit (t <= limit), else
// math.MaxInt, without overflow; a sum of math.MaxInt stays there.
func addWithin(sum, t, limit int) int {
	if t > limit-sum {
		return math.MaxInt
	}
	return sum + t
}

// greedyKey is the density key of an item with tokens >= 0.
func greedyKey(score float64, tokens int) uint64 {
	if tokens == 0 {
		return keysort.DescKey(math.MaxFloat64)
	}
	return keysort.DescKey(score / float64(tokens))
}

// run fills from the records added and returns those taken: in density
// order, as keysort.KeyIdx{density key, pos}, when ties break by pos; as
// keysort.KeyIdx{tie[pos], pos}, in no particular order, otherwise.
func (f *greedyFill) run() []keysort.KeyIdx {
	if len(f.recs) == 0 || f.remaining <= 0 {
		return f.recs[:0]
	}
	if f.unordered && f.sum <= f.remaining {
		f.takeAll(0, len(f.recs))
	} else {
		f.fill(0, len(f.recs), f.maxTok, 2*bits.Len(uint(len(f.recs))))
	}
	f.flush()
	return f.recs[:f.n]
}

// fill takes, in order, the records of recs[lo:hi], which follow every
// record taken or pending and precede every record after hi. maxTok is at
// least the largest tokens among them. Past depth levels of partitioning it
// sorts the part with the heapsort instead (the introsort's guard).
func (f *greedyFill) fill(lo, hi, maxTok, depth int) {
	for hi > lo {
		if maxTok > f.remaining {
			var sum int
			var minKey uint64
			lo, maxTok, sum, minKey = f.filter(lo, hi)
			if lo == hi {
				return
			}
			if f.unordered && f.allFit(sum, minKey) {
				f.takeAll(lo, hi)
				return
			}
		}
		if hi-lo <= greedyInsertionMax || depth == 0 {
			if hi-lo <= greedyInsertionMax {
				keysort.InsertionSortKeyIdx(f.recs[lo:hi])
			} else {
				keysort.HeapSortKeyIdx(f.recs[lo:hi])
			}
			for j := lo; j < hi; j++ {
				f.consider(f.recs[j])
			}
			return
		}
		depth--
		p := lo + keysort.PartitionKeyIdx(f.recs[lo:hi])
		f.fill(lo, p, maxTok, depth)
		f.consider(f.recs[p])
		lo = p + 1
	}
}

// filter drops from recs[lo:hi] the records that no longer fit, moving the
// others to the end; it returns their start, largest and total tokens and
// smallest key.
func (f *greedyFill) filter(lo, hi int) (start, maxTok, sum int, minKey uint64) {
	j := hi
	minKey = math.MaxUint64
	for i := hi - 1; i >= lo; i-- {
		r := f.recs[i]
		if t := f.toks[r.Idx]; t <= f.remaining {
			j--
			f.recs[j] = r
			maxTok = max(maxTok, t)
			sum = addWithin(sum, t, f.remaining)
			minKey = min(minKey, r.Key)
		}
	}
	return j, maxTok, sum, minKey
}

// allFit reports whether records totalling sum tokens, the smallest key
// minKey, all fit once the pending records are decided: which they can be
// now unless the part continues their run of equal density.
func (f *greedyFill) allFit(sum int, minKey uint64) bool {
	if len(f.pend) > 0 {
		if minKey == f.pendKey {
			return false
		}
		f.flush()
	}
	return sum <= f.remaining
}

// takeAll takes every record of recs[lo:hi] (all of which fit).
func (f *greedyFill) takeAll(lo, hi int) {
	for j := lo; j < hi; j++ {
		r := f.recs[j]
		f.remaining -= f.toks[r.Idx]
		f.put(r)
	}
}

// consider decides r, the next record in density order, or, when ties
// break by f.tie, collects it with the records of its density.
func (f *greedyFill) consider(r keysort.KeyIdx) {
	if f.tie == nil {
		f.decide(r)
		return
	}
	if len(f.pend) > 0 && r.Key != f.pendKey {
		f.flush()
	}
	f.pend = append(f.pend, r)
	f.pendKey = r.Key
}

// flush decides the pending records of equal density in Sort-stage order.
func (f *greedyFill) flush() {
	if len(f.pend) == 0 {
		return
	}
	if len(f.pend) > 1 {
		for i, r := range f.pend {
			f.pend[i].Key = f.tie[r.Idx]
		}
		keysort.Sort(f.pend)
	}
	for _, r := range f.pend {
		f.decide(r)
	}
	f.pend = f.pend[:0]
}

func (f *greedyFill) decide(r keysort.KeyIdx) {
	if t := f.toks[r.Idx]; t <= f.remaining {
		f.remaining -= t
		f.put(r)
	}
}

// put records r as taken. Taken records never outnumber the records
// already passed, so recs[n] is free.
func (f *greedyFill) put(r keysort.KeyIdx) {
	if f.tie != nil {
		r.Key = f.tie[r.Idx]
	}
	f.recs[f.n] = r
	f.n++
}
