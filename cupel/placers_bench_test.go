package cupel_test

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
)

// placerBenchInput returns the items of benchItems(n) (timestamps over 30
// days) with random scores, in score order (score descending), as the
// pipeline hands them to a placer.
func placerBenchInput(n int) []cupel.ScoredItem {
	r := rand.New(rand.NewPCG(42, uint64(n)))
	in := make([]cupel.ScoredItem, n)
	for i, it := range benchItems(n) {
		in[i] = cupel.ScoredItem{Item: it, Score: r.Float64()}
	}
	slices.SortStableFunc(in, func(a, b cupel.ScoredItem) int { return cmp.Compare(b.Score, a.Score) })
	return in
}

// benchPlacer compares, at each size, the spec method Place with the
// position fast path (PlacePositions, then the items at those positions,
// as the pipeline does).
func benchPlacer(b *testing.B, p cupel.PositionPlacer) {
	for _, n := range benchSizes {
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

// BenchmarkUShapedPlacer: UShapedPlacer.Place against its position fast
// path (ushaped_positions.go).
func BenchmarkUShapedPlacer(b *testing.B) { benchPlacer(b, cupel.NewUShapedPlacer()) }

// BenchmarkChronologicalPlacer: ChronologicalPlacer.Place against its
// position fast path (chronological_positions.go).
func BenchmarkChronologicalPlacer(b *testing.B) { benchPlacer(b, cupel.NewChronologicalPlacer()) }

// BenchmarkPlacerPipeline runs the pipeline configurations A (UShapedPlacer),
// B and C (ChronologicalPlacer) with the built-in placer ("fast": the
// position fast path) and with the same placer reduced to its Place method
// ("spec", through placeOnly of fastpath_test.go), in the same run.
func BenchmarkPlacerPipeline(b *testing.B) {
	cfgs := benchConfigs(b)
	for _, name := range []string{"A", "B", "C"} {
		for _, n := range benchSizes {
			items := benchItems(n)
			for _, path := range []string{"spec", "fast"} {
				b.Run(name+"/N="+strconv.Itoa(n)+"/"+path, func(b *testing.B) {
					policy, budget, _ := cfgs[name]()
					if path == "spec" {
						policy.Placer = placeOnly{policy.Placer}
					}
					p, err := cupel.NewPipeline(policy)
					if err != nil {
						b.Fatal(err)
					}
					b.ReportAllocs()
					for b.Loop() {
						if _, err := p.Run(items, budget); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}
