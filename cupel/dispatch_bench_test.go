package cupel_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
)

// positionsOnly is a PositionSlicer with none of the slicer's other
// optional methods: an untraced run sorts and calls SlicePositions.
type positionsOnly struct{ cupel.PositionSlicer }

// contextOnly is a ContextSlicer with none of the slicer's other optional
// methods: a run that can be cancelled calls SliceContext and matches the
// items back to their scores.
type contextOnly struct{ cupel.ContextSlicer }

// positionsOnlyPlacer is a PositionPlacer with none of the placer's other
// optional methods: the Place stage calls PlacePositions.
type positionsOnlyPlacer struct{ cupel.PositionPlacer }

// BenchmarkRankedPlacer measures the RankedPlacer path of a batch run
// without pinned items (UShapedPlacer.PlaceRanked: no sort of the
// selection) in configuration A: "fast" takes it, "spec" calls
// PlacePositions, the path without it.
func BenchmarkRankedPlacer(b *testing.B) {
	cfgs := benchConfigs(b)
	for _, n := range benchSizes {
		items := benchItems(n)
		for _, path := range []string{"spec", "fast"} {
			b.Run("A/N="+strconv.Itoa(n)+"/"+path, func(b *testing.B) {
				policy, budget, _ := cfgs["A"]()
				if path == "spec" {
					policy.Placer = positionsOnlyPlacer{policy.Placer.(cupel.PositionPlacer)}
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

// BenchmarkUnsortedSlice measures the UnsortedSlicer path of an untraced run
// (GreedySlice.SliceUnsorted: no Sort stage, only the selection sorted) in
// configurations A and C: "fast" takes it, "spec" runs the Sort stage and
// SlicePositions, the path without it.
func BenchmarkUnsortedSlice(b *testing.B) {
	cfgs := benchConfigs(b)
	for _, name := range []string{"A", "C"} {
		for _, n := range benchSizes {
			items := benchItems(n)
			for _, path := range []string{"spec", "fast"} {
				b.Run(name+"/N="+strconv.Itoa(n)+"/"+path, func(b *testing.B) {
					policy, budget, _ := cfgs[name]()
					if path == "spec" {
						policy.Slicer = positionsOnly{policy.Slicer.(cupel.PositionSlicer)}
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

// BenchmarkCancellablePositions measures why, in a run that can be
// cancelled, the Slice stage asks a PositionSlicer for positions before a
// ContextSlicer's SliceContext: configuration D (traced, so SliceUnsorted
// does not apply) under a context that can be cancelled, "fast" calling
// GreedySlice's SlicePositions, "spec" its SliceContext and matching the
// items back.
func BenchmarkCancellablePositions(b *testing.B) {
	cfgs := benchConfigs(b)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, n := range benchSizes {
		items := benchItems(n)
		for _, path := range []string{"spec", "fast"} {
			b.Run("D/N="+strconv.Itoa(n)+"/"+path, func(b *testing.B) {
				policy, budget, _ := cfgs["D"]()
				if path == "spec" {
					policy.Slicer = contextOnly{policy.Slicer.(cupel.ContextSlicer)}
				}
				p, err := cupel.NewPipeline(policy)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					c := cupel.NewDiagnosticTraceCollector(cupel.DetailItem, nil)
					if _, err := p.RunContext(ctx, items, budget, cupel.WithTrace(c)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
