package cupel

import "sync"

// scratch holds the buffers one run works in: a run takes one from
// scratchBuffers and gives it back when it returns, so that a pipeline
// serving request after request allocates little more than its Result.
// Nothing in it outlives the run: the Result, the report and the events
// are built from fresh memory, and a component must not keep a slice it is
// handed after its call returns (see [Scorer], [Slicer] and [Placer]). The
// pool makes the reuse safe for concurrent runs: a scratch serves one run
// at a time.
type scratch struct {
	scores     []float64
	pinned     []*ContextItem
	scoreable  []*ContextItem
	survivors  []int
	dedup      []dedupSlot
	dedupSlots []int32
	sorted     []ScoredItem
	chosen     []bool
	sliced     []ScoredItem
	merged     []ScoredItem
	positions  []int
}

var scratchBuffers = sync.Pool{New: func() any { return new(scratch) }}

func getScratchBuffers() *scratch { return scratchBuffers.Get().(*scratch) }

// maxScratchItems bounds the buffers kept between runs: a run over a huge
// input does not pin its buffers in the pool.
const maxScratchItems = 1 << 20

// putScratchBuffers clears the buffers that hold pointers, so that the pool
// keeps no item alive, and returns sc to the pool.
func putScratchBuffers(sc *scratch) {
	if cap(sc.scoreable) > maxScratchItems || cap(sc.sorted) > maxScratchItems {
		return
	}
	clear(sc.pinned[:cap(sc.pinned)])
	clear(sc.scoreable[:cap(sc.scoreable)])
	clear(sc.sorted[:cap(sc.sorted)])
	clear(sc.sliced[:cap(sc.sliced)])
	clear(sc.merged[:cap(sc.merged)])
	scratchBuffers.Put(sc)
}

// resize returns *buf with length n, reallocating it (and keeping the new
// one in *buf) when it is too small. The contents are not cleared.
func resize[T any](buf *[]T, n int) []T {
	if cap(*buf) < n {
		*buf = make([]T, n, n+n/4)
	}
	*buf = (*buf)[:n]
	return *buf
}

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
