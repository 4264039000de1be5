package scorer

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/internal/keysort"
	"github.com/cupel-go/go-cupel/internal/testtool"
)

// TestPriorityScoreAllAgreesWithScore: Priority.ScoreAll gives every
// item Score's value bit for bit, with priorities spanning fewer than
// rankCountSpan values (ranked by counting), exactly rankCountSpan and more
// (ranked by sorting), at sizes on both sides of the radix sort's
// threshold, with items without a priority, nil items and the extreme int
// values.
func TestPriorityScoreAllAgreesWithScore(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 15))
	spans := []int64{1, 2, rankCountSpan - 1, rankCountSpan, rankCountSpan + 1, 1 << 40}
	sizes := []int{2, 3, 40, 100, 1023, 1025, 3000, 5000}
	s := &Priority{}
	for trial := range testtool.Iterations(120, 24) {
		span, n := spans[trial%len(spans)], sizes[r.IntN(len(sizes))]
		base := r.Int64N(1000) - 500
		items := make([]*cupel.ContextItem, n)
		for i := range items {
			spec := cupel.ItemSpec{Content: "p" + strconv.Itoa(i), Tokens: 1}
			switch r.IntN(20) {
			case 0:
				continue // nil
			case 1: // no priority
			case 2:
				spec.Priority = cupel.Ptr([]int{math.MaxInt, math.MinInt}[r.IntN(2)])
			default:
				spec.Priority = cupel.Ptr(int(base + r.Int64N(span)))
			}
			items[i] = cupel.MustItem(spec)
		}
		out := make([]float64, n)
		s.ScoreAll(items, out)
		for i, it := range items {
			if want := s.Score(it, items); math.Float64bits(out[i]) != math.Float64bits(want) {
				t.Fatalf("trial %d (span %d, n %d): item %d: ScoreAll %v, Score %v", trial, span, n, i, out[i], want)
			}
		}
	}
}

// BenchmarkRankKeys measures the forks of the rank-based batch paths
// against the simpler path without them, on the keys of the pipeline
// benchmarks' items (priorities 0 to 10, whole-second timestamps over 30
// days): "priority/fast" ranks priorities by counting, "priority/simpler"
// by sorting; "recency/fast" sorts timestamps keyed in seconds,
// "recency/simpler" keyed in nanoseconds.
func BenchmarkRankKeys(b *testing.B) {
	for _, n := range []int{100, 1000, 10000, 100000} {
		r := rand.New(rand.NewPCG(7, uint64(n)))
		base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		prio, secs, nanos := make([]keysort.KeyIdx, n), make([]keysort.KeyIdx, n), make([]keysort.KeyIdx, n)
		for i := range n {
			ts := base.Add(time.Duration(r.IntN(30*24*3600)) * time.Second)
			prio[i] = keysort.KeyIdx{Key: signedKey(int64(r.IntN(11))), Idx: i}
			secs[i] = keysort.KeyIdx{Key: signedKey(ts.Unix()), Idx: i}
			nanos[i] = keysort.KeyIdx{Key: signedKey(ts.UnixNano()), Idx: i}
		}
		keys, out := make([]keysort.KeyIdx, n), make([]float64, n)
		run := func(name string, from []keysort.KeyIdx, rank func()) {
			b.Run(name+"/N="+strconv.Itoa(n), func(b *testing.B) {
				for b.Loop() {
					copy(keys, from)
					rank()
				}
			})
		}
		run("priority/fast", prio, func() { rankByCounting(keys, signedKey(0), out) })
		run("priority/simpler", prio, func() { rankBySorting(keys, out) })
		run("recency/fast", secs, func() { rankBySorting(keys, out) })
		run("recency/simpler", nanos, func() { rankBySorting(keys, out) })
	}
}
