package keysort

import (
	"math"
	"sync"
)

// MaxScratchItems bounds the buffers kept between runs: a run over a huge
// input does not pin its buffers in the pool.
const MaxScratchItems = 1 << 20

// CompareScoreDesc orders scores descending with -0.0 equal to +0.0 and NaN
// after every number (ruling 6). It returns <0 when a sorts first.
func CompareScoreDesc(a, b float64) int {
	aNaN, bNaN := a != a, b != b
	switch {
	case aNaN || bNaN:
		if aNaN && bNaN {
			return 0
		}
		if aNaN {
			return 1
		}
		return -1
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// NanosExact reports whether every instant in the Unix second sec has an
// exact UnixNano below math.MaxInt64 (which chronoFastKeys keeps for "no
// timestamp"): the seconds of the years 1678 to 2262, less the partial
// ones at each end.
func NanosExact(sec int64) bool {
	return sec >= math.MinInt64/1_000_000_000 && sec < math.MaxInt64/1_000_000_000
}

// Resize returns *buf with length n, reallocating it (and keeping the new
// one in *buf) when it is too small. The contents are not cleared.
func Resize[T any](buf *[]T, n int) []T {
	if cap(*buf) < n {
		*buf = make([]T, n, n+n/4)
	}
	*buf = (*buf)[:n]
	return *buf
}

// scratchPool recycles []KeyIdx buffers: the radix sort's scratch and the
// key slices the stages and batch scorers sort. A run sorts several times,
// and the buffers would otherwise be garbage after each sort. A buffer is
// returned to the pool by the function that took it, before it returns;
// none is ever stored or handed out.
var scratchPool SlicePool[KeyIdx]

func GetScratch(n int) *[]KeyIdx { return scratchPool.Get(n) }

func PutScratch(p *[]KeyIdx) { scratchPool.Put(p) }

// SlicePool recycles buffers of one element type, under the rules of
// scratchPool: the function that takes a buffer gives it back before it
// returns.
type SlicePool[T any] struct{ p sync.Pool }

// get returns a buffer of capacity at least n (its contents are garbage).
func (sp *SlicePool[T]) Get(n int) *[]T {
	if p, ok := sp.p.Get().(*[]T); ok && cap(*p) >= n {
		return p
	}
	b := make([]T, n)
	return &b
}

func (sp *SlicePool[T]) Put(p *[]T) {
	const maxPooled = 1 << 20 // do not hold on to buffers of huge inputs
	if cap(*p) <= maxPooled {
		sp.p.Put(p)
	}
}
