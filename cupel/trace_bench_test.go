//go:build unix

package cupel_test

import (
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
)

// discardCollector is enabled and keeps nothing: a traced run with it pays
// for the traced path (the stage timings, the events built and handed over)
// but not for storing a record of the run.
type discardCollector struct{}

func (discardCollector) Enabled() bool                     { return true }
func (discardCollector) RecordStageEvent(cupel.TraceEvent) {}
func (discardCollector) RecordItemEvent(cupel.TraceEvent)  {}

// BenchmarkTraceCost splits configuration D's cost beyond A (issue 35): the
// untraced run (A), a run traced into a collector that keeps nothing (the
// traced path itself), and D, a DiagnosticTraceCollector at item detail.
// D over discard is what the collector's record costs; discard over
// untraced is what taking the traced path costs.
func BenchmarkTraceCost(b *testing.B) {
	policy, budget, _ := benchConfigs(b)["A"]()
	p, err := cupel.NewPipeline(policy)
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{10000, 100000} {
		items := benchItems(n)
		paths := []struct {
			name string
			opts func() []cupel.RunOption
		}{
			{"untraced", func() []cupel.RunOption { return nil }},
			{"discard", func() []cupel.RunOption { return []cupel.RunOption{cupel.WithTrace(discardCollector{})} }},
			{"item", func() []cupel.RunOption {
				return []cupel.RunOption{cupel.WithTrace(cupel.NewDiagnosticTraceCollector(cupel.DetailItem, nil))}
			}},
		}
		for _, path := range paths {
			b.Run(path.name+"/N="+strconv.Itoa(n), func(b *testing.B) {
				b.ReportAllocs()
				cpu0 := cpuTime()
				for b.Loop() {
					if _, err := p.Run(items, budget, path.opts()...); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// cpuTime is the CPU time the process has used, user and system, over all
// its threads (the garbage collector's included). On a loaded machine it
// varies far less than the wall-clock time of the same work.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
