package cupel

import (
	"sync"

	"github.com/cupel-go/go-cupel/cupel/internal/keysort"
)

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

// putScratchBuffers clears the buffers that hold pointers, so that the pool
// keeps no item alive, and returns sc to the pool.
func putScratchBuffers(sc *scratch) {
	if cap(sc.scoreable) > keysort.MaxScratchItems || cap(sc.sorted) > keysort.MaxScratchItems {
		return
	}
	clear(sc.pinned[:cap(sc.pinned)])
	clear(sc.scoreable[:cap(sc.scoreable)])
	clear(sc.sorted[:cap(sc.sorted)])
	clear(sc.sliced[:cap(sc.sliced)])
	clear(sc.merged[:cap(sc.merged)])
	scratchBuffers.Put(sc)
}
