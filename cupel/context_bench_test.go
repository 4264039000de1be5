package cupel_test

import (
	"context"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"slices"
	"testing"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
)

// TestRunContextAllocatesNothingExtra: RunContext under a context that can
// never be done makes exactly Run's allocations, and under a cancellable one
// at most three more (the canceller and the binding of the slicer), whatever
// the input size.
func TestRunContextAllocatesNothingExtra(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts vary under the race detector (sync.Pool drops buffers at random)")
	}
	items := benchItems(500)
	for _, name := range []string{"A", "B"} {
		policy, budget, _ := benchConfigs(&testing.B{})[name]()
		p, err := cupel.NewPipeline(policy)
		if err != nil {
			t.Fatal(err)
		}
		allocs := func(f func() error) float64 {
			return testing.AllocsPerRun(20, func() {
				if err := f(); err != nil {
					t.Fatal(err)
				}
			})
		}
		run := allocs(func() error { _, err := p.Run(items, budget); return err })
		bg := allocs(func() error {
			_, err := p.RunContext(context.Background(), items, budget)
			return err
		})
		ctx, cancel := context.WithCancel(context.Background())
		live := allocs(func() error { _, err := p.RunContext(ctx, items, budget); return err })
		cancel()
		if bg != run {
			t.Errorf("%s: RunContext(Background) %v allocs per run, Run %v", name, bg, run)
		}
		if live > run+3 {
			t.Errorf("%s: RunContext(cancellable) %v allocs per run, Run %v", name, live, run)
		}
		t.Logf("%s: Run %v, RunContext(Background) %v, RunContext(cancellable) %v allocs per run", name, run, bg, live)
	}
}

// BenchmarkRunContext compares Run with RunContext under context.Background
// and under a cancellable context, at N=10000, for configurations A (greedy)
// and B (knapsack) of BenchmarkPipeline. The three variants are
// sub-benchmarks of one benchmark, so that -count=N interleaves them:
//
//	go test ./cupel -run '^$' -bench 'RunContext' -benchtime 200x -count 10
func BenchmarkRunContext(b *testing.B) {
	items := benchItems(10000)
	for _, name := range []string{"A", "B"} {
		policy, budget, _ := benchConfigs(b)[name]()
		p, err := cupel.NewPipeline(policy)
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		variants := []struct {
			name string
			run  func() error
		}{
			{"Run", func() error { _, err := p.Run(items, budget); return err }},
			{"Background", func() error {
				_, err := p.RunContext(context.Background(), items, budget)
				return err
			}},
			{"Cancellable", func() error { _, err := p.RunContext(ctx, items, budget); return err }},
		}
		for _, v := range variants {
			b.Run(name+"/"+v.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := v.run(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		cancel()
	}
}

// BenchmarkRunContextOverhead measures the cost of the cancellation checks
// on a machine whose load changes by the second. Each iteration runs four
// variants back to back, in a shuffled order: Run, Run again (the control,
// showing the noise floor of the method), RunContext under
// context.Background() and RunContext under a cancellable context. The
// garbage collector runs between iterations only (it is otherwise off), so
// that a collection does not land on one variant more than another. The
// reported overheads are the medians of the per-iteration ratios to the
// first Run, so that all variants are compared under the same load; run-ns
// is the median duration of Run.
//
//	go test ./cupel -run '^$' -bench 'RunContextOverhead' -benchtime 400x -count 5
func BenchmarkRunContextOverhead(b *testing.B) {
	items := benchItems(10000)
	for _, name := range []string{"A", "B"} {
		b.Run(name, func(b *testing.B) {
			policy, budget, _ := benchConfigs(b)[name]()
			p, err := cupel.NewPipeline(policy)
			if err != nil {
				b.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			run := func() error { _, err := p.Run(items, budget); return err }
			variants := [4]func() error{
				run,
				run,
				func() error {
					_, err := p.RunContext(context.Background(), items, budget)
					return err
				},
				func() error { _, err := p.RunContext(ctx, items, budget); return err },
			}
			var base []float64
			var ratios [4][]float64
			order := []int{0, 1, 2, 3}
			shuffle := rand.New(rand.NewPCG(4, 19))
			defer debug.SetGCPercent(debug.SetGCPercent(-1))
			for b.Loop() {
				runtime.GC()
				shuffle.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
				var d [4]time.Duration
				for _, v := range order {
					t := time.Now()
					if err := variants[v](); err != nil {
						b.Fatal(err)
					}
					d[v] = time.Since(t)
				}
				base = append(base, float64(d[0]))
				for v := 1; v < 4; v++ {
					ratios[v] = append(ratios[v], float64(d[v])/float64(d[0]))
				}
			}
			b.ReportMetric(median(base), "run-ns")
			b.ReportMetric(100*(median(ratios[1])-1), "control-%")
			b.ReportMetric(100*(median(ratios[2])-1), "background-%")
			b.ReportMetric(100*(median(ratios[3])-1), "cancellable-%")
		})
	}
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}
