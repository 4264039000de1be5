package slicer_test

import (
	"errors"
	"math"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

func slEntry(kind cupel.ContextKind, req, capCount int) slicer.CountQuotaEntry {
	e, err := slicer.NewCountQuotaEntry(kind, req, capCount)
	Expect(err).NotTo(HaveOccurred())
	return e
}

func slCapNames(r cupel.SliceResult) []string {
	var out []string
	for _, c := range r.CapExcluded {
		out = append(out, c.Item.Content())
	}
	return out
}

var _ = Describe("CountQuotaEntry", func() {
	It("keeps its fields", func() {
		e := slEntry("Tool", 2, 5)
		Expect(e.Kind()).To(Equal(cupel.ContextKind("Tool")))
		Expect(e.RequireCount()).To(Equal(2))
		Expect(e.CapCount()).To(Equal(5))
	})
	DescribeTable("accepts valid counts (ruling 17)",
		func(req, capCount int) {
			_, err := slicer.NewCountQuotaEntry("k", req, capCount)
			Expect(err).NotTo(HaveOccurred())
		},
		Entry("require 0, cap 0", 0, 0),
		Entry("require 0, cap 5", 0, 5),
		Entry("require = cap", 3, 3),
	)
	DescribeTable("rejects invalid entries (ruling 17)",
		func(kind cupel.ContextKind, req, capCount int, field string) {
			_, err := slicer.NewCountQuotaEntry(kind, req, capCount)
			Expect(errors.Is(err, cupel.ErrInvalidConfig)).To(BeTrue())
			Expect(slField(err)).To(Equal(field))
		},
		Entry("requireCount < 0", cupel.ContextKind("k"), -1, 3, "requireCount"),
		Entry("capCount < 0", cupel.ContextKind("k"), 0, -1, "capCount"),
		Entry("requireCount > capCount", cupel.ContextKind("k"), 4, 3, "requireCount"),
		Entry("capCount 0 with requireCount > 0", cupel.ContextKind("k"), 1, 0, "capCount"),
		Entry("blank kind", cupel.ContextKind("  "), 0, 1, "kind"),
	)
})

var _ = Describe("CountQuotaSlice", func() {
	g := slicer.NewGreedy()

	Describe("construction", func() {
		ks := slKnapsack(100)
		cck, _ := slicer.NewCountConstrainedKnapsack(nil, ks, slicer.ScarcityDegrade)
		DescribeTable("rejects invalid configurations with ErrInvalidConfig",
			func(entries []slicer.CountQuotaEntry, inner cupel.Slicer, sc slicer.ScarcityBehavior, field string) {
				s, err := slicer.NewCountQuota(entries, inner, sc)
				Expect(s).To(BeNil())
				Expect(errors.Is(err, cupel.ErrInvalidConfig)).To(BeTrue())
				Expect(slField(err)).To(Equal(field))
			},
			Entry("nil inner", nil, nil, slicer.ScarcityDegrade, "inner"),
			Entry("typed nil inner", nil, (*slicer.Greedy)(nil), slicer.ScarcityDegrade, "inner"),
			Entry("KnapsackSlice inner (spec guard)", nil, ks, slicer.ScarcityDegrade, "inner"),
			Entry("CountConstrainedKnapsackSlice inner", nil, cck, slicer.ScarcityDegrade, "inner"),
			Entry("duplicate kinds, ASCII folded", []slicer.CountQuotaEntry{slEntry("Tool", 1, 2), slEntry("tOOL", 0, 1)}, g, slicer.ScarcityDegrade, "entries[1].kind"),
			Entry("zero entry", []slicer.CountQuotaEntry{{}}, g, slicer.ScarcityDegrade, "entries[0].kind"),
			Entry("invalid scarcity", nil, g, slicer.ScarcityBehavior(7), "scarcity"),
			Entry("negative scarcity", nil, g, slicer.ScarcityBehavior(-1), "scarcity"),
		)
		It("keeps its configuration", func() {
			es := []slicer.CountQuotaEntry{slEntry("Tool", 1, 2), slEntry("Memory", 0, 1)}
			s, err := slicer.NewCountQuota(es, g, slicer.ScarcityThrow)
			Expect(err).NotTo(HaveOccurred())
			es[0] = slEntry("X", 0, 0) // the slicer holds a copy
			Expect(s.Entries()).To(Equal([]slicer.CountQuotaEntry{slEntry("Tool", 1, 2), slEntry("Memory", 0, 1)}))
			Expect(s.Scarcity()).To(Equal(slicer.ScarcityThrow))
			Expect(s.Inner()).To(BeIdenticalTo(g))
			var _ cupel.DetailedSlicer = s
		})
		It("fails cleanly as a zero value", func() {
			var z slicer.CountQuota
			_, err := z.Slice([]cupel.ScoredItem{slS(slItem("a", 1), 1)}, slTarget(1))
			Expect(errors.Is(err, cupel.ErrInvalidConfig)).To(BeTrue())
		})
	})

	newCQS := func(inner cupel.Slicer, sc slicer.ScarcityBehavior, es ...slicer.CountQuotaEntry) *slicer.CountQuota {
		s, err := slicer.NewCountQuota(es, inner, sc)
		Expect(err).NotTo(HaveOccurred())
		return s
	}

	tool := func(name string, score float64, tokens int) cupel.ScoredItem {
		return slS(slKindItem(name, "tool", tokens), score)
	}
	msg := func(name string, score float64, tokens int) cupel.ScoredItem {
		return slS(slKindItem(name, "msg", tokens), score)
	}

	DescribeTable("edge cases (chapter CountQuotaSlice)",
		func(es []slicer.CountQuotaEntry, in []cupel.ScoredItem, target int, want []string, capped []string, shortfalls []cupel.CountRequirementShortfall) {
			r, err := newCQS(g, slicer.ScarcityDegrade, es...).SliceDetailed(in, slTarget(target))
			Expect(err).NotTo(HaveOccurred())
			Expect(slContents(r.Selected)).To(Equal(want))
			Expect(slCapNames(r)).To(Equal(capped))
			Expect(r.Shortfalls).To(Equal(shortfalls))
		},
		Entry("empty scoredItems", []slicer.CountQuotaEntry{slEntry("tool", 2, 3)}, nil, 100, []string{}, []string(nil), []cupel.CountRequirementShortfall(nil)),
		Entry("targetTokens = 0 (no Phase 1, no shortfall)", []slicer.CountQuotaEntry{slEntry("tool", 2, 3)},
			[]cupel.ScoredItem{tool("t", 0.5, 0)}, 0, []string{}, []string(nil), []cupel.CountRequirementShortfall(nil)),
		Entry("no entries: Phase 2 unconstrained", []slicer.CountQuotaEntry(nil),
			[]cupel.ScoredItem{tool("t1", 0.9, 10), msg("m1", 0.8, 10), tool("t2", 0.1, 100)}, 20, []string{"t1", "m1"}, []string(nil), []cupel.CountRequirementShortfall(nil)),
		Entry("requireCount = capCount: Phase 2 adds no more of that kind", []slicer.CountQuotaEntry{slEntry("tool", 2, 2)},
			[]cupel.ScoredItem{tool("t1", 0.9, 10), tool("t2", 0.8, 10), tool("t3", 0.7, 10), msg("m1", 0.1, 10)}, 100,
			[]string{"t1", "t2", "m1"}, []string{"t3"}, []cupel.CountRequirementShortfall(nil)),
		Entry("requireCount = 0, capCount > 0: Phase 2 output capped", []slicer.CountQuotaEntry{slEntry("tool", 0, 1)},
			[]cupel.ScoredItem{tool("t1", 0.9, 10), tool("t2", 0.8, 10), msg("m1", 0.1, 10)}, 100,
			[]string{"t1", "m1"}, []string{"t2"}, []cupel.CountRequirementShortfall(nil)),
		Entry("fewer candidates than requireCount: shortfall", []slicer.CountQuotaEntry{slEntry("tool", 3, 5)},
			[]cupel.ScoredItem{tool("t1", 0.9, 10), msg("m1", 0.1, 10)}, 100,
			[]string{"t1", "m1"}, []string(nil), []cupel.CountRequirementShortfall{{Kind: "tool", RequiredCount: 3, SatisfiedCount: 1}}),
		Entry("required kind with no candidates: (kind, required, 0) (ruling 18)", []slicer.CountQuotaEntry{slEntry("Memory", 2, 2)},
			[]cupel.ScoredItem{tool("t1", 0.9, 10)}, 100,
			[]string{"t1"}, []string(nil), []cupel.CountRequirementShortfall{{Kind: "Memory", RequiredCount: 2, SatisfiedCount: 0}}),
		Entry("Phase 1 exhausts the budget: Phase 2 selects nothing (not even zero-token items)", []slicer.CountQuotaEntry{slEntry("tool", 2, 5)},
			[]cupel.ScoredItem{tool("t1", 0.9, 60), tool("t2", 0.8, 60), msg("m0", 0.5, 0), msg("m1", 0.4, 1)}, 100,
			[]string{"t1", "t2"}, []string(nil), []cupel.CountRequirementShortfall(nil)),
	)

	It("hands the inner slicer the residual pool and the reduced budget (maxTokens unchanged)", func() {
		rec := &slRecorder{}
		s := newCQS(rec, slicer.ScarcityDegrade, slEntry("tool", 1, 5))
		in := []cupel.ScoredItem{msg("m1", 0.9, 10), tool("t1", 0.8, 30), tool("t2", 0.7, 10), msg("m2", 0.1, 10)}
		_, err := s.SliceDetailed(in, slBudget(500, 100))
		Expect(err).NotTo(HaveOccurred())
		Expect(rec.calls).To(Equal([]slCall{{items: []string{"m1", "t2", "m2"}, max: 500, target: 70}}))

		// targetTokens is clamped to maxTokens.
		rec.calls = nil
		_, err = s.SliceDetailed(in, slBudget(100, 100))
		Expect(err).NotTo(HaveOccurred())
		Expect(rec.calls[0].max).To(Equal(100))
		Expect(rec.calls[0].target).To(Equal(70))
	})

	It("walks entries in declaration order and commits each kind by score descending, NaN last, ties by input order", func() {
		in := []cupel.ScoredItem{
			tool("tNaN", math.NaN(), 1),
			tool("tLow", 0.3, 1),
			slS(slKindItem("mem", "Memory", 1), 0.1),
			tool("tHigh1", 0.9, 1),
			slS(slKindItem("TOOLcase", "TOOL", 1), 0.9),
		}
		s := newCQS(slFixed{}, slicer.ScarcityDegrade, slEntry("memory", 1, 1), slEntry("Tool", 3, 3))
		r, err := s.SliceDetailed(in, slTarget(100))
		Expect(err).NotTo(HaveOccurred())
		Expect(slContents(r.Selected)).To(Equal([]string{"mem", "tHigh1", "TOOLcase", "tLow"}))
		r, err = newCQS(slFixed{}, slicer.ScarcityDegrade, slEntry("Tool", 4, 4)).SliceDetailed(in, slTarget(100))
		Expect(err).NotTo(HaveOccurred())
		Expect(slContents(r.Selected)).To(Equal([]string{"tHigh1", "TOOLcase", "tLow", "tNaN"}))
	})

	It("degrades by default: the zero ScarcityBehavior is ScarcityDegrade (spec chapter 29, ScarcityBehavior)", func() {
		var sc slicer.ScarcityBehavior
		Expect(sc).To(Equal(slicer.ScarcityDegrade))
		r, err := newCQS(g, sc, slEntry("tool", 3, 5)).SliceDetailed([]cupel.ScoredItem{tool("t1", 0.9, 10), msg("m1", 0.1, 10)}, slTarget(100))
		Expect(err).NotTo(HaveOccurred())
		Expect(slContents(r.Selected)).To(Equal([]string{"t1", "m1"}))
		Expect(r.Shortfalls).To(Equal([]cupel.CountRequirementShortfall{{Kind: "tool", RequiredCount: 3, SatisfiedCount: 1}}))
	})

	It("records shortfalls in entry order", func() {
		s := newCQS(g, slicer.ScarcityDegrade, slEntry("b", 2, 2), slEntry("a", 1, 1), slEntry("c", 3, 4))
		r, err := s.SliceDetailed([]cupel.ScoredItem{slS(slKindItem("c1", "c", 1), 0.5), slS(slKindItem("b1", "B", 1), 0.5)}, slTarget(10))
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Shortfalls).To(Equal([]cupel.CountRequirementShortfall{
			{Kind: "b", RequiredCount: 2, SatisfiedCount: 1},
			{Kind: "a", RequiredCount: 1, SatisfiedCount: 0},
			{Kind: "c", RequiredCount: 3, SatisfiedCount: 1},
		}))
	})

	It("fails under ScarcityThrow with the spec's message, at the first unmet entry", func() {
		s := newCQS(g, slicer.ScarcityThrow, slEntry("ok", 1, 1), slEntry("tool", 3, 5), slEntry("none", 1, 1))
		in := []cupel.ScoredItem{tool("t1", 0.9, 10), slS(slKindItem("o", "OK", 1), 1)}
		r, err := s.SliceDetailed(in, slTarget(100))
		Expect(r.Selected).To(BeNil())
		Expect(errors.Is(err, cupel.ErrCountRequirementUnmet)).To(BeTrue())
		var ce *slicer.CountRequirementError
		Expect(errors.As(err, &ce)).To(BeTrue())
		Expect(*ce).To(Equal(slicer.CountRequirementError{Slicer: "CountQuotaSlice", Kind: "tool", Satisfied: 1, RequireCount: 3}))
		Expect(err.Error()).To(Equal("CountQuotaSlice: candidate pool for kind 'tool' has 1 items but RequireCount is 3."))
		out, err := s.Slice(in, slTarget(100))
		Expect(out).To(BeNil())
		Expect(err).To(HaveOccurred())

		// A required kind without candidates is an error too (ruling 18).
		_, err = newCQS(g, slicer.ScarcityThrow, slEntry("none", 1, 1)).Slice(in, slTarget(100))
		Expect(err).To(MatchError("CountQuotaSlice: candidate pool for kind 'none' has 0 items but RequireCount is 1."))
	})

	It("caps only Phase 2 output, counting Phase 1 commits, and reports each cap exclusion (ruling 4)", func() {
		// The fixed inner returns items in the order given, whatever the budget.
		inner := slFixed{names: []string{"t3", "m1", "t4", "t5"}}
		s := newCQS(inner, slicer.ScarcityDegrade, slEntry("Tool", 2, 3))
		in := []cupel.ScoredItem{tool("t1", 0.9, 10), tool("t2", 0.8, 10), tool("t3", 0.7, 10), tool("t4", 0.6, 10), tool("t5", 0.5, 10), msg("m1", 0.4, 10)}
		r, err := s.SliceDetailed(in, slTarget(1000))
		Expect(err).NotTo(HaveOccurred())
		Expect(slContents(r.Selected)).To(Equal([]string{"t1", "t2", "t3", "m1"}))
		Expect(r.CapExcluded).To(Equal([]cupel.CapExclusion{
			{Item: in[3].Item, Kind: "Tool", Cap: 3, Count: 3},
			{Item: in[4].Item, Kind: "Tool", Cap: 3, Count: 3},
		}))
		sel, err := s.Slice(in, slTarget(1000))
		Expect(err).NotTo(HaveOccurred())
		Expect(sel).To(Equal(r.Selected))
	})

	It("never commits or forwards nil items or items with negative tokens", func() {
		rec := &slRecorder{}
		s := newCQS(rec, slicer.ScarcityDegrade, slEntry("tool", 2, 5))
		in := []cupel.ScoredItem{{Item: nil, Score: 1}, tool("neg", 0.99, -10), tool("t1", 0.5, 10), msg("m1", 0.4, 10)}
		r, err := s.SliceDetailed(in, slTarget(100))
		Expect(err).NotTo(HaveOccurred())
		Expect(slContents(r.Selected)).To(Equal([]string{"t1", "m1"}))
		Expect(rec.calls[0].items).To(Equal([]string{"m1"}))
		Expect(r.Shortfalls).To(Equal([]cupel.CountRequirementShortfall{{Kind: "tool", RequiredCount: 2, SatisfiedCount: 1}}))
	})

	It("reports Phase 1 committed tokens that overflow int", func() {
		s := newCQS(g, slicer.ScarcityDegrade, slEntry("tool", 2, 2))
		_, err := s.SliceDetailed([]cupel.ScoredItem{tool("a", 0.9, math.MaxInt), tool("b", 0.8, 1)}, slTarget(10))
		Expect(errors.Is(err, cupel.ErrTokenOverflow)).To(BeTrue())
		var te *cupel.TokenOverflowError
		Expect(errors.As(err, &te)).To(BeTrue())
	})

	It("returns the inner slicer's error", func() {
		boom := errors.New("boom")
		_, err := newCQS(slErrSlicer{boom}, slicer.ScarcityDegrade).Slice([]cupel.ScoredItem{tool("a", 1, 1)}, slTarget(10))
		Expect(err).To(MatchError(boom))
	})

	It("does not modify its input", func() {
		in := []cupel.ScoredItem{tool("t1", 0.1, 10), tool("t2", 0.9, 10), msg("m", 0.5, 10)}
		cp := slices.Clone(in)
		_, err := newCQS(g, slicer.ScarcityDegrade, slEntry("tool", 2, 2)).SliceDetailed(in, slTarget(15))
		Expect(err).NotTo(HaveOccurred())
		Expect(in).To(Equal(cp))
	})
})
