package analysis_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/analysis"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

// The guards of spec chapter 40 (Budget Simulation): slicers whose inclusion
// is not monotonic in the budget are refused, with the chapter's messages.
var _ = Describe("the budget-simulation guards", func() {
	items := func() []*cupel.ContextItem {
		return []*cupel.ContextItem{
			cupel.MustItem(cupel.ItemSpec{Content: "a", Tokens: 10}),
			cupel.MustItem(cupel.ItemSpec{Content: "b", Tokens: 20, Kind: cupel.KindDocument}),
		}
	}
	var budget cupel.ContextBudget
	BeforeEach(func() {
		var err error
		budget, err = cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 100, TargetTokens: 100})
		Expect(err).NotTo(HaveOccurred())
	})
	pipelineWith := func(s cupel.Slicer) *cupel.Pipeline {
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewPriority(), Slicer: s, Placer: placer.NewChronological()})
		Expect(err).NotTo(HaveOccurred())
		return p
	}
	quota := func() cupel.Slicer {
		set, err := slicer.NewQuotaSet(slicer.Cap(cupel.KindDocument, 50))
		Expect(err).NotTo(HaveOccurred())
		s, err := slicer.NewQuota(set, slicer.NewGreedy())
		Expect(err).NotTo(HaveOccurred())
		return s
	}
	entries := func() []slicer.CountQuotaEntry {
		e, err := slicer.NewCountQuotaEntry(cupel.KindDocument, 0, 1)
		Expect(err).NotTo(HaveOccurred())
		return []slicer.CountQuotaEntry{e}
	}
	countQuota := func() cupel.Slicer {
		s, err := slicer.NewCountQuota(entries(), slicer.NewGreedy(), slicer.ScarcityDegrade)
		Expect(err).NotTo(HaveOccurred())
		return s
	}
	countKnapsack := func() cupel.Slicer {
		k, err := slicer.NewKnapsack(10)
		Expect(err).NotTo(HaveOccurred())
		s, err := slicer.NewCountConstrainedKnapsack(entries(), k, slicer.ScarcityDegrade)
		Expect(err).NotTo(HaveOccurred())
		return s
	}
	const marginal = "GetMarginalItems requires monotonic item inclusion. QuotaSlice produces non-monotonic inclusion as budget changes shift percentage allocations."
	const minBudget = "FindMinBudgetFor requires monotonic item inclusion. QuotaSlice and CountQuotaSlice produce non-monotonic inclusion as budget changes shift allocations. Use a GreedySlice or KnapsackSlice inner slicer for budget simulation."

	It("refuse a QuotaSlice in GetMarginalItems", func() {
		_, err := analysis.MarginalItems(pipelineWith(quota()), items(), budget, 10)
		Expect(err).To(MatchError(cupel.ErrNonMonotonicSlicer))
		Expect(err.Error()).To(Equal(marginal))
	})

	It("refuse QuotaSlice and the count-quota slicers in FindMinBudgetFor", func() {
		for _, s := range []cupel.Slicer{quota(), countQuota(), countKnapsack()} {
			in := items()
			_, _, err := analysis.MinBudgetFor(pipelineWith(s), in, in[0], 100)
			Expect(err).To(MatchError(cupel.ErrNonMonotonicSlicer), "%T", s)
			Expect(err.Error()).To(Equal(minBudget))
		}
	})

	It("let a GreedySlice through", func() {
		in := items()
		got, ok, err := analysis.MinBudgetFor(pipelineWith(slicer.NewGreedy()), in, in[0], 100)
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeTrue())
		Expect(got).To(Equal(10))
	})
})

var _ = Describe("GetMarginalItems", func() {
	It("tells items apart by identity, not by content", func() {
		p, err := cupel.NewPipeline(cupel.Policy{
			Scorer:               scorer.NewPriority(),
			Slicer:               slicer.NewGreedy(),
			Placer:               placer.NewChronological(),
			DisableDeduplication: true,
		})
		Expect(err).NotTo(HaveOccurred())
		x1 := cupel.MustItem(cupel.ItemSpec{Content: "same", Tokens: 40, Priority: cupel.Ptr(2)})
		x2 := cupel.MustItem(cupel.ItemSpec{Content: "same", Tokens: 30, Priority: cupel.Ptr(1)})
		b, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 100, TargetTokens: 100})
		Expect(err).NotTo(HaveOccurred())
		// Full (100): both fit. Reduced by 40 (target 60): x1 (score 1.0,
		// 40 tokens) is taken first, and x2 (30) no longer fits.
		out, err := analysis.MarginalItems(p, []*cupel.ContextItem{x1, x2}, b, 40)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(HaveLen(1))
		Expect(out[0]).To(BeIdenticalTo(x2))
	})
})
