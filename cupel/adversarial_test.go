package cupel_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
)

func advSum(items []*cupel.ContextItem) int {
	s := 0
	for _, it := range items {
		s += it.Tokens()
	}
	return s
}

var _ = Describe("adversarial input", func() {
	Describe("QuotaSlice with percentages whose float64 floors overshoot", func() {
		// Regression: requires 50 and 50.000000000000007 pass the float64
		// sum check (their sum rounds to 100), but over a target of 2^62
		// their requireTokens sum to 2^62 + 512, and the slicer selected
		// 512 tokens more than its budget.
		It("never selects more than the target", func() {
			set, err := cupel.NewQuotaSet(cupel.Require("A", 50), cupel.Require("B", 50.000000000000007))
			Expect(err).NotTo(HaveOccurred())
			q, err := cupel.NewQuotaSlice(set, cupel.NewGreedySlice())
			Expect(err).NotTo(HaveOccurred())
			const target = 1 << 62
			a := cupel.MustItem(cupel.ItemSpec{Content: "a", Tokens: target / 2, Kind: "A"})
			b := cupel.MustItem(cupel.ItemSpec{Content: "b", Tokens: target/2 + 512, Kind: "B"})
			bud, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: target, TargetTokens: target})
			Expect(err).NotTo(HaveOccurred())
			out, err := q.Slice([]cupel.ScoredItem{{Item: a, Score: 1}, {Item: b, Score: 1}}, bud)
			Expect(err).NotTo(HaveOccurred())
			Expect(advSum(out)).To(BeNumerically("<=", target))
			Expect(out).To(Equal([]*cupel.ContextItem{a}))

			p, err := cupel.NewPipeline(cupel.Policy{Scorer: cupel.NewReflexiveScorer(), Slicer: q, Placer: cupel.NewChronologicalPlacer()})
			Expect(err).NotTo(HaveOccurred())
			res, err := p.Run([]*cupel.ContextItem{a, b}, bud)
			Expect(err).NotTo(HaveOccurred(), "the selection fits, so Throw does not fire")
			Expect(res.TotalTokens).To(BeNumerically("<=", target))
		})
	})

	Describe("PolicySpecOf with typed nil components", func() {
		// Regression: PolicySpecOf read the configuration of a typed nil
		// *CountQuotaSlice (and *QuotaSlice, *CompositeScorer, ...) and
		// panicked instead of returning an error.
		greedy, placer := cupel.NewGreedySlice(), cupel.NewUShapedPlacer()
		scorers := map[string]cupel.Scorer{
			"composite": (*cupel.CompositeScorer)(nil), "scaled": (*cupel.ScaledScorer)(nil), "kind": (*cupel.KindScorer)(nil),
			"tag": (*cupel.TagScorer)(nil), "decay": (*cupel.DecayScorer)(nil), "metadata_trust": (*cupel.MetadataTrustScorer)(nil),
			"metadata_key": (*cupel.MetadataKeyScorer)(nil), "recency": (*cupel.RecencyScorer)(nil), "nil": nil,
		}
		slicers := map[string]cupel.Slicer{
			"quota": (*cupel.QuotaSlice)(nil), "count_quota": (*cupel.CountQuotaSlice)(nil), "count_constrained_knapsack": (*cupel.CountConstrainedKnapsackSlice)(nil),
			"knapsack": (*cupel.KnapsackSlice)(nil), "greedy": (*cupel.GreedySlice)(nil), "nil": nil,
		}
		for name, sc := range scorers {
			It("returns an error for a nil "+name+" scorer", func() {
				_, err := cupel.PolicySpecOf(cupel.Policy{Scorer: sc, Slicer: greedy, Placer: placer})
				Expect(err).To(MatchError(cupel.ErrInvalidConfig))
			})
		}
		for name, sl := range slicers {
			It("returns an error for a nil "+name+" slicer", func() {
				_, err := cupel.PolicySpecOf(cupel.Policy{Scorer: cupel.NewRecencyScorer(), Slicer: sl, Placer: placer})
				Expect(err).To(MatchError(cupel.ErrInvalidConfig))
			})
		}
	})
})
