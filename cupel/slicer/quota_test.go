package slicer_test

import (
	"errors"
	"math"
	"math/big"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

func slQuotas(entries ...slicer.QuotaEntry) slicer.QuotaSet {
	s, err := slicer.NewQuotaSet(entries...)
	Expect(err).NotTo(HaveOccurred())
	return s
}

var _ = Describe("QuotaSet", func() {
	It("records which of require and cap an entry configures", func() {
		r, ok := slicer.Require("A", 10).Require()
		Expect(r).To(Equal(10.0))
		Expect(ok).To(BeTrue())
		_, ok = slicer.Require("A", 10).Cap()
		Expect(ok).To(BeFalse())
		c, ok := slicer.Cap("A", 40).Cap()
		Expect(c).To(Equal(40.0))
		Expect(ok).To(BeTrue())
		_, ok = slicer.Cap("A", 40).Require()
		Expect(ok).To(BeFalse())
		e := slicer.RequireCap("A", 5, 6)
		Expect(e.Kind()).To(Equal(cupel.ContextKind("A")))
		r, _ = e.Require()
		c, _ = e.Cap()
		Expect([]float64{r, c}).To(Equal([]float64{5, 6}))
	})

	It("defaults unconfigured kinds and halves to require 0% and cap 100%", func() {
		s := slQuotas(slicer.Require("Tool", 20), slicer.Cap("Memory", 30))
		Expect(s.Len()).To(Equal(2))
		Expect(s.Kinds()).To(Equal([]cupel.ContextKind{"Tool", "Memory"}))
		Expect(s.Require("TOOL")).To(Equal(20.0))
		Expect(s.Cap("tool")).To(Equal(100.0))
		Expect(s.Require("memory")).To(Equal(0.0))
		Expect(s.Cap("MEMORY")).To(Equal(30.0))
		Expect(s.Require("Other")).To(Equal(0.0))
		Expect(s.Cap("Other")).To(Equal(100.0))
		var z slicer.QuotaSet
		Expect(z.Len()).To(Equal(0))
		Expect(z.Cap("x")).To(Equal(100.0))
	})

	It("merges a require and a cap given for the same kind (ASCII case-insensitively), keeping the first spelling", func() {
		s := slQuotas(slicer.Require("Tool", 20), slicer.Cap("TOOL", 50), slicer.Require("tool", 20))
		Expect(s.Kinds()).To(Equal([]cupel.ContextKind{"Tool"}))
		Expect(s.Require("Tool")).To(Equal(20.0))
		Expect(s.Cap("Tool")).To(Equal(50.0))
		Expect(s.Entries()).To(Equal([]slicer.QuotaEntry{slicer.RequireCap("Tool", 20, 50)}))
		again := slQuotas(s.Entries()...)
		Expect(again.Entries()).To(Equal(s.Entries()))
	})

	It("does not fold non-ASCII letters (ruling 15)", func() {
		s := slQuotas(slicer.Require("K", 10), slicer.Require("\u212a", 20))
		Expect(s.Len()).To(Equal(2))
		Expect(s.Require("k")).To(Equal(10.0))
	})

	It("looks kinds up correctly with many kinds", func() {
		var es []slicer.QuotaEntry
		for _, k := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"} {
			es = append(es, slicer.Require(cupel.ContextKind(k), 1))
		}
		es = append(es, slicer.Cap("J", 7))
		s := slQuotas(es...)
		Expect(s.Len()).To(Equal(11))
		Expect(s.Cap("j")).To(Equal(7.0))
		Expect(s.Require("K")).To(Equal(1.0))
		Expect(s.Cap("zz")).To(Equal(100.0))
	})

	It("accepts requires summing to exactly 100", func() {
		_, err := slicer.NewQuotaSet(slicer.Require("a", 33.3), slicer.Require("b", 33.3), slicer.Require("c", 33.4))
		Expect(err).NotTo(HaveOccurred())
		_, err = slicer.NewQuotaSet(slicer.RequireCap("a", 100, 100), slicer.Cap("b", 0))
		Expect(err).NotTo(HaveOccurred())
	})

	DescribeTable("rejects invalid quotas with ErrInvalidConfig",
		func(field string, entries ...slicer.QuotaEntry) {
			_, err := slicer.NewQuotaSet(entries...)
			Expect(errors.Is(err, cupel.ErrInvalidConfig)).To(BeTrue())
			var ve *cupel.ValidationError
			Expect(errors.As(err, &ve)).To(BeTrue())
			Expect(ve.Type).To(Equal("QuotaSet"))
			Expect(ve.Field).To(Equal(field))
		},
		Entry("blank kind", "entries[0].kind", slicer.Require(" ", 10)),
		Entry("empty kind", "entries[1].kind", slicer.Require("a", 10), slicer.Cap("", 10)),
		Entry("zero entry", "entries[0].kind", slicer.QuotaEntry{}),
		Entry("require < 0", "entries[0].require", slicer.Require("a", -1)),
		Entry("require > 100", "entries[0].require", slicer.Require("a", 100.5)),
		Entry("require NaN", "entries[0].require", slicer.Require("a", math.NaN())),
		Entry("require +Inf", "entries[0].require", slicer.Require("a", math.Inf(1))),
		Entry("cap < 0", "entries[0].cap", slicer.Cap("a", -0.1)),
		Entry("cap > 100", "entries[0].cap", slicer.Cap("a", 101)),
		Entry("cap NaN", "entries[0].cap", slicer.RequireCap("a", 0, math.NaN())),
		Entry("require > cap in one entry", "require", slicer.RequireCap("a", 50, 40)),
		Entry("require > cap across merged entries", "require", slicer.Require("a", 50), slicer.Cap("A", 40)),
		Entry("require > default-free cap", "require", slicer.Cap("a", 0), slicer.Require("a", 1)),
		Entry("requires sum > 100", "require", slicer.Require("a", 60), slicer.Require("b", 40), slicer.Require("c", 0.5)),
		Entry("conflicting requires for one kind", "entries[1].require", slicer.Require("Tool", 10), slicer.Require("tool", 20)),
		Entry("conflicting caps for one kind", "entries[1].cap", slicer.Cap("Tool", 10), slicer.RequireCap("TOOL", 5, 20)),
	)
})

