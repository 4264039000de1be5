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

// benchSpecFast runs configuration cfg at each N twice: "fast" as
// configured, "spec" with the policy changed by spec (the path without the
// fast one), each run being run(p, items, budget).
func benchSpecFast(b *testing.B, cfg string, spec func(*cupel.Policy), run func(*cupel.Pipeline, []*cupel.ContextItem, cupel.ContextBudget) error) {
	cfgs := benchConfigs(b)
	for _, n := range benchSizes {
		items := benchItems(n)
		for _, path := range []string{"spec", "fast"} {
			b.Run(cfg+"/N="+strconv.Itoa(n)+"/"+path, func(b *testing.B) {
				policy, budget, _ := cfgs[cfg]()
				if path == "spec" {
					spec(&policy)
				}
				p, err := cupel.NewPipeline(policy)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if err := run(p, items, budget); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func plainRun(p *cupel.Pipeline, items []*cupel.ContextItem, budget cupel.ContextBudget) error {
	_, err := p.Run(items, budget)
	return err
}

// BenchmarkRankedPlacer measures the RankedPlacer path of a batch run
// without pinned items (UShapedPlacer.PlaceRanked: no sort of the
// selection) in configuration A: "fast" takes it, "spec" calls
// PlacePositions, the path without it.
func BenchmarkRankedPlacer(b *testing.B) {
	benchSpecFast(b, "A", func(p *cupel.Policy) {
		p.Placer = positionsOnlyPlacer{p.Placer.(cupel.PositionPlacer)}
	}, plainRun)
}

// BenchmarkUnsortedSlice measures the UnsortedSlicer path of an untraced run
// (GreedySlice.SliceUnsorted: no Sort stage, only the selection sorted) in
// configurations A and C: "fast" takes it, "spec" runs the Sort stage and
// SlicePositions, the path without it.
func BenchmarkUnsortedSlice(b *testing.B) {
	for _, cfg := range []string{"A", "C"} {
		benchSpecFast(b, cfg, func(p *cupel.Policy) {
			p.Slicer = positionsOnly{p.Slicer.(cupel.PositionSlicer)}
		}, plainRun)
	}
}

// BenchmarkCancellablePositions measures why, in a run that can be
// cancelled, the Slice stage asks a PositionSlicer for positions before a
// ContextSlicer's SliceContext: configuration D (traced, so SliceUnsorted
// does not apply) under a context that can be cancelled, "fast" calling
// GreedySlice's SlicePositions, "spec" its SliceContext and matching the
// items back.
func BenchmarkCancellablePositions(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	benchSpecFast(b, "D", func(p *cupel.Policy) {
		p.Slicer = contextOnly{p.Slicer.(cupel.ContextSlicer)}
	}, func(p *cupel.Pipeline, items []*cupel.ContextItem, budget cupel.ContextBudget) error {
		c := cupel.NewDiagnosticTraceCollector(cupel.DetailItem, nil)
		_, err := p.RunContext(ctx, items, budget, cupel.WithTrace(c))
		return err
	})
}
