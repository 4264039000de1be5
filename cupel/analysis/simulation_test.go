package analysis_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/analysis"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

var _ = Describe("budget simulation", func() {
	var p *cupel.Pipeline
	var a, b, c *cupel.ContextItem
	var items []*cupel.ContextItem
	BeforeEach(func() {
		var err error
		p, err = cupel.NewPipeline(cupel.Policy{
			Scorer: tableScorer{"a": 0.9, "b": 0.5, "c": 0.1},
			Slicer: inOrderSlicer{},
			Placer: keepOrderPlacer{},
		})
		Expect(err).NotTo(HaveOccurred())
		a, b, c = item("a", 40), item("b", 30), item("c", 20)
		items = []*cupel.ContextItem{c, b, a}
	})

	Describe("GetMarginalItems", func() {
		It("returns what the full budget includes and the reduced one does not", func() {
			// full: a(40) b(30) c(20) = 90 <= 100; reduced by 25: target 75: a, b (70), c no.
			out, err := analysis.MarginalItems(p, items, budget(100, 100), 25)
			Expect(err).NotTo(HaveOccurred())
			Expect(out).To(Equal([]*cupel.ContextItem{c}))
		})
		It("returns nothing for zero slack and rejects a negative or invalidating slack", func() {
			out, err := analysis.MarginalItems(p, items, budget(100, 100), 0)
			Expect(err).NotTo(HaveOccurred())
			Expect(out).To(BeEmpty())
			_, err = analysis.MarginalItems(p, items, budget(100, 100), -1)
			Expect(err).To(MatchError(cupel.ErrInvalidArgument))
			_, err = analysis.MarginalItems(p, items, budget(100, 50), 60)
			Expect(err).To(MatchError(cupel.ErrInvalidArgument))
		})
		It("keeps outputReserve, reserved slots and margin in the reduced budget", func() {
			full, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 200, TargetTokens: 100, OutputReserve: 10})
			// full target 100 -> a, b, c (90). reduced: max 190, target 90 -> all still fit.
			out, err := analysis.MarginalItems(p, items, full, 10)
			Expect(err).NotTo(HaveOccurred())
			Expect(out).To(BeEmpty())
			// reduced by 11: target 89 -> a, b (70); c (20) would make 90 > 89.
			out, err = analysis.MarginalItems(p, items, full, 11)
			Expect(err).NotTo(HaveOccurred())
			Expect(out).To(Equal([]*cupel.ContextItem{c}))
		})
		It("refuses QuotaSlice only: the count-quota slicers are run (spec chapter 29, Monotonicity)", func() {
			qs, err := slicer.NewQuotaSet(slicer.Require("Message", 10))
			Expect(err).NotTo(HaveOccurred())
			quota, err := slicer.NewQuota(qs, slicer.NewGreedy())
			Expect(err).NotTo(HaveOccurred())
			qp, err := cupel.NewPipeline(cupel.Policy{Scorer: tableScorer{"a": 0.9, "b": 0.5, "c": 0.1}, Slicer: quota, Placer: keepOrderPlacer{}})
			Expect(err).NotTo(HaveOccurred())
			_, err = analysis.MarginalItems(qp, items, budget(100, 100), 25)
			var nm *cupel.NonMonotonicSlicerError
			Expect(errors.As(err, &nm)).To(BeTrue())
			Expect(nm.Method).To(Equal("GetMarginalItems"))

			e, err := slicer.NewCountQuotaEntry("Message", 0, 5)
			Expect(err).NotTo(HaveOccurred())
			cq, err := slicer.NewCountQuota([]slicer.CountQuotaEntry{e}, slicer.NewGreedy(), slicer.ScarcityDegrade)
			Expect(err).NotTo(HaveOccurred())
			ks, err := slicer.NewKnapsack(10)
			Expect(err).NotTo(HaveOccurred())
			cck, err := slicer.NewCountConstrainedKnapsack([]slicer.CountQuotaEntry{e}, ks, slicer.ScarcityDegrade)
			Expect(err).NotTo(HaveOccurred())
			for _, sl := range []cupel.Slicer{cq, cck} {
				cp, err := cupel.NewPipeline(cupel.Policy{Scorer: tableScorer{"a": 0.9, "b": 0.5, "c": 0.1}, Slicer: sl, Placer: keepOrderPlacer{}})
				Expect(err).NotTo(HaveOccurred())
				// full target 100: a, b, c (90); reduced target 75: a, b (70), not c.
				out, err := analysis.MarginalItems(cp, items, budget(100, 100), 25)
				Expect(err).NotTo(HaveOccurred(), "%T", sl)
				Expect(out).To(Equal([]*cupel.ContextItem{c}), "%T", sl)
			}
		})
	})

	Describe("FindMinBudgetFor", func() {
		It("finds a minimum equal to the item's own tokens (ruling 21)", func() {
			got, ok, err := analysis.MinBudgetFor(p, items, a, 1000)
			Expect(err).NotTo(HaveOccurred())
			Expect(ok).To(BeTrue())
			Expect(got).To(Equal(40))
		})
		It("finds the minimum for an item selected after higher-scored ones", func() {
			got, ok, err := analysis.MinBudgetFor(p, items, c, 1000)
			Expect(err).NotTo(HaveOccurred())
			Expect(ok).To(BeTrue())
			Expect(got).To(Equal(90))
			got, ok, err = analysis.MinBudgetFor(p, items, c, 90)
			Expect(err).NotTo(HaveOccurred())
			Expect(ok).To(BeTrue())
			Expect(got).To(Equal(90))
		})
		It("returns not found when the ceiling is too low", func() {
			_, ok, err := analysis.MinBudgetFor(p, items, c, 89)
			Expect(err).NotTo(HaveOccurred())
			Expect(ok).To(BeFalse())
		})
		It("checks its preconditions", func() {
			_, _, err := analysis.MinBudgetFor(p, items, item("a", 40), 100)
			Expect(err).To(MatchError(cupel.ErrInvalidArgument))
			_, _, err = analysis.MinBudgetFor(p, items, a, 39)
			Expect(err).To(MatchError(cupel.ErrInvalidArgument))
		})
		It("counts budgets too small for the pinned items as not including the target", func() {
			sys := pinnedItem("sys", 50)
			got, ok, err := analysis.MinBudgetFor(p, append(items, sys), b, 1000)
			Expect(err).NotTo(HaveOccurred())
			Expect(ok).To(BeTrue())
			Expect(got).To(Equal(120)) // pinned 50 + a 40 + b 30
		})
	})
})

