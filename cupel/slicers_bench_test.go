package cupel_test

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
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
	for i := 1; i < len(in); i++ {
		for j := i; j > 0 && in[j].Score > in[j-1].Score; j-- {
			in[j], in[j-1] = in[j-1], in[j]
		}
	}
	return in
}

func slBenchBudget(b *testing.B, target int) cupel.ContextBudget {
	bud, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: target, TargetTokens: target})
	if err != nil {
		b.Fatal(err)
	}
	return bud
}

func BenchmarkGreedySlice(b *testing.B) {
	for _, n := range []int{100, 10000} {
		b.Run("N="+strconv.Itoa(n), func(b *testing.B) {
			in, s, bud := slBenchInput(n), cupel.NewGreedySlice(), slBenchBudget(b, 30000)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Slice(in, bud); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkKnapsackSlice(b *testing.B) {
	for _, n := range []int{100, 10000} {
		b.Run("N="+strconv.Itoa(n), func(b *testing.B) {
			s, err := cupel.NewKnapsackSlice(100)
			if err != nil {
				b.Fatal(err)
			}
			in, bud := slBenchInput(n), slBenchBudget(b, 30000)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Slice(in, bud); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkQuotaSlice(b *testing.B) {
	qs, err := cupel.NewQuotaSet(cupel.Require(cupel.KindMessage, 20), cupel.Cap(cupel.KindDocument, 40))
	if err != nil {
		b.Fatal(err)
	}
	s, err := cupel.NewQuotaSlice(qs, cupel.NewGreedySlice())
	if err != nil {
		b.Fatal(err)
	}
	in, bud := slBenchInput(10000), slBenchBudget(b, 30000)
	b.Run("N=10000", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := s.Slice(in, bud); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkCountConstrainedKnapsackSlice(b *testing.B) {
	e1, _ := cupel.NewCountQuotaEntry(cupel.KindToolOutput, 3, 10)
	e2, _ := cupel.NewCountQuotaEntry(cupel.KindMemory, 1, 5)
	ks, _ := cupel.NewKnapsackSlice(100)
	s, err := cupel.NewCountConstrainedKnapsackSlice([]cupel.CountQuotaEntry{e1, e2}, ks, cupel.ScarcityDegrade)
	if err != nil {
		b.Fatal(err)
	}
	in, bud := slBenchInput(10000), slBenchBudget(b, 30000)
	b.Run("N=10000", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := s.SliceDetailed(in, bud); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkUShapedPlacer(b *testing.B) {
	for _, n := range []int{100, 10000} {
		b.Run("N="+strconv.Itoa(n), func(b *testing.B) {
			in, p := slBenchInput(n), cupel.NewUShapedPlacer()
			b.ReportAllocs()
			for b.Loop() {
				p.Place(in)
			}
		})
	}
}

func BenchmarkChronologicalPlacer(b *testing.B) {
	for _, n := range []int{100, 10000} {
		b.Run("N="+strconv.Itoa(n), func(b *testing.B) {
			in, p := slBenchInput(n), cupel.NewChronologicalPlacer()
			b.ReportAllocs()
			for b.Loop() {
				p.Place(in)
			}
		})
	}
}
