package scorer_test

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/scorer"
)

// benchSizes are the input sizes of the benchmarks.
var benchSizes = []int{100, 1000, 10000, 100000}

// scBenchItems builds n realistic items deterministically: every item has a
// timestamp, half a priority, 1 to 3 tags of a pool of 20 (mixed case),
// a kind, a hint and some metadata.
func scBenchItems(n int) []*cupel.ContextItem {
	r := rand.New(rand.NewPCG(42, 42))
	kinds := []cupel.ContextKind{cupel.KindMessage, cupel.KindDocument, cupel.KindToolOutput, cupel.KindMemory, cupel.KindSystemPrompt}
	items := make([]*cupel.ContextItem, n)
	for i := range items {
		ts := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(r.IntN(30*24*3600)) * time.Second)
		spec := cupel.ItemSpec{
			Content:             "item " + strconv.Itoa(i),
			Tokens:              10 + r.IntN(2000),
			Kind:                kinds[r.IntN(len(kinds))],
			Timestamp:           &ts,
			FutureRelevanceHint: cupel.Ptr(r.Float64()),
			Metadata:            map[string]any{scorer.MetadataKeyTrust: strconv.FormatFloat(r.Float64(), 'f', 2, 64), "cupel:priority": []string{"high", "normal"}[r.IntN(2)]},
		}
		if r.IntN(2) == 0 {
			spec.Priority = cupel.Ptr(r.IntN(11))
		}
		for range 1 + r.IntN(3) {
			tag := "tag-" + strconv.Itoa(r.IntN(20))
			if r.IntN(4) == 0 {
				tag = asciiUpper(tag)
			}
			spec.Tags = append(spec.Tags, tag)
		}
		items[i] = cupel.MustItem(spec)
	}
	return items
}

// BenchmarkScorers measures each scorer's fast path against its spec path
// at every size N of the pipeline benchmarks: "spec" calls Score once per
// item, as the Score stage does for a scorer without a batch path, and
// "fast" calls ScoreBatch, which takes the scorer's ScoreAll. A fast path
// stays only where "fast" is at least 1.25x faster than "spec" at some N.
// "spec" is not run above specMax items, where its O(N^2) (relative
// scorers) or O(N^3) (a Scaled around a relative scorer) cost would
// take seconds or hours per iteration; "fast" is not run for a scorer
// without a batch path. The decay scorer is measured with the system clock,
// which Score reads once per item and ScoreAll once per pass.
func BenchmarkScorers(b *testing.B) {
	tags, _ := scorer.NewTag(map[string]float64{"tag-1": 1, "tag-2": 2, "tag-3": 0.5})
	trust, _ := scorer.NewMetadataTrust(0.5)
	key, _ := scorer.NewMetadataKey("cupel:priority", "high", 1.5)
	curve, _ := scorer.NewExponentialCurve(7 * 24 * time.Hour)
	decay, _ := scorer.NewDecay(scorer.SystemClock(), curve)
	scaledKind, _ := scorer.NewScaled(scorer.NewDefaultKind())
	scaledRecency, _ := scorer.NewScaled(scorer.NewRecency())
	scaledFrequency, _ := scorer.NewScaled(scorer.NewFrequency()) // configuration C
	// configuration A's scorer
	composite, _ := scorer.NewComposite(
		scorer.Weighted{Scorer: scorer.NewRecency(), Weight: 0.4},
		scorer.Weighted{Scorer: scorer.NewPriority(), Weight: 0.3},
		scorer.Weighted{Scorer: scorer.NewDefaultKind(), Weight: 0.3},
	)
	absolute := func(s cupel.Scorer) cupel.Scorer {
		c, _ := scorer.NewComposite(scorer.Weighted{Scorer: s, Weight: 1})
		return c
	}
	const all, quadratic, cubic = 100000, 10000, 100
	cases := []struct {
		name    string
		s       cupel.Scorer
		specMax int
	}{
		{"recency", scorer.NewRecency(), quadratic},
		{"priority", scorer.NewPriority(), quadratic},
		{"kind", scorer.NewDefaultKind(), all},
		{"tag", tags, all},
		{"reflexive", scorer.NewReflexive(), all},
		{"metadata_trust", trust, all},
		{"metadata_key", key, all},
		{"decay", decay, all},
		{"composite_A", composite, 1000},
		{"composite_kind", absolute(scorer.NewDefaultKind()), all},
		{"scaled_kind", scaledKind, 1000},
		{"scaled_recency", scaledRecency, cubic},
		{"scaled_frequency_C", scaledFrequency, cubic},
	}
	for _, c := range cases {
		for _, n := range benchSizes {
			items := scBenchItems(n)
			out := make([]float64, n)
			b.Run(c.name+"/N="+strconv.Itoa(n), func(b *testing.B) {
				if n <= c.specMax {
					b.Run("spec", func(b *testing.B) {
						b.ReportAllocs()
						for b.Loop() {
							for i, it := range items {
								out[i] = c.s.Score(it, items)
							}
						}
					})
				}
				if hasBatchPath(c.s) {
					b.Run("fast", func(b *testing.B) {
						b.ReportAllocs()
						for b.Loop() {
							cupel.ScoreBatch(c.s, items, out)
						}
					})
				}
			})
		}
	}
}
