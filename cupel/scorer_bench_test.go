package cupel_test

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
)

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
			Metadata:            map[string]any{cupel.MetadataKeyTrust: strconv.FormatFloat(r.Float64(), 'f', 2, 64), "cupel:priority": []string{"high", "normal"}[r.IntN(2)]},
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

// BenchmarkScorers compares the spec's per-item path (the Score stage calling
// Score once per item) with the batch path the pipeline uses, at N = 1000.
// The per-item path of a ScaledScorer around a relative scorer is O(N^3) and
// is not run.
func BenchmarkScorers(b *testing.B) {
	const n = 1000
	items := scBenchItems(n)
	tags, _ := cupel.NewTagScorer(map[string]float64{"tag-1": 1, "tag-2": 2, "tag-3": 0.5})
	trust, _ := cupel.NewMetadataTrustScorer(0.5)
	key, _ := cupel.NewMetadataKeyScorer("cupel:priority", "high", 1.5)
	curve, _ := cupel.NewExponentialCurve(7 * 24 * time.Hour)
	decay, _ := cupel.NewDecayScorer(cupel.ClockFunc(func() time.Time { return time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC) }), curve)
	scaledKind, _ := cupel.NewScaledScorer(cupel.NewDefaultKindScorer())
	scaledRecency, _ := cupel.NewScaledScorer(cupel.NewRecencyScorer())
	composite, _ := cupel.NewCompositeScorer(
		cupel.WeightedScorer{Scorer: cupel.NewRecencyScorer(), Weight: 3},
		cupel.WeightedScorer{Scorer: cupel.NewPriorityScorer(), Weight: 2},
		cupel.WeightedScorer{Scorer: cupel.NewDefaultKindScorer(), Weight: 1},
		cupel.WeightedScorer{Scorer: cupel.NewFrequencyScorer(), Weight: 1},
	)
	nested, _ := cupel.NewCompositeScorer(
		cupel.WeightedScorer{Scorer: scaledRecency, Weight: 1},
		cupel.WeightedScorer{Scorer: composite, Weight: 1},
	)
	cases := []struct {
		name    string
		s       cupel.Scorer
		perItem bool
	}{
		{"recency", cupel.NewRecencyScorer(), true},
		{"priority", cupel.NewPriorityScorer(), true},
		{"frequency", cupel.NewFrequencyScorer(), true},
		{"reflexive", cupel.NewReflexiveScorer(), true},
		{"kind", cupel.NewDefaultKindScorer(), true},
		{"tag", tags, true},
		{"metadata_trust", trust, true},
		{"metadata_key", key, true},
		{"decay", decay, true},
		{"scaled_kind", scaledKind, true},
		{"composite", composite, true},
		{"scaled_recency", scaledRecency, false},
		{"nested", nested, false},
	}
	out := make([]float64, n)
	for _, c := range cases {
		b.Run(c.name+"/N="+strconv.Itoa(n), func(b *testing.B) {
			b.Run("batch", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					cupel.ScoreBatch(c.s, items, out)
				}
			})
			if !c.perItem {
				return
			}
			b.Run("per-item", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					for i, it := range items {
						out[i] = c.s.Score(it, items)
					}
				}
			})
		})
	}
}
