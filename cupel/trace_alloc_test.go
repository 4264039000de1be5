package cupel_test

import (
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
)

// TestItemTraceAllocatesAFixedNumber: a run of configuration D (A traced into
// a DiagnosticTraceCollector at item detail) makes six allocations beyond
// the untraced run, at 1,000 items as at 10,000: the collector, its list of
// stage events, its list of decisions (made once, with room for the Place
// stage's inclusions), the Slice stage's excluded items, handed over in one
// call, the list of blocks that holds them, and the function giving their reason.
// None of them grows by doubling as items are added.
func TestItemTraceAllocatesAFixedNumber(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts vary under the race detector (sync.Pool drops buffers at random)")
	}
	policy, budget, _ := benchConfigs(&testing.B{})["A"]()
	p, err := cupel.NewPipeline(policy)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1000, 10000} {
		items := benchItems(n)
		untraced := testing.AllocsPerRun(10, func() {
			if _, err := p.Run(items, budget); err != nil {
				t.Fatal(err)
			}
		})
		traced := testing.AllocsPerRun(10, func() {
			if _, err := p.Run(items, budget, cupel.WithTrace(cupel.NewDiagnosticTraceCollector(cupel.DetailItem, nil))); err != nil {
				t.Fatal(err)
			}
		})
		if traced-untraced != 6 {
			t.Errorf("at %d items: %v allocations per traced run, %v untraced: want 6 more", n, traced, untraced)
		}
	}
}
