package cupel_test

import (
	"strconv"
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
)

// benchSpecFast runs, in one run, a slicer's spec method (Slice) and its
// fast path (SlicePositions, what the pipeline calls) at 100 to 100,000
// items under a 30,000-token budget: N=…/spec against N=…/fast says what
// the fast path is worth.
func benchSpecFast(b *testing.B, s interface {
	cupel.Slicer
	cupel.PositionSlicer
}) {
	bud := slBenchBudget(b, 30000)
	for _, n := range []int{100, 1000, 10000, 100000} {
		in := slBenchInput(n)
		b.Run("N="+strconv.Itoa(n)+"/spec", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Slice(in, bud); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("N="+strconv.Itoa(n)+"/fast", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.SlicePositions(in, bud); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkGreedySlice(b *testing.B) { benchSpecFast(b, cupel.NewGreedySlice()) }

func BenchmarkKnapsackSlice(b *testing.B) {
	s, err := cupel.NewKnapsackSlice(100)
	if err != nil {
		b.Fatal(err)
	}
	benchSpecFast(b, s)
}
