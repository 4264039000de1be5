package scorer_test

import (
	"math"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/scorer"
)

// scConst scores every item the same (no batch path).
type scConst float64

func (c scConst) Score(*cupel.ContextItem, []*cupel.ContextItem) float64 { return float64(c) }

// scRecorder records the order in which it is called.
type scRecorder struct {
	name string
	log  *[]string
	mu   *sync.Mutex
}

func (r scRecorder) Score(*cupel.ContextItem, []*cupel.ContextItem) float64 {
	r.mu.Lock()
	*r.log = append(*r.log, r.name)
	r.mu.Unlock()
	return 0
}

// scCounter counts its calls.
type scCounter struct {
	calls int
	inner cupel.Scorer
}

func (c *scCounter) Score(it *cupel.ContextItem, all []*cupel.ContextItem) float64 {
	c.calls++
	return c.inner.Score(it, all)
}

// scMapScorer is a Scorer of an unhashable type.
type scMapScorer map[string]float64

func (m scMapScorer) Score(it *cupel.ContextItem, _ []*cupel.ContextItem) float64 {
	return m[it.Content()]
}

func mustComposite(entries ...scorer.Weighted) *scorer.Composite {
	GinkgoHelper()
	c, err := scorer.NewComposite(entries...)
	Expect(err).NotTo(HaveOccurred())
	return c
}

func mustScaled(inner cupel.Scorer) *scorer.Scaled {
	GinkgoHelper()
	s, err := scorer.NewScaled(inner)
	Expect(err).NotTo(HaveOccurred())
	return s
}

