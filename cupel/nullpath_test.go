package cupel_test

import (
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
)

// TestNullPathAllocatesNothingExtra proves the null-path guarantee (spec
// chapter 34 (Diagnostics)): with NullTraceCollector, or a collector whose
// Enabled is false, a run makes exactly the allocations of an untraced run.
//
// Under the race detector sync.Pool drops buffers at random, so allocation
// counts are not reproducible there and the test is skipped.
func TestNullPathAllocatesNothingExtra(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts vary under the race detector (sync.Pool drops buffers at random)")
	}
	items := benchItems(500)
	policy, budget, _ := benchConfigs(&testing.B{})["A"]()
	p, err := cupel.NewPipeline(policy)
	if err != nil {
		t.Fatal(err)
	}
	run := func(opts ...cupel.RunOption) float64 {
		return testing.AllocsPerRun(20, func() {
			if _, err := p.Run(items, budget, opts...); err != nil {
				t.Fatal(err)
			}
		})
	}
	untraced := run()
	if null := run(cupel.WithTrace(cupel.NullTraceCollector{})); null != untraced {
		t.Errorf("NullTraceCollector: %v allocs per run, untraced %v", null, untraced)
	}
	if off := run(cupel.WithTrace(&spyCollector{})); off != untraced {
		t.Errorf("disabled collector: %v allocs per run, untraced %v", off, untraced)
	}
}

// TestPlainRunAllocatesOnlyItsResult: a plain run of configurations A and C
// (issue 25: at most 8 allocations at 100 items) allocates the two slices
// of its Result and, when the placer is called through PlacePositions, the
// positions it returns, and nothing else: the stages, scorers and
// SliceUnsorted work in pooled buffers, and so does UShapedPlacer's
// PlaceRanked, which A takes when no item is pinned (benchItems(1000) pins
// some, benchItems(100) none).
func TestPlainRunAllocatesOnlyItsResult(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts vary under the race detector (sync.Pool drops buffers at random)")
	}
	for _, c := range []struct {
		name string
		n    int
		want float64
		why  string
	}{
		{"A", 100, 2, "Result.Items and Result.Scores"},
		{"A", 1000, 3, "Result.Items, Result.Scores and PlacePositions' result"},
		{"C", 100, 3, "Result.Items, Result.Scores and PlacePositions' result"},
		{"C", 1000, 3, "Result.Items, Result.Scores and PlacePositions' result"},
	} {
		items := benchItems(c.n)
		policy, budget, _ := benchConfigs(&testing.B{})[c.name]()
		p, err := cupel.NewPipeline(policy)
		if err != nil {
			t.Fatal(err)
		}
		allocs := testing.AllocsPerRun(20, func() {
			if _, err := p.Run(items, budget); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != c.want {
			t.Errorf("%s at %d items: %v allocations per run, want %v (%s)", c.name, c.n, allocs, c.want, c.why)
		}
	}
}
