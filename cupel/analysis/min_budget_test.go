package analysis_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/analysis"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

// The search bounds of MinBudgetFor, the spec's FindMinBudgetFor: the lower
// bound, the upper bound, the inside of the range, and the errors of the
// runs it makes (ruling 21).
var _ = Describe("MinBudgetFor's search (FindMinBudgetFor)", func() {
	// bruteMin is the smallest budget b in [target.Tokens(), ceiling]
	// (maxTokens = targetTokens = b) at which target is included.
	bruteMin := func(p *cupel.Pipeline, items []*cupel.ContextItem, target *cupel.ContextItem, ceiling int) (int, bool) {
		for b := target.Tokens(); b <= ceiling; b++ {
			var rep cupel.SelectionReport
			if _, err := p.Run(items, budget(b, b), cupel.WithReport(&rep)); err != nil {
				continue
			}
			for _, in := range rep.Included {
				if in.Item == target {
					return b, true
				}
			}
		}
		return 0, false
	}
	greedy := func() *cupel.Pipeline {
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewReflexive(), Slicer: slicer.NewGreedy(), Placer: placer.NewChronological()})
		Expect(err).NotTo(HaveOccurred())
		return p
	}

	// With equal token counts greedy inclusion is monotone in the budget
	// (the search's premise): the item of density rank r (0-based) is
	// included from (r+1) * tokens on.
	It("finds the minimum at the lower bound, inside, and at the upper bound of the search", func() {
		p := greedy()
		hi, mid, lo := hintItem("hi", 10, 0.9), hintItem("mid", 10, 0.5), hintItem("lo", 10, 0.1)
		items := []*cupel.ContextItem{lo, mid, hi}
		cases := []struct {
			target  *cupel.ContextItem
			ceiling int
			want    int
			found   bool
		}{
			{hi, 100, 10, true},  // minimum = own tokens: the lower bound
			{hi, 1000, 10, true}, // the lower bound after a long search
			{hi, 10, 10, true},   // ceiling = own tokens: no search at all
			{hi, 11, 10, true},   // two candidates, the lower one
			{mid, 100, 20, true}, // inside
			{mid, 20, 20, true},  // minimum = ceiling: the upper bound
			{mid, 19, 0, false},  // not within the ceiling
			{lo, 30, 30, true},   // the upper bound
			{lo, 29, 0, false},
			{lo, 1000, 30, true},
			{lo, 31, 30, true},
		}
		for _, c := range cases {
			got, ok, err := analysis.MinBudgetFor(p, items, c.target, c.ceiling)
			Expect(err).NotTo(HaveOccurred())
			Expect([]any{got, ok}).To(Equal([]any{c.want, c.found}), "%s ceiling %d", c.target.Content(), c.ceiling)
			b, bok := bruteMin(p, items, c.target, c.ceiling)
			Expect([]any{got, ok}).To(Equal([]any{b, bok}), "brute force, %s ceiling %d", c.target.Content(), c.ceiling)
		}
	})

	It("agrees with a linear search whenever inclusion is monotone", func() {
		p := greedy()
		for n := 1; n <= 7; n++ {
			tokens := 1 + (n*5)%9
			items := make([]*cupel.ContextItem, n)
			for i := range items {
				items[i] = hintItem(string(rune('a'+i)), tokens, float64((i*5)%7)/7)
			}
			for _, t := range items {
				for _, ceiling := range []int{t.Tokens(), t.Tokens() + 1, t.Tokens() + 3, 17, 40, 64} {
					if ceiling < t.Tokens() {
						continue
					}
					got, ok, err := analysis.MinBudgetFor(p, items, t, ceiling)
					Expect(err).NotTo(HaveOccurred())
					b, bok := bruteMin(p, items, t, ceiling)
					Expect([]any{got, ok}).To(Equal([]any{b, bok}), "n %d target %s ceiling %d", n, t.Content(), ceiling)
				}
			}
		}
	})

	It("counts a budget the pinned items exceed as one without the item", func() {
		p := greedy()
		pin := cupel.MustItem(cupel.ItemSpec{Content: "pin", Tokens: 25, Pinned: true})
		t := hintItem("t", 10, 0.5)
		got, ok, err := analysis.MinBudgetFor(p, []*cupel.ContextItem{pin, t}, t, 100)
		Expect(err).NotTo(HaveOccurred())
		Expect([]any{got, ok}).To(Equal([]any{35, true}))
	})

	It("rejects a ceiling below the item's tokens, and a target not in items", func() {
		p := greedy()
		t := hintItem("t", 10, 0.5)
		_, _, err := analysis.MinBudgetFor(p, []*cupel.ContextItem{t}, t, 9)
		Expect(errors.Is(err, cupel.ErrInvalidArgument)).To(BeTrue())
		Expect(err.Error()).To(ContainSubstring("searchCeiling"))
		_, ok, err := analysis.MinBudgetFor(p, []*cupel.ContextItem{t}, t, 10)
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeTrue())
		_, _, err = analysis.MinBudgetFor(p, []*cupel.ContextItem{t}, hintItem("t", 10, 0.5), 10)
		Expect(errors.Is(err, cupel.ErrInvalidArgument)).To(BeTrue())
		_, _, err = analysis.MinBudgetFor(p, []*cupel.ContextItem{t}, nil, 10)
		Expect(errors.Is(err, cupel.ErrInvalidArgument)).To(BeTrue())
	})

	It("refuses each of the three quota slicers, and only them", func() {
		qs, err := slicer.NewQuotaSet(slicer.Require("Document", 10))
		Expect(err).NotTo(HaveOccurred())
		quota, err := slicer.NewQuota(qs, slicer.NewGreedy())
		Expect(err).NotTo(HaveOccurred())
		e, err := slicer.NewCountQuotaEntry("Document", 1, 2)
		Expect(err).NotTo(HaveOccurred())
		cq, err := slicer.NewCountQuota([]slicer.CountQuotaEntry{e}, slicer.NewGreedy(), slicer.ScarcityDegrade)
		Expect(err).NotTo(HaveOccurred())
		ks, err := slicer.NewKnapsack(1)
		Expect(err).NotTo(HaveOccurred())
		cck, err := slicer.NewCountConstrainedKnapsack([]slicer.CountQuotaEntry{e}, ks, slicer.ScarcityDegrade)
		Expect(err).NotTo(HaveOccurred())
		t := hintItem("t", 10, 0.5)
		for _, sl := range []cupel.Slicer{quota, cq, cck} {
			p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewReflexive(), Slicer: sl, Placer: placer.NewChronological()})
			Expect(err).NotTo(HaveOccurred())
			_, _, err = analysis.MinBudgetFor(p, []*cupel.ContextItem{t}, t, 100)
			var nm *cupel.NonMonotonicSlicerError
			Expect(errors.As(err, &nm)).To(BeTrue(), "%T", sl)
			Expect(nm.Method).To(Equal("FindMinBudgetFor"))
		}
		for _, sl := range []cupel.Slicer{slicer.NewGreedy(), ks} {
			p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewReflexive(), Slicer: sl, Placer: placer.NewChronological()})
			Expect(err).NotTo(HaveOccurred())
			got, ok, err := analysis.MinBudgetFor(p, []*cupel.ContextItem{t}, t, 100)
			Expect(err).NotTo(HaveOccurred())
			Expect([]any{got, ok}).To(Equal([]any{10, true}), "%T", sl)
		}
	})

	It("returns a run's other errors, with zero results", func() {
		ks, err := slicer.NewKnapsack(1, slicer.WithTableLimit(15))
		Expect(err).NotTo(HaveOccurred())
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewReflexive(), Slicer: ks, Placer: placer.NewChronological()})
		Expect(err).NotTo(HaveOccurred())
		t := hintItem("t", 10, 0.5)
		// One candidate, bucket 1: a budget above 15 needs more than 15
		// cells. Ceiling 100: the search probes 55 first and fails;
		// ceiling 40: it probes 25 and fails. Ceiling 15 never builds
		// more than 15 cells.
		for _, ceiling := range []int{100, 40} {
			got, ok, err := analysis.MinBudgetFor(p, []*cupel.ContextItem{t}, t, ceiling)
			Expect(errors.Is(err, cupel.ErrTableTooLarge)).To(BeTrue(), "ceiling %d: %v", ceiling, err)
			Expect([]any{got, ok}).To(Equal([]any{0, false}))
		}
		got, ok, err := analysis.MinBudgetFor(p, []*cupel.ContextItem{t}, t, 15)
		Expect(err).NotTo(HaveOccurred())
		Expect([]any{got, ok}).To(Equal([]any{10, true}))
	})

	It("reports an item with negative tokens as never included", func() {
		p := greedy()
		neg := hintItem("neg", -3, 0.9)
		got, ok, err := analysis.MinBudgetFor(p, []*cupel.ContextItem{neg}, neg, 10)
		Expect(err).NotTo(HaveOccurred())
		Expect([]any{got, ok}).To(Equal([]any{0, false}))
	})
})