var _ = Describe("CompositeScorer (spec chapter CompositeScorer)", func() {
	recency, priority := scorer.NewRecency(), scorer.NewPriority()

	Describe("weight normalization", func() {
		It("normalizes (3, 1) and (0.75, 0.25) to the same weights and scores", func() {
			a := mustComposite(scorer.Weighted{Scorer: recency, Weight: 3}, scorer.Weighted{Scorer: priority, Weight: 1})
			b := mustComposite(scorer.Weighted{Scorer: recency, Weight: 0.75}, scorer.Weighted{Scorer: priority, Weight: 0.25})
			Expect(a.NormalizedWeights()).To(Equal([]float64{0.75, 0.25}))
			Expect(b.NormalizedWeights()).To(Equal([]float64{0.75, 0.25}))
			items := []*cupel.ContextItem{
				scItem("a", scAt(scHours(1)), scPriority(3)), scItem("b", scAt(scHours(2)), scPriority(1)), scItem("c", scAt(scHours(3))),
			}
			// recency 0, 0.5, 1; priority 1, 0, 0
			expectScores(a, items, 0.25, 0.375, 0.75)
			expectScores(b, items, 0.25, 0.375, 0.75)
		})
		It("keeps the raw weights in Entries, as a copy", func() {
			c := mustComposite(scorer.Weighted{Scorer: recency, Weight: 3}, scorer.Weighted{Scorer: priority, Weight: 1})
			e := c.Entries()
			Expect(e).To(HaveLen(2))
			Expect(e[0].Scorer).To(BeIdenticalTo(recency))
			Expect(e[0].Weight).To(Equal(3.0))
			Expect(e[1].Weight).To(Equal(1.0))
			e[0].Weight = 100
			c.NormalizedWeights()[0] = 100
			Expect(c.Entries()[0].Weight).To(Equal(3.0))
			Expect(c.NormalizedWeights()[0]).To(Equal(0.75))
		})
		It("normalizes weights to a sum of about 1.0", func() {
			c := mustComposite(scorer.Weighted{Scorer: recency, Weight: 0.1}, scorer.Weighted{Scorer: priority, Weight: 0.2}, scorer.Weighted{Scorer: recency, Weight: 0.3})
			sum := 0.0
			for _, w := range c.NormalizedWeights() {
				sum += w
			}
			Expect(sum).To(BeNumerically("~", 1.0, 1e-15))
		})
	})

	Describe("edge cases", func() {
		It("delegates to a single entry (normalized weight 1.0)", func() {
			c := mustComposite(scorer.Weighted{Scorer: scorer.NewReflexive(), Weight: 7})
			Expect(c.NormalizedWeights()).To(Equal([]float64{1}))
			expectScores(c, []*cupel.ContextItem{scItem("a", scHint(0.3)), scItem("b")}, 0.3, 0)
		})
		It("returns 0.0 when all children return 0.0 and 1.0 when all return 1.0", func() {
			items := []*cupel.ContextItem{scItem("a"), scItem("b")}
			expectScores(mustComposite(scorer.Weighted{Scorer: scConst(0), Weight: 1}, scorer.Weighted{Scorer: scConst(0), Weight: 2}), items, 0, 0)
			expectScores(mustComposite(scorer.Weighted{Scorer: scConst(1), Weight: 0.1}, scorer.Weighted{Scorer: scConst(1), Weight: 0.2}, scorer.Weighted{Scorer: scConst(1), Weight: 0.3}), items, 1, 1)
		})
		It("scores a nested composite recursively", func() {
			inner := mustComposite(scorer.Weighted{Scorer: scConst(1), Weight: 1}, scorer.Weighted{Scorer: scConst(0), Weight: 1})
			outer := mustComposite(scorer.Weighted{Scorer: inner, Weight: 1}, scorer.Weighted{Scorer: scConst(1), Weight: 1})
			expectScores(outer, []*cupel.ContextItem{scItem("a")}, 0.75)
		})
		It("accepts the same child twice, directly and through nesting (a DAG, not a cycle)", func() {
			shared := mustScaled(recency)
			inner := mustComposite(scorer.Weighted{Scorer: shared, Weight: 1})
			c, err := scorer.NewComposite(
				scorer.Weighted{Scorer: shared, Weight: 1}, scorer.Weighted{Scorer: shared, Weight: 1},
				scorer.Weighted{Scorer: inner, Weight: 1}, scorer.Weighted{Scorer: inner, Weight: 1})
			Expect(err).NotTo(HaveOccurred())
			expectScores(c, []*cupel.ContextItem{scItem("a", scAt(scHours(1))), scItem("b", scAt(scHours(2)))}, 0, 1)
		})
		It("cannot be made cyclic, even by overwriting a child after construction", func() {
			// The spec's self-referential cycle needs a child that changes
			// after the composite is built. Go lets a caller overwrite a
			// scorer value (*s = *other); the composite captured the child's
			// immutable state, so it is unaffected and stays acyclic.
			child := mustScaled(scorer.NewReflexive())
			comp := mustComposite(scorer.Weighted{Scorer: child, Weight: 1})
			wrapper := mustScaled(comp)
			*child = *wrapper // child now wraps comp, which wraps child's old state
			items := []*cupel.ContextItem{scItem("a", scHint(0.2)), scItem("b", scHint(0.6))}
			expectScores(comp, items, 0, 1)
			expectScores(child, items, 0, 1)
			again, err := scorer.NewComposite(scorer.Weighted{Scorer: child, Weight: 1}, scorer.Weighted{Scorer: comp, Weight: 1})
			Expect(err).NotTo(HaveOccurred())
			expectScores(again, items, 0, 1)
		})
		It("accepts a child of an unhashable type in the cycle detection", func() {
			c := mustComposite(scorer.Weighted{Scorer: scMapScorer{"a": 0.4}, Weight: 1}, scorer.Weighted{Scorer: mustScaled(scMapScorer{"a": 1}), Weight: 1})
			expectScores(c, []*cupel.ContextItem{scItem("a"), scItem("b")}, 0.7, 0)
		})
	})

	Describe("conformance notes", func() {
		It("invokes the children in entry order", func() {
			var log []string
			var mu sync.Mutex
			c := mustComposite(
				scorer.Weighted{Scorer: scRecorder{"first", &log, &mu}, Weight: 1},
				scorer.Weighted{Scorer: scRecorder{"second", &log, &mu}, Weight: 1},
				scorer.Weighted{Scorer: scRecorder{"third", &log, &mu}, Weight: 1})
			c.Score(scItem("a"), nil)
			Expect(log).To(Equal([]string{"first", "second", "third"}))
		})
		It("scores a nil item 0 without calling the children; the zero value scores 0", func() {
			counter := &scCounter{inner: scConst(1)}
			c := mustComposite(scorer.Weighted{Scorer: counter, Weight: 1})
			Expect(c.Score(nil, nil)).To(Equal(0.0))
			expectScores(c, []*cupel.ContextItem{nil, scItem("a")}, 0, 1)
			var z scorer.Composite
			Expect(z.Score(scItem("a"), nil)).To(Equal(0.0))
			Expect(z.Entries()).To(BeNil())
			Expect(z.NormalizedWeights()).To(BeNil())
			expectScores(&z, []*cupel.ContextItem{scItem("a")}, 0)
		})
	})

	DescribeTable("construction validation",
		func(field string, entries ...scorer.Weighted) {
			c, err := scorer.NewComposite(entries...)
			expectConfigError(err, field)
			Expect(c).To(BeNil())
		},
		Entry("no entries", "entries"),
		Entry("a nil scorer", "entries[1].scorer", scorer.Weighted{Scorer: scConst(1), Weight: 1}, scorer.Weighted{Scorer: nil, Weight: 1}),
		Entry("a typed nil scorer", "entries[0].scorer", scorer.Weighted{Scorer: (*scorer.Recency)(nil), Weight: 1}),
		Entry("a nil map scorer", "entries[0].scorer", scorer.Weighted{Scorer: scMapScorer(nil), Weight: 1}),
		Entry("a zero CompositeScorer", "entries[0].scorer", scorer.Weighted{Scorer: &scorer.Composite{}, Weight: 1}),
		Entry("a zero ScaledScorer", "entries[0].scorer", scorer.Weighted{Scorer: &scorer.Scaled{}, Weight: 1}),
		Entry("a zero weight", "entries[1].weight", scorer.Weighted{Scorer: scConst(1), Weight: 1}, scorer.Weighted{Scorer: scConst(1), Weight: 0}),
		Entry("a negative weight", "entries[0].weight", scorer.Weighted{Scorer: scConst(1), Weight: -1}),
		Entry("a NaN weight", "entries[0].weight", scorer.Weighted{Scorer: scConst(1), Weight: math.NaN()}),
		Entry("an infinite weight", "entries[0].weight", scorer.Weighted{Scorer: scConst(1), Weight: math.Inf(1)}),
		Entry("a -Inf weight", "entries[0].weight", scorer.Weighted{Scorer: scConst(1), Weight: math.Inf(-1)}),
		Entry("weights whose sum overflows", "entries", scorer.Weighted{Scorer: scConst(1), Weight: math.MaxFloat64}, scorer.Weighted{Scorer: scConst(1), Weight: math.MaxFloat64}),
	)
})

