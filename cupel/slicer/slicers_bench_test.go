package slicer_test

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

// slBenchInput returns n items sorted by score descending (as the Sort stage
// hands them to a slicer), 50-550 tokens each, with timestamps.
func slBenchInput(n int) []cupel.ScoredItem {
	r := rand.New(rand.NewPCG(42, uint64(n)))
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	kinds := []cupel.ContextKind{cupel.KindMessage, cupel.KindDocument, cupel.KindToolOutput, cupel.KindMemory}
	in := make([]cupel.ScoredItem, n)
	for i := range in {
		ts := base.Add(time.Duration(r.IntN(1_000_000)) * time.Second)
		in[i] = cupel.ScoredItem{
			Item: cupel.MustItem(cupel.ItemSpec{
				Content: "item " + strconv.Itoa(i), Tokens: 50 + r.IntN(500),
				Kind: kinds[r.IntN(len(kinds))], Timestamp: &ts,
			}),
			Score: r.Float64(),
		}
	}
	// Score descending, as after the Sort stage.
	slices.SortStableFunc(in, func(a, b cupel.ScoredItem) int { return cmp.Compare(b.Score, a.Score) })
	return in
}

func slBenchBudget(b *testing.B, target int) cupel.ContextBudget {
	bud, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: target, TargetTokens: target})
	if err != nil {
		b.Fatal(err)
	}
	return bud
}

// benchSlice runs slice on inputs of each size under a 30,000-token budget.
func benchSlice(b *testing.B, slice func([]cupel.ScoredItem, cupel.ContextBudget) error, sizes ...int) {
	bud := slBenchBudget(b, 30000)
	for _, n := range sizes {
		b.Run("N="+strconv.Itoa(n), func(b *testing.B) {
			in := slBenchInput(n)
			b.ReportAllocs()
			for b.Loop() {
				if err := slice(in, bud); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// sliceOf adapts a Slicer to benchSlice.
func sliceOf(s cupel.Slicer) func([]cupel.ScoredItem, cupel.ContextBudget) error {
	return func(in []cupel.ScoredItem, bud cupel.ContextBudget) error {
		_, err := s.Slice(in, bud)
		return err
	}
}

func BenchmarkQuotaSlice(b *testing.B) {
	qs, err := slicer.NewQuotaSet(slicer.Require(cupel.KindMessage, 20), slicer.Cap(cupel.KindDocument, 40))
	if err != nil {
		b.Fatal(err)
	}
	s, err := slicer.NewQuota(qs, slicer.NewGreedy())
	if err != nil {
		b.Fatal(err)
	}
	benchSlice(b, sliceOf(s), 10000)
}

func BenchmarkCountConstrainedKnapsackSlice(b *testing.B) {
	e1, _ := slicer.NewCountQuotaEntry(cupel.KindToolOutput, 3, 10)
	e2, _ := slicer.NewCountQuotaEntry(cupel.KindMemory, 1, 5)
	ks, _ := slicer.NewKnapsack(100)
	s, err := slicer.NewCountConstrainedKnapsack([]slicer.CountQuotaEntry{e1, e2}, ks, slicer.ScarcityDegrade)
	if err != nil {
		b.Fatal(err)
	}
	benchSlice(b, func(in []cupel.ScoredItem, bud cupel.ContextBudget) error {
		_, err := s.SliceDetailed(in, bud)
		return err
	}, 10000)
}