var _ = Describe("QuotaSlice", func() {
	It("rejects a nil inner slicer", func() {
		for _, inner := range []cupel.Slicer{nil, (*slicer.Greedy)(nil)} {
			q, err := slicer.NewQuota(slicer.QuotaSet{}, inner)
			Expect(q).To(BeNil())
			Expect(errors.Is(err, cupel.ErrInvalidConfig)).To(BeTrue())
			Expect(slField(err)).To(Equal("inner"))
		}
		var z slicer.Quota
		_, err := z.Slice([]cupel.ScoredItem{slS(slItem("a", 1), 1)}, slTarget(1))
		Expect(errors.Is(err, cupel.ErrInvalidConfig)).To(BeTrue())
	})

	It("exposes its configuration", func() {
		g := slicer.NewGreedy()
		qs := slQuotas(slicer.Require("a", 10))
		q, err := slicer.NewQuota(qs, g)
		Expect(err).NotTo(HaveOccurred())
		Expect(q.Inner()).To(BeIdenticalTo(g))
		Expect(q.Quotas().Kinds()).To(Equal([]cupel.ContextKind{"a"}))
	})

	run := func(qs slicer.QuotaSet, in []cupel.ScoredItem, b cupel.ContextBudget) ([]string, *slRecorder) {
		rec := &slRecorder{}
		q, err := slicer.NewQuota(qs, rec)
		Expect(err).NotTo(HaveOccurred())
		out, err := q.Slice(in, b)
		Expect(err).NotTo(HaveOccurred())
		return slContents(out), rec
	}

	It("distributes 1000 tokens between two kinds requiring 33% with floor truncation (worked example)", func() {
		in := []cupel.ScoredItem{
			slS(slKindItem("a1", "A", 150), 0.9),
			slS(slKindItem("b1", "B", 100), 0.8),
			slS(slKindItem("a2", "A", 50), 0.7),
		}
		_, rec := run(slQuotas(slicer.Require("A", 33), slicer.Require("B", 33)), in, slTarget(1000))
		// require 330 each, unassigned 340, masses A 200 / B 100:
		// A = 330 + floor(340*200/300) = 330 + 226, B = 330 + floor(340*100/300) = 330 + 113.
		Expect(rec.calls).To(Equal([]slCall{
			{items: []string{"a1", "a2"}, max: 1000, target: 556},
			{items: []string{"b1"}, max: 1000, target: 443},
		}))
		Expect(556 + 443).To(BeNumerically("<", 1000))
	})

	DescribeTable("edge cases (chapter QuotaSlice)",
		func(qs func() slicer.QuotaSet, in func() []cupel.ScoredItem, target int, want []string, calls []slCall) {
			got, rec := run(qs(), in(), slTarget(target))
			Expect(got).To(Equal(want))
			Expect(rec.calls).To(Equal(calls))
		},
		Entry("empty scoredItems", func() slicer.QuotaSet { return slQuotas(slicer.Require("A", 50)) },
			func() []cupel.ScoredItem { return nil }, 100, []string{}, []slCall(nil)),
		Entry("targetTokens = 0", func() slicer.QuotaSet { return slQuotas(slicer.Require("A", 50)) },
			func() []cupel.ScoredItem { return []cupel.ScoredItem{slS(slKindItem("a", "A", 0), 1)} }, 0, []string{}, []slCall(nil)),
		Entry("no quotas configured: proportional budgets only", func() slicer.QuotaSet { return slicer.QuotaSet{} },
			func() []cupel.ScoredItem {
				return []cupel.ScoredItem{slS(slKindItem("x1", "X", 20), 0.9), slS(slKindItem("y1", "Y", 10), 0.8), slS(slKindItem("x2", "X", 10), 0.1)}
			}, 100, []string{"x1", "x2", "y1"},
			[]slCall{{items: []string{"x1", "x2"}, max: 100, target: 75}, {items: []string{"y1"}, max: 100, target: 25}}),
		Entry("require = 100%: that kind gets the whole budget, others nothing", func() slicer.QuotaSet { return slQuotas(slicer.Require("A", 100)) },
			func() []cupel.ScoredItem {
				return []cupel.ScoredItem{slS(slKindItem("b1", "B", 10), 0.9), slS(slKindItem("a1", "A", 10), 0.8)}
			}, 100, []string{"a1"},
			[]slCall{{items: []string{"a1"}, max: 100, target: 100}}),
		Entry("cap = 0%: the kind is excluded", func() slicer.QuotaSet { return slQuotas(slicer.Cap("B", 0)) },
			func() []cupel.ScoredItem {
				return []cupel.ScoredItem{slS(slKindItem("b1", "B", 10), 0.9), slS(slKindItem("a1", "A", 10), 0.8)}
			}, 100, []string{"a1"},
			[]slCall{{items: []string{"a1"}, max: 100, target: 100}}),
		Entry("zero token mass: require allocation only", func() slicer.QuotaSet { return slQuotas(slicer.Require("A", 10)) },
			func() []cupel.ScoredItem {
				return []cupel.ScoredItem{slS(slKindItem("a0", "A", 0), 0.2), slS(slKindItem("b1", "B", 50), 0.9)}
			}, 100, []string{"a0", "b1"},
			[]slCall{{items: []string{"a0"}, max: 100, target: 10}, {items: []string{"b1"}, max: 100, target: 90}}),
		Entry("kind without candidates: its require is unused", func() slicer.QuotaSet { return slQuotas(slicer.Require("C", 50)) },
			func() []cupel.ScoredItem {
				return []cupel.ScoredItem{slS(slKindItem("a1", "A", 80), 0.9)}
			}, 100, []string{},
			[]slCall{{items: []string{"a1"}, max: 100, target: 50}}),
		Entry("cap limits the kind's budget and is its maxTokens", func() slicer.QuotaSet { return slQuotas(slicer.RequireCap("A", 10, 20)) },
			func() []cupel.ScoredItem {
				return []cupel.ScoredItem{slS(slKindItem("a1", "A", 15), 0.9), slS(slKindItem("a2", "A", 500), 0.8), slS(slKindItem("b1", "B", 100), 0.1)}
			}, 100, []string{"a1"},
			// A: 10 + floor(90*515/615) = 85 -> capped at 20. B: floor(90*100/615) = 14.
			[]slCall{{items: []string{"a1", "a2"}, max: 20, target: 20}, {items: []string{"b1"}, max: 100, target: 14}}),
	)

	It("compares kinds ASCII case-insensitively and visits them in first-seen order (ruling 16)", func() {
		in := []cupel.ScoredItem{
			slS(slKindItem("t1", "tool", 10), 0.9),
			slS(slKindItem("m1", "Memory", 10), 0.8),
			slS(slKindItem("t2", "TOOL", 10), 0.7),
			slS(slKindItem("m2", "memory", 10), 0.6),
		}
		for i := 0; i < 20; i++ {
			got, rec := run(slQuotas(slicer.RequireCap("Tool", 50, 50)), in, slTarget(40))
			Expect(got).To(Equal([]string{"t1", "t2", "m1", "m2"}))
			Expect(rec.calls).To(Equal([]slCall{
				{items: []string{"t1", "t2"}, max: 20, target: 20},
				{items: []string{"m1", "m2"}, max: 40, target: 20},
			}))
		}
		// Input order decides the partition order.
		got, _ := run(slicer.QuotaSet{}, []cupel.ScoredItem{in[1], in[0], in[3], in[2]}, slTarget(40))
		Expect(got).To(Equal([]string{"m1", "m2", "t1", "t2"}))
	})

	It("keeps the Kelvin sign apart from K", func() {
		in := []cupel.ScoredItem{slS(slKindItem("k", "K", 10), 0.9), slS(slKindItem("kelvin", "\u212a", 10), 0.9)}
		_, rec := run(slQuotas(slicer.Cap("k", 0)), in, slTarget(100))
		Expect(rec.calls).To(Equal([]slCall{{items: []string{"kelvin"}, max: 100, target: 100}}))
	})

	It("drops nil items and items with negative tokens before partitioning", func() {
		in := []cupel.ScoredItem{
			{Item: nil, Score: 1},
			slS(slKindItem("neg", "A", -1000), 0.9),
			slS(slKindItem("a1", "A", 10), 0.5),
			slS(slKindItem("b1", "B", 10), 0.5),
		}
		got, rec := run(slicer.QuotaSet{}, in, slTarget(100))
		Expect(got).To(Equal([]string{"a1", "b1"}))
		Expect(rec.calls).To(Equal([]slCall{{items: []string{"a1"}, max: 100, target: 50}, {items: []string{"b1"}, max: 100, target: 50}}))
	})

	It("returns the inner slicer's error", func() {
		boom := errors.New("boom")
		q, err := slicer.NewQuota(slicer.QuotaSet{}, slErrSlicer{boom})
		Expect(err).NotTo(HaveOccurred())
		_, err = q.Slice([]cupel.ScoredItem{slS(slItem("a", 1), 1)}, slTarget(10))
		Expect(err).To(MatchError(boom))
	})

	It("propagates a knapsack inner's table error", func() {
		q, err := slicer.NewQuota(slicer.QuotaSet{}, slKnapsack(1, slicer.WithTableLimit(5)))
		Expect(err).NotTo(HaveOccurred())
		_, err = q.Slice([]cupel.ScoredItem{slS(slItem("a", 1), 1)}, slTarget(10))
		Expect(errors.Is(err, cupel.ErrTableTooLarge)).To(BeTrue())
	})

	It("computes floor(unassigned*mass/totalMass) exactly for huge values", func() {
		half := math.MaxInt / 2
		in := []cupel.ScoredItem{
			slS(slKindItem("a", "A", half), 0.9),
			slS(slKindItem("b", "B", half-12345), 0.9),
		}
		_, rec := run(slicer.QuotaSet{}, in, slTarget(math.MaxInt))
		total := new(big.Int).SetInt64(int64(half) + int64(half-12345))
		want := func(mass int) int {
			p := new(big.Int).Mul(big.NewInt(math.MaxInt), big.NewInt(int64(mass)))
			return int(p.Div(p, total).Int64())
		}
		Expect(rec.calls).To(HaveLen(2))
		Expect(rec.calls[0].target).To(Equal(want(half)))
		Expect(rec.calls[1].target).To(Equal(want(half - 12345)))
	})

	It("reports a token mass that overflows int", func() {
		in := []cupel.ScoredItem{slS(slKindItem("a", "A", math.MaxInt), 0.9), slS(slKindItem("b", "A", 1), 0.9)}
		q, _ := slicer.NewQuota(slicer.QuotaSet{}, slicer.NewGreedy())
		_, err := q.Slice(in, slTarget(10))
		Expect(errors.Is(err, cupel.ErrTokenOverflow)).To(BeTrue())
	})
})