var _ = Describe("policy sensitivity", func() {
	items := func() []*cupel.ContextItem {
		return []*cupel.ContextItem{item("item-a", 40), item("item-b", 40), item("both", 5)}
	}
	pol := func(s tableScorer) cupel.Policy {
		return cupel.Policy{Scorer: s, Slicer: inOrderSlicer{}, Placer: keepOrderPlacer{}}
	}
	It("keeps variants in input order and lists only swinging items by content", func() {
		rep, err := analysis.PolicySensitivity(items(), budget(50, 45),
			analysis.LabeledPolicy{Label: "prefers-a", Policy: pol(tableScorer{"item-a": 0.9, "item-b": 0.1, "both": 0.5})},
			analysis.LabeledPolicy{Label: "prefers-b", Policy: pol(tableScorer{"item-a": 0.1, "item-b": 0.9, "both": 0.5})},
		)
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Variants).To(HaveLen(2))
		Expect(rep.Variants[0].Label).To(Equal("prefers-a"))
		Expect(rep.Variants[1].Label).To(Equal("prefers-b"))
		Expect(rep.Diffs).To(Equal([]analysis.SensitivityDiff{
			{Content: "item-a", Statuses: []analysis.VariantStatus{{Label: "prefers-a", Status: analysis.StatusIncluded}, {Label: "prefers-b", Status: analysis.StatusExcluded}}},
			{Content: "item-b", Statuses: []analysis.VariantStatus{{Label: "prefers-a", Status: analysis.StatusExcluded}, {Label: "prefers-b", Status: analysis.StatusIncluded}}},
		}))
	})
	It("requires at least two variants, with the spec's message", func() {
		_, err := analysis.PolicySensitivity(items(), budget(50, 45), analysis.LabeledPolicy{Label: "one", Policy: pol(tableScorer{})})
		Expect(err).To(MatchError(cupel.ErrInvalidArgument))
		Expect(err.Error()).To(ContainSubstring("At least two variants are required for a sensitivity comparison."))
		_, err = analysis.PipelineSensitivity(items(), budget(50, 45))
		Expect(err).To(MatchError(cupel.ErrInvalidArgument))
	})
	It("names the variant that failed", func() {
		_, err := analysis.PolicySensitivity(items(), budget(50, 45),
			analysis.LabeledPolicy{Label: "ok", Policy: pol(tableScorer{})},
			analysis.LabeledPolicy{Label: "broken", Policy: cupel.Policy{}})
		var ve *analysis.VariantError
		Expect(errors.As(err, &ve)).To(BeTrue())
		Expect(ve.Label).To(Equal("broken"))
		Expect(err).To(MatchError(cupel.ErrInvalidConfig))
	})
	It("dry-runs a single policy with an explicit budget", func() {
		res, rep, err := analysis.DryRun(items(), budget(50, 45), pol(tableScorer{"item-b": 1}))
		Expect(err).NotTo(HaveOccurred())
		Expect(contents(res.Items)).To(Equal([]string{"item-b", "both"}))
		Expect(rep.TotalCandidates).To(Equal(3))
	})
})
