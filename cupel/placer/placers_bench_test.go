package placer_test

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
)

// placerBenchInput returns n distinct items with timestamps over 30 days
// (as cupel's benchmark items have) and random scores, in score order
// (score descending), as the pipeline hands them to a placer.
func placerBenchInput(n int) []cupel.ScoredItem {
	r := rand.New(rand.NewPCG(42, uint64(n)))
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	in := make([]cupel.ScoredItem, n)
	for i := range in {
		ts := base.Add(time.Duration(r.Int64N(30*24*3600)) * time.Second)
		it := cupel.MustItem(cupel.ItemSpec{Content: "item-" + strconv.Itoa(i), Tokens: 10 + r.IntN(1991), Timestamp: &ts})
		in[i] = cupel.ScoredItem{Item: it, Score: r.Float64()}
	}
	slices.SortStableFunc(in, func(a, b cupel.ScoredItem) int { return cmp.Compare(b.Score, a.Score) })
	return in
}

// benchPlacer compares, at each size, the spec method Place with the
// position fast path (PlacePositions, then the items at those positions,
// as the pipeline does).
func benchPlacer(b *testing.B, p cupel.PositionPlacer) {
	for _, n := range []int{100, 1000, 10000, 100000} {
		in := placerBenchInput(n)
		b.Run("N="+strconv.Itoa(n)+"/spec", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p.Place(in)
			}
		})
		b.Run("N="+strconv.Itoa(n)+"/fast", func(b *testing.B) {
			b.ReportAllocs()
			out := make([]*cupel.ContextItem, n)
			for b.Loop() {
				for i, pos := range p.PlacePositions(in) {
					out[i] = in[pos].Item
				}
			}
		})
	}
}

// BenchmarkUShapedPlacer: UShaped.Place against its position fast path
// (ushaped_positions.go).
func BenchmarkUShapedPlacer(b *testing.B) { benchPlacer(b, placer.NewUShaped()) }

// BenchmarkChronologicalPlacer: Chronological.Place against its position
// fast path (chronological_positions.go).
func BenchmarkChronologicalPlacer(b *testing.B) { benchPlacer(b, placer.NewChronological()) }
