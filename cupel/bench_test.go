package cupel_test

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

var benchSizes = []int{100, 1000, 10000, 100000}

// benchConfigs are the configurations of issue 7.
func benchConfigs(b *testing.B) map[string]func() (cupel.Policy, cupel.ContextBudget, cupel.TraceCollector) {
	composite := func() cupel.Scorer {
		s, err := scorer.NewComposite(
			scorer.Weighted{Scorer: scorer.NewRecency(), Weight: 0.4},
			scorer.Weighted{Scorer: scorer.NewPriority(), Weight: 0.3},
			scorer.Weighted{Scorer: scorer.NewDefaultKind(), Weight: 0.3},
		)
		if err != nil {
			b.Fatal(err)
		}
		return s
	}
	mustBudget := func(maxT, target int) cupel.ContextBudget {
		bud, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: maxT, TargetTokens: target})
		if err != nil {
			b.Fatal(err)
		}
		return bud
	}
	return map[string]func() (cupel.Policy, cupel.ContextBudget, cupel.TraceCollector){
		"A": func() (cupel.Policy, cupel.ContextBudget, cupel.TraceCollector) {
			return cupel.Policy{Scorer: composite(), Slicer: slicer.NewGreedy(), Placer: placer.NewUShaped()}, mustBudget(128000, 100000), nil
		},
		"B": func() (cupel.Policy, cupel.ContextBudget, cupel.TraceCollector) {
			ks, err := slicer.NewKnapsack(100)
			if err != nil {
				b.Fatal(err)
			}
			return cupel.Policy{Scorer: composite(), Slicer: ks, Placer: placer.NewChronological()}, mustBudget(32000, 30000), nil
		},
		"C": func() (cupel.Policy, cupel.ContextBudget, cupel.TraceCollector) {
			sc, err := scorer.NewScaled(scorer.NewFrequency())
			if err != nil {
				b.Fatal(err)
			}
			return cupel.Policy{Scorer: sc, Slicer: slicer.NewGreedy(), Placer: placer.NewChronological()}, mustBudget(128000, 100000), nil
		},
		"D": func() (cupel.Policy, cupel.ContextBudget, cupel.TraceCollector) {
			return cupel.Policy{Scorer: composite(), Slicer: slicer.NewGreedy(), Placer: placer.NewUShaped()}, mustBudget(128000, 100000), cupel.NewDiagnosticTraceCollector(cupel.DetailItem, nil)
		},
	}
}

// BenchmarkPipeline runs the configurations of issue 7 over the
// deterministic generator. Compare with BenchmarkSortYardstick at the same N.
func BenchmarkPipeline(b *testing.B) {
	cfgs := benchConfigs(b)
	for _, name := range []string{"A", "B", "C", "D"} {
		for _, n := range benchSizes {
			b.Run(name+"/N="+strconv.Itoa(n), func(b *testing.B) {
				items := benchItems(n)
				policy, budget, _ := cfgs[name]()
				p, err := cupel.NewPipeline(policy)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					var opts []cupel.RunOption
					if name == "D" {
						opts = append(opts, cupel.WithTrace(cupel.NewDiagnosticTraceCollector(cupel.DetailItem, nil)))
					}
					if _, err := p.Run(items, budget, opts...); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkSortYardstick sorts N random float64 keys: the yardstick the
// targets of issue 7 are expressed in.
func BenchmarkSortYardstick(b *testing.B) {
	for _, n := range benchSizes {
		b.Run("N="+strconv.Itoa(n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			keys := make([]float64, n)
			for i := range keys {
				keys[i] = r.Float64()
			}
			work := make([]float64, n)
			b.ResetTimer()
			for b.Loop() {
				copy(work, keys)
				slices.Sort(work)
			}
		})
	}
}

// BenchmarkTracePaths shows the allocations of the untraced, null-collector,
// Stage and Item paths side by side (configuration A, N=10000), and of the
// Item path followed by building the SelectionReport.
func BenchmarkTracePaths(b *testing.B) {
	items := benchItems(10000)
	policy, budget, _ := benchConfigs(b)["A"]()
	p, err := cupel.NewPipeline(policy)
	if err != nil {
		b.Fatal(err)
	}
	var last *cupel.DiagnosticTraceCollector
	paths := []struct {
		name   string
		opts   func() []cupel.RunOption
		report bool
	}{
		{"untraced", func() []cupel.RunOption { return nil }, false},
		{"null", func() []cupel.RunOption { return []cupel.RunOption{cupel.WithTrace(cupel.NullTraceCollector{})} }, false},
		{"stage", func() []cupel.RunOption {
			return []cupel.RunOption{cupel.WithTrace(cupel.NewDiagnosticTraceCollector(cupel.DetailStage, nil))}
		}, false},
		{"item", func() []cupel.RunOption {
			return []cupel.RunOption{cupel.WithTrace(cupel.NewDiagnosticTraceCollector(cupel.DetailItem, nil))}
		}, false},
		{"item+report", func() []cupel.RunOption {
			last = cupel.NewDiagnosticTraceCollector(cupel.DetailItem, nil)
			return []cupel.RunOption{cupel.WithTrace(last)}
		}, true},
	}
	for _, path := range paths {
		b.Run(path.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Run(items, budget, path.opts()...); err != nil {
					b.Fatal(err)
				}
				if path.report {
					last.Report()
				}
			}
		})
	}
}
