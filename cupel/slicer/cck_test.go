package slicer_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

var _ = Describe("CountConstrainedKnapsackSlice", func() {
	newCCK := func(bucket int, sc slicer.ScarcityBehavior, es ...slicer.CountQuotaEntry) *slicer.CountConstrainedKnapsack {
		s, err := slicer.NewCountConstrainedKnapsack(es, slKnapsack(bucket), sc)
		Expect(err).NotTo(HaveOccurred())
		return s
	}
	ki := func(name string, kind cupel.ContextKind, score float64, tokens int) cupel.ScoredItem {
		return slS(slKindItem(name, kind, tokens), score)
	}
	detailed := func(s *slicer.CountConstrainedKnapsack, in []cupel.ScoredItem, target int) cupel.SliceResult {
		r, err := s.SliceDetailed(in, slTarget(target))
		Expect(err).NotTo(HaveOccurred())
		return r
	}

	Describe("construction", func() {
		DescribeTable("rejects invalid configurations with ErrInvalidConfig",
			func(es []slicer.CountQuotaEntry, ks *slicer.Knapsack, sc slicer.ScarcityBehavior, field string) {
				s, err := slicer.NewCountConstrainedKnapsack(es, ks, sc)
				Expect(s).To(BeNil())
				Expect(errors.Is(err, cupel.ErrInvalidConfig)).To(BeTrue())
				var ve *cupel.ValidationError
				Expect(errors.As(err, &ve)).To(BeTrue())
				Expect(ve.Type).To(Equal("CountConstrainedKnapsackSlice"))
				Expect(ve.Field).To(Equal(field))
			},
			Entry("nil knapsack", nil, (*slicer.Knapsack)(nil), slicer.ScarcityDegrade, "knapsack"),
			Entry("duplicate kinds", []slicer.CountQuotaEntry{slEntry("tool", 0, 1), slEntry("Tool", 0, 2)}, &slicer.Knapsack{}, slicer.ScarcityDegrade, "entries[1].kind"),
			Entry("zero entry", []slicer.CountQuotaEntry{{}}, &slicer.Knapsack{}, slicer.ScarcityDegrade, "entries[0].kind"),
			Entry("invalid scarcity", nil, &slicer.Knapsack{}, slicer.ScarcityBehavior(2), "scarcity"),
		)
		It("keeps its configuration", func() {
			ks := slKnapsack(10)
			s, err := slicer.NewCountConstrainedKnapsack([]slicer.CountQuotaEntry{slEntry("tool", 1, 2)}, ks, slicer.ScarcityThrow)
			Expect(err).NotTo(HaveOccurred())
			Expect(s.Knapsack()).To(BeIdenticalTo(ks))
			Expect(s.Entries()).To(Equal([]slicer.CountQuotaEntry{slEntry("tool", 1, 2)}))
			Expect(s.Scarcity()).To(Equal(slicer.ScarcityThrow))
			var _ cupel.DetailedSlicer = s
		})
		It("works as a zero value (no entries, default knapsack)", func() {
			var z slicer.CountConstrainedKnapsack
			Expect(z.Knapsack().BucketSize()).To(Equal(100))
			out, err := z.Slice([]cupel.ScoredItem{ki("a", "x", 0.5, 100)}, slTarget(100))
			Expect(err).NotTo(HaveOccurred())
			Expect(slContents(out)).To(Equal([]string{"a"}))
		})
	})

	Describe("conformance vector outlines", func() {
		It("1. baseline: require 2 of kind, knapsack selects the residual", func() {
			s := newCCK(100, slicer.ScarcityDegrade, slEntry("tool", 2, 4))
			r := detailed(s, []cupel.ScoredItem{
				ki("tool-a", "tool", 0.9, 100), ki("tool-b", "tool", 0.7, 100), ki("msg-x", "msg", 0.5, 100),
			}, 1000)
			Expect(slContents(r.Selected)).To(Equal([]string{"tool-a", "tool-b", "msg-x"}))
			Expect(r.Shortfalls).To(BeEmpty())
			Expect(r.CapExcluded).To(BeEmpty())
		})
		It("2. cap exclusion: cap 2, 4 candidates, 2 excluded after the Phase 2 re-sort", func() {
			s := newCCK(100, slicer.ScarcityDegrade, slEntry("tool", 1, 2))
			in := []cupel.ScoredItem{
				ki("tool-a", "tool", 0.9, 100), ki("tool-b", "tool", 0.8, 100), ki("tool-c", "tool", 0.7, 100), ki("tool-d", "tool", 0.6, 100),
			}
			r := detailed(s, in, 600)
			// The knapsack returns [tool-d, tool-c, tool-b] (reconstruction
			// order); D180 re-sorts it so that tool-b, not tool-d, is kept.
			Expect(slContents(r.Selected)).To(Equal([]string{"tool-a", "tool-b"}))
			Expect(r.Shortfalls).To(BeEmpty())
			Expect(r.CapExcluded).To(Equal([]cupel.CapExclusion{
				{Item: in[2].Item, Kind: "tool", Cap: 2, Count: 2},
				{Item: in[3].Item, Kind: "tool", Cap: 2, Count: 2},
			}))
		})
		It("3. scarcity degrade: require 3, one candidate, shortfall recorded", func() {
			s := newCCK(100, slicer.ScarcityDegrade, slEntry("tool", 3, 5))
			r := detailed(s, []cupel.ScoredItem{ki("tool-a", "tool", 0.9, 100)}, 500)
			Expect(slContents(r.Selected)).To(Equal([]string{"tool-a"}))
			Expect(r.Shortfalls).To(Equal([]cupel.CountRequirementShortfall{{Kind: "tool", RequiredCount: 3, SatisfiedCount: 1}}))
			Expect(r.CapExcluded).To(BeEmpty())
		})
		It("4. tag non-exclusivity: two kinds with independent requirements", func() {
			s := newCCK(100, slicer.ScarcityDegrade, slEntry("tool", 1, 4), slEntry("memory", 1, 4))
			r := detailed(s, []cupel.ScoredItem{
				ki("item-tool", "tool", 0.9, 100), ki("item-memory", "memory", 0.8, 100), ki("item-extra", "tool", 0.5, 100),
			}, 1000)
			Expect(slContents(r.Selected)).To(Equal([]string{"item-tool", "item-memory", "item-extra"}))
			Expect(r.Shortfalls).To(BeEmpty())
			Expect(r.CapExcluded).To(BeEmpty())
		})
		It("5. require and cap: require 2 = cap 2, the knapsack picks the msg items (bucket 1)", func() {
			s := newCCK(1, slicer.ScarcityDegrade, slEntry("tool", 2, 2))
			r := detailed(s, []cupel.ScoredItem{
				ki("tool-a", "tool", 0.9, 100), ki("tool-b", "tool", 0.7, 100),
				ki("msg-s", "msg", 0.8, 50), ki("msg-m", "msg", 0.6, 150), ki("msg-l", "msg", 0.4, 200),
			}, 1000)
			Expect(slContents(r.Selected)).To(Equal([]string{"tool-a", "tool-b", "msg-s", "msg-m", "msg-l"}))
			Expect(r.Shortfalls).To(BeEmpty())
			Expect(r.CapExcluded).To(BeEmpty())
		})
	})

	It("fails under ScarcityThrow with the spec's exact message", func() {
		s := newCCK(100, slicer.ScarcityThrow, slEntry("tool", 3, 5))
		r, err := s.SliceDetailed([]cupel.ScoredItem{ki("tool-a", "tool", 0.9, 100)}, slTarget(500))
		Expect(r.Selected).To(BeNil())
		Expect(errors.Is(err, cupel.ErrCountRequirementUnmet)).To(BeTrue())
		Expect(err).To(MatchError("CountConstrainedKnapsackSlice: candidate pool for kind 'tool' has 1 items but RequireCount is 3."))
		_, err = newCCK(100, slicer.ScarcityThrow, slEntry("Disclaimer", 1, 1)).Slice([]cupel.ScoredItem{ki("tool-a", "tool", 0.9, 100)}, slTarget(500))
		Expect(err).To(MatchError("CountConstrainedKnapsackSlice: candidate pool for kind 'Disclaimer' has 0 items but RequireCount is 1."))
	})

	It("degrades by default: the zero ScarcityBehavior is ScarcityDegrade (spec chapter 30, ScarcityBehavior)", func() {
		var sc slicer.ScarcityBehavior
		Expect(sc).To(Equal(slicer.ScarcityDegrade))
		r := detailed(newCCK(100, sc, slEntry("tool", 3, 5)), []cupel.ScoredItem{ki("tool-a", "tool", 0.9, 100), ki("msg-a", "msg", 0.5, 100)}, 500)
		Expect(slContents(r.Selected)).To(Equal([]string{"tool-a", "msg-a"}))
		Expect(r.Shortfalls).To(Equal([]cupel.CountRequirementShortfall{{Kind: "tool", RequiredCount: 3, SatisfiedCount: 1}}))
	})

	It("re-sorts Phase 2 output by score descending, input order breaking ties (D180)", func() {
		s := newCCK(100, slicer.ScarcityDegrade)
		in := []cupel.ScoredItem{
			ki("z", "x", 0.1, 0), ki("a", "x", 0.5, 100), ki("b", "x", 0.9, 100), ki("c", "x", 0.5, 100), ki("d", "x", 0.7, 100),
		}
		Expect(slContents(detailed(s, in, 1000).Selected)).To(Equal([]string{"b", "d", "a", "c", "z"}))
		// The plain knapsack returns zero-token items first, then reverse order.
		out, _ := slKnapsack(100).Slice(in, slTarget(1000))
		Expect(slContents(out)).To(Equal([]string{"z", "d", "c", "b", "a"}))
	})

	It("seeds Phase 3 counts from Phase 1 (D181)", func() {
		s := newCCK(100, slicer.ScarcityDegrade, slEntry("tool", 2, 2), slEntry("memory", 0, 1))
		in := []cupel.ScoredItem{
			ki("t1", "tool", 0.9, 100), ki("t2", "tool", 0.8, 100), ki("t3", "Tool", 0.95, 100),
			ki("m1", "memory", 0.6, 100), ki("m2", "MEMORY", 0.7, 100),
		}
		r := detailed(s, in, 1000)
		Expect(slContents(r.Selected)).To(Equal([]string{"t3", "t1", "m2"}))
		Expect(r.CapExcluded).To(Equal([]cupel.CapExclusion{
			{Item: in[1].Item, Kind: "tool", Cap: 2, Count: 2},
			{Item: in[3].Item, Kind: "memory", Cap: 1, Count: 1},
		}))
	})

	It("gives the knapsack the residual budget and returns its table error", func() {
		ks := slKnapsack(1, slicer.WithTableLimit(100))
		s, err := slicer.NewCountConstrainedKnapsack([]slicer.CountQuotaEntry{slEntry("tool", 1, 1)}, ks, slicer.ScarcityDegrade)
		Expect(err).NotTo(HaveOccurred())
		in := []cupel.ScoredItem{ki("t", "tool", 0.9, 100), ki("m1", "msg", 0.5, 1), ki("m2", "msg", 0.5, 1)}
		// residual target 250 - 100 = 150: 2 candidates x 150 = 300 cells > 100.
		_, err = s.SliceDetailed(in, slTarget(250))
		var tl *slicer.TableTooLargeError
		Expect(errors.As(err, &tl)).To(BeTrue())
		Expect(*tl).To(Equal(slicer.TableTooLargeError{Candidates: 2, Capacity: 150, Cells: 300, Limit: 100}))
		// residual target 150 - 100 = 50: 100 cells, at the limit.
		r, err := s.SliceDetailed(in, slTarget(150))
		Expect(err).NotTo(HaveOccurred())
		Expect(slContents(r.Selected)).To(Equal([]string{"t", "m1", "m2"}))
	})

	It("selects nothing for an empty input or a zero target", func() {
		s := newCCK(100, slicer.ScarcityThrow, slEntry("tool", 1, 1))
		Expect(detailed(s, nil, 100).Selected).To(BeEmpty())
		Expect(detailed(s, []cupel.ScoredItem{ki("t", "tool", 1, 0)}, 0).Selected).To(BeEmpty())
	})
})