var _ = Describe("ScaledScorer (spec chapter ScaledScorer)", func() {
	kinds, err := scorer.NewKind(map[cupel.ContextKind]float64{"A": 5, "B": 10, "C": 7.5})
	if err != nil {
		panic(err)
	}

	Describe("edge cases", func() {
		s := mustScaled(kinds)
		It("returns 0.5 for an empty allItems", func() {
			Expect(s.Score(scItem("a", scKind("A")), nil)).To(Equal(0.5))
			Expect(s.Score(scItem("a", scKind("A")), []*cupel.ContextItem{nil})).To(Equal(0.5))
		})
		It("returns exactly 0.5 for a single item", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a", scKind("B"))}, 0.5)
		})
		It("returns exactly 0.5 when every inner score is equal", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a", scKind("A")), scItem("b", scKind("a")), scItem("c", scKind("A"))}, 0.5, 0.5, 0.5)
			expectScores(mustScaled(scConst(0.3)), []*cupel.ContextItem{scItem("a"), scItem("b")}, 0.5, 0.5)
		})
		It("gives two items with distinct inner scores 0.0 and 1.0", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a", scKind("B")), scItem("b", scKind("A"))}, 1, 0)
		})
		It("scales inner scores outside [0, 1] into [0, 1]", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a", scKind("A")), scItem("b", scKind("B")), scItem("c", scKind("C")), scItem("d", scKind("B"))}, 0, 1, 0.5, 1)
		})
	})

	Describe("conformance notes", func() {
		It("finds the item in allItems by identity, not by content", func() {
			a, b := scItem("same"), scItem("same")
			s := mustScaled(scIdentityScorer{a: 2, b: 4})
			expectScores(s, []*cupel.ContextItem{a, b}, 0, 1)
		})
		It("invokes the inner scorer for every item of allItems on every call", func() {
			counter := &scCounter{inner: scorer.NewPriority()}
			s := mustScaled(counter)
			items := []*cupel.ContextItem{scItem("a", scPriority(1)), scItem("b", scPriority(2)), scItem("c")}
			Expect(s.Score(items[1], items)).To(Equal(1.0))
			Expect(counter.calls).To(Equal(3))
		})
		It("is traversed by the composite's cycle detection and nests to any depth", func() {
			inner := mustComposite(scorer.Weighted{Scorer: scorer.NewPriority(), Weight: 1})
			s3 := mustScaled(mustScaled(mustScaled(inner)))
			c := mustComposite(scorer.Weighted{Scorer: s3, Weight: 1}, scorer.Weighted{Scorer: inner, Weight: 1})
			expectScores(c, []*cupel.ContextItem{scItem("a", scPriority(1)), scItem("b", scPriority(3)), scItem("c", scPriority(2))}, 0, 1, 0.5)
		})
	})

	Describe("decisions where the spec is silent", func() {
		It("computes the raw score of an item missing from allItems with the inner scorer", func() {
			s := mustScaled(kinds)
			all := []*cupel.ContextItem{scItem("a", scKind("A")), scItem("b", scKind("B"))}
			Expect(s.Score(scItem("x", scKind("C")), all)).To(Equal(0.5))
			Expect(s.Score(scItem("x", scKind("Z")), all)).To(Equal(-1.0))
			Expect(s.Score(scItem("x", scKind("Z")), all[:1])).To(Equal(0.5), "degenerate")
		})
		It("ignores NaN inner scores in min and max, as the spec's loop does", func() {
			a, b, c := scItem("a"), scItem("b"), scItem("c")
			s := mustScaled(scIdentityScorer{a: 1, b: math.NaN(), c: 3})
			expectScores(s, []*cupel.ContextItem{a, b, c}, 0, math.NaN(), 1)
		})
		It("scores a nil item 0, ignores nil entries and never hands them to the inner scorer", func() {
			s := mustScaled(scMapScorer{"a": 1, "b": 2})
			Expect(s.Score(nil, nil)).To(Equal(0.0))
			expectScores(s, []*cupel.ContextItem{nil, scItem("a"), nil, scItem("b")}, 0, 0, 0, 1)
			var z scorer.Scaled
			Expect(z.Score(scItem("a"), nil)).To(Equal(0.0))
			Expect(z.Inner()).To(BeNil())
			expectScores(&z, []*cupel.ContextItem{scItem("a")}, 0)
		})
		It("returns the inner scorer as given", func() {
			Expect(mustScaled(kinds).Inner()).To(BeIdenticalTo(kinds))
		})
	})

	DescribeTable("construction validation",
		func(inner cupel.Scorer) {
			s, err := scorer.NewScaled(inner)
			expectConfigError(err, "inner")
			Expect(s).To(BeNil())
		},
		Entry("nil", nil),
		Entry("a typed nil", (*scorer.Kind)(nil)),
		Entry("a zero ScaledScorer", &scorer.Scaled{}),
		Entry("a zero CompositeScorer", &scorer.Composite{}),
	)
})
