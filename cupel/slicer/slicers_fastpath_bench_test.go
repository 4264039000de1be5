package slicer_test

import (
	"errors"
	"strconv"
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

// benchSpecFast runs, in one run, a slicer's spec method (Slice) and its
// fast path (SlicePositions, what the pipeline calls) at 100 to 100,000
// items (50-550 tokens each) under two budgets: 30,000 tokens (about 100
// items fit) and 128,000 (a large context window; every item fits at 100).
// T=…/N=…/spec against T=…/N=…/fast says what the fast path is worth. A
// size whose knapsack table is over the default limit is skipped.
func benchSlicerSpecFast(b *testing.B, s interface {
	cupel.Slicer
	cupel.PositionSlicer
}) {
	for _, target := range []int{30000, 128000} {
		bud := slBenchBudget(b, target)
		for _, n := range []int{100, 1000, 10000, 100000} {
			in := slBenchInput(n)
			name := "T=" + strconv.Itoa(target) + "/N=" + strconv.Itoa(n)
			if _, err := s.Slice(in, bud); errors.Is(err, cupel.ErrTableTooLarge) {
				continue
			}
			b.Run(name+"/spec", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := s.Slice(in, bud); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(name+"/fast", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := s.SlicePositions(in, bud); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkGreedySlice(b *testing.B) { benchSlicerSpecFast(b, slicer.NewGreedy()) }

func BenchmarkKnapsackSlice(b *testing.B) {
	s, err := slicer.NewKnapsack(100)
	if err != nil {
		b.Fatal(err)
	}
	benchSlicerSpecFast(b, s)
}
