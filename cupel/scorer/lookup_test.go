package scorer_test

import (
	"math"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/internal/randitems"
	"github.com/cupel-go/go-cupel/cupel/scorer"
)

const kelvin = randitems.Kelvin

var _ = Describe("KindScorer (spec chapter KindScorer)", func() {
	Describe("default weights", func() {
		It("are exactly the five well-known kinds with the spec's weights", func() {
			Expect(scorer.DefaultKindWeights()).To(Equal(map[cupel.ContextKind]float64{
				"SystemPrompt": 1.0, "Memory": 0.8, "ToolOutput": 0.6, "Document": 0.4, "Message": 0.2,
			}))
			Expect(scorer.NewDefaultKind().Weights()).To(Equal(scorer.DefaultKindWeights()))
		})
		It("are returned as a copy", func() {
			w := scorer.DefaultKindWeights()
			w[cupel.KindMessage] = 99
			delete(w, cupel.KindMemory)
			Expect(scorer.DefaultKindWeights()).To(HaveKeyWithValue(cupel.KindMessage, 0.2))
			Expect(scorer.DefaultKindWeights()).To(HaveLen(5))
			s := scorer.NewDefaultKind()
			s.Weights()[cupel.KindMessage] = 99
			Expect(s.Score(scItem("m"), nil)).To(Equal(0.2))
		})
		It("score every well-known kind", func() {
			s := scorer.NewDefaultKind()
			expectScores(s, []*cupel.ContextItem{
				scItem("a", scKind(cupel.KindSystemPrompt)), scItem("b", scKind(cupel.KindMemory)), scItem("c", scKind(cupel.KindToolOutput)),
				scItem("d", scKind(cupel.KindDocument)), scItem("e", scKind(cupel.KindMessage)), scItem("f"),
			}, 1.0, 0.8, 0.6, 0.4, 0.2, 0.2)
		})
	})

	Describe("edge cases", func() {
		It("returns the weight of a kind in the map and 0.0 for one that is not", func() {
			s, err := scorer.NewKind(map[cupel.ContextKind]float64{"Document": 0.7})
			Expect(err).NotTo(HaveOccurred())
			expectScores(s, []*cupel.ContextItem{scItem("a", scKind("Document")), scItem("b", scKind("Custom")), scItem("c")}, 0.7, 0, 0)
		})
		It("scores every item 0.0 with an empty or nil map", func() {
			for _, m := range []map[cupel.ContextKind]float64{{}, nil} {
				s, err := scorer.NewKind(m)
				Expect(err).NotTo(HaveOccurred())
				expectScores(s, []*cupel.ContextItem{scItem("a", scKind("Document")), scItem("b")}, 0, 0)
			}
		})
		It("returns a weight above 1.0 as is, without clamping", func() {
			s, err := scorer.NewKind(map[cupel.ContextKind]float64{"Memory": 2.5, "Message": 0})
			Expect(err).NotTo(HaveOccurred())
			expectScores(s, []*cupel.ContextItem{scItem("a", scKind("Memory")), scItem("b")}, 2.5, 0)
		})
	})

	Describe("conformance notes", func() {
		It("compares kinds case-insensitively (ASCII folding)", func() {
			s, err := scorer.NewKind(map[cupel.ContextKind]float64{"Message": 0.3, "tooloutput": 0.9})
			Expect(err).NotTo(HaveOccurred())
			expectScores(s, []*cupel.ContextItem{
				scItem("a", scKind("message")), scItem("b", scKind("MESSAGE")), scItem("c", scKind("mEsSaGe")), scItem("d", scKind("ToolOutput")),
			}, 0.3, 0.3, 0.3, 0.9)
		})
		It("does not fold the Kelvin sign to K (ruling 15)", func() {
			s, err := scorer.NewKind(map[cupel.ContextKind]float64{"K": 1})
			Expect(err).NotTo(HaveOccurred())
			expectScores(s, []*cupel.ContextItem{scItem("a", scKind("k")), scItem("b", scKind(kelvin)), scItem("c", scKind("K"))}, 1, 0, 1)
			both, err := scorer.NewKind(map[cupel.ContextKind]float64{"k": 1, kelvin: 2})
			Expect(err).NotTo(HaveOccurred(), "K and the Kelvin sign are different kinds, so not duplicates")
			expectScores(both, []*cupel.ContextItem{scItem("a", scKind("K")), scItem("b", scKind(kelvin))}, 1, 2)
		})
		It("handles kinds longer than the lookup's stack buffer", func() {
			long := cupel.ContextKind("A-Very-Long-Kind-Name-That-Goes-On-And-On-Beyond-Sixty-Four-Bytes-Of-Text")
			s, err := scorer.NewKind(map[cupel.ContextKind]float64{long: 0.5})
			Expect(err).NotTo(HaveOccurred())
			expectScores(s, []*cupel.ContextItem{scItem("a", scKind(cupel.ContextKind(asciiUpper(string(long))))), scItem("b")}, 0.5, 0)
		})
		It("ignores allItems and scores a nil item 0", func() {
			s := scorer.NewDefaultKind()
			Expect(s.Score(scItem("a", scKind("Memory")), []*cupel.ContextItem{nil})).To(Equal(0.8))
			Expect(s.Score(nil, nil)).To(Equal(0.0))
			var z scorer.Kind
			Expect(z.Score(scItem("a"), nil)).To(Equal(0.0))
		})
	})

	DescribeTable("construction validation",
		func(weights map[cupel.ContextKind]float64, field string) {
			s, err := scorer.NewKind(weights)
			expectConfigError(err, field)
			Expect(s).To(BeNil())
		},
		Entry("a negative weight", map[cupel.ContextKind]float64{"Message": 0.5, "Document": -0.1}, "weights[Document]"),
		Entry("NaN", map[cupel.ContextKind]float64{"Memory": math.NaN()}, "weights[Memory]"),
		Entry("+Inf", map[cupel.ContextKind]float64{"Memory": math.Inf(1)}, "weights[Memory]"),
		Entry("-Inf", map[cupel.ContextKind]float64{"Memory": math.Inf(-1)}, "weights[Memory]"),
		Entry("two keys equal under ASCII folding", map[cupel.ContextKind]float64{"Document": 0.1, "document": 0.1}, "weights[document]"),
		Entry("an empty kind", map[cupel.ContextKind]float64{"": 0.1}, "weights[]"),
		Entry("a white-space kind", map[cupel.ContextKind]float64{" \t": 0.1}, "weights[ \t]"),
	)

	It("copies the weight map", func() {
		m := map[cupel.ContextKind]float64{"Message": 0.5}
		s, err := scorer.NewKind(m)
		Expect(err).NotTo(HaveOccurred())
		m["Message"] = 0.9
		Expect(s.Score(scItem("a"), nil)).To(Equal(0.5))
		Expect(s.Weights()).To(Equal(map[cupel.ContextKind]float64{"Message": 0.5}))
	})
})

var _ = Describe("TagScorer (spec chapter TagScorer)", func() {
	newTag := func(m map[string]float64) *scorer.Tag {
		GinkgoHelper()
		s, err := scorer.NewTag(m)
		Expect(err).NotTo(HaveOccurred())
		return s
	}

	Describe("edge cases", func() {
		s := newTag(map[string]float64{"a": 1, "b": 3})
		It("scores 0.0 for an item without tags", func() {
			expectScores(s, []*cupel.ContextItem{scItem("x")}, 0)
		})
		It("scores every item 0.0 when the total weight is 0", func() {
			z := newTag(map[string]float64{"a": 0, "b": 0})
			expectScores(z, []*cupel.ContextItem{scItem("x", scTags("a", "b"))}, 0)
			expectScores(newTag(nil), []*cupel.ContextItem{scItem("x", scTags("a"))}, 0)
		})
		It("scores 0.0 when no tag matches", func() {
			expectScores(s, []*cupel.ContextItem{scItem("x", scTags("c", "d"))}, 0)
		})
		It("scores 1.0 when the item matches every configured tag exactly once", func() {
			expectScores(s, []*cupel.ContextItem{scItem("x", scTags("b", "a", "zzz"))}, 1)
		})
		It("adds every occurrence of a duplicate tag, capped at 1.0", func() {
			expectScores(s, []*cupel.ContextItem{scItem("x", scTags("a", "a")), scItem("y", scTags("b", "b")), scItem("z", scTags("a", "b", "a"))}, 0.5, 1, 1)
		})
	})

	Describe("conformance notes", func() {
		It("divides the matched sum by the total configured weight", func() {
			expectScores(newTag(map[string]float64{"a": 1, "b": 3}), []*cupel.ContextItem{scItem("x", scTags("a")), scItem("y", scTags("b"))}, 0.25, 0.75)
		})
		It("looks tags up case-sensitively (ruling 15)", func() {
			s := newTag(map[string]float64{"Important": 1, "other": 1})
			expectScores(s, []*cupel.ContextItem{scItem("x", scTags("important")), scItem("y", scTags("IMPORTANT")), scItem("z", scTags("Important"))}, 0, 0, 0.5)
		})
		It("sums the total in sorted key order, whatever the map order (ruling 16)", func() {
			// 1e16 + 1 + 1 rounds to 1e16 in key order a, b, c; other orders give 1e16 + 2.
			for range 50 {
				s := newTag(map[string]float64{"a": 1e16, "b": 1, "c": 1})
				Expect(s.TotalWeight()).To(Equal(1e16))
			}
		})
		It("ignores allItems, scores a nil item 0 and copies its map", func() {
			m := map[string]float64{"a": 1}
			s := newTag(m)
			m["a"] = 0
			Expect(s.Score(scItem("x", scTags("a")), []*cupel.ContextItem{nil})).To(Equal(1.0))
			Expect(s.Score(nil, nil)).To(Equal(0.0))
			Expect(s.Weights()).To(Equal(map[string]float64{"a": 1}))
			var z scorer.Tag
			Expect(z.Score(scItem("x", scTags("a")), nil)).To(Equal(0.0))
		})
	})

	DescribeTable("construction validation",
		func(weights map[string]float64, field string) {
			s, err := scorer.NewTag(weights)
			expectConfigError(err, field)
			Expect(s).To(BeNil())
		},
		Entry("a negative weight", map[string]float64{"a": 1, "b": -1}, "weights[b]"),
		Entry("NaN", map[string]float64{"a": math.NaN()}, "weights[a]"),
		Entry("+Inf", map[string]float64{"a": math.Inf(1)}, "weights[a]"),
		Entry("-Inf", map[string]float64{"a": math.Inf(-1)}, "weights[a]"),
		Entry("a sum that overflows", map[string]float64{"a": math.MaxFloat64, "b": math.MaxFloat64}, "weights"),
	)
})

var _ = Describe("FrequencyScorer (spec chapter FrequencyScorer)", func() {
	s := scorer.NewFrequency()

	It("has a batch path", func() { Expect(hasBatchPath(s)).To(BeTrue()) })

	Describe("edge cases", func() {
		It("scores 0.0 for an item without tags", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a"), scItem("b", scTags("x"))}, 0, 0)
		})
		It("scores 0.0 when allItems has only one item", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a", scTags("x"))}, 0)
		})
		It("scores 0.0 when no peer shares a tag", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a", scTags("x")), scItem("b", scTags("y")), scItem("c", scTags("z", "w"))}, 0, 0, 0)
		})
		It("scores 1.0 when every peer shares at least one tag", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a", scTags("x", "y")), scItem("b", scTags("y")), scItem("c", scTags("x"))}, 1, 0.5, 0.5)
		})
		It("does not count a peer without tags, and keeps it in the denominator", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a", scTags("x")), scItem("b"), scItem("c", scTags("x")), scItem("d")}, 1.0/3, 0, 1.0/3, 0)
		})
		It("gives the fraction of peers sharing any tag", func() {
			expectScores(s, []*cupel.ContextItem{
				scItem("a", scTags("x", "y")), scItem("b", scTags("y", "z")), scItem("c", scTags("z")), scItem("d", scTags("q")), scItem("e", scTags("x", "z")),
			}, 0.5, 0.75, 0.5, 0, 0.75)
		})
	})

	Describe("conformance notes", func() {
		It("compares tags case-insensitively with ASCII folding", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a", scTags("Important")), scItem("b", scTags("important")), scItem("c", scTags("IMPORTANT"))}, 1, 1, 1)
		})
		It("does not fold the Kelvin sign to k (ruling 15)", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a", scTags("k")), scItem("b", scTags(kelvin)), scItem("c", scTags("K"))}, 0.5, 0, 0.5)
			expectScores(s, []*cupel.ContextItem{scItem("a", scTags("x"+kelvin)), scItem("b", scTags("X"+kelvin))}, 1, 1)
		})
		It("skips itself by identity: an equal item with the same content is a peer", func() {
			a, b := scItem("same", scTags("x")), scItem("same", scTags("x"))
			expectScores(s, []*cupel.ContextItem{a, b}, 1, 1)
		})
		It("skips every occurrence of its own pointer, keeping length - 1 as the denominator", func() {
			a, b := scItem("a", scTags("x")), scItem("b", scTags("X"))
			expectScores(s, []*cupel.ContextItem{a, a, b}, 0.5, 0.5, 1)
			expectScores(s, []*cupel.ContextItem{a, a}, 0, 0)
			expectScores(s, []*cupel.ContextItem{a, a, a, b, b}, 0.5, 0.5, 0.5, 0.75, 0.75)
		})
		It("counts a peer with several shared tags once", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a", scTags("x", "y", "z")), scItem("b", scTags("z", "y", "x")), scItem("c", scTags("w"))}, 0.5, 0.5, 0)
		})
		It("treats duplicate and case-variant tags on one item as one", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a", scTags("x", "X", "x")), scItem("b", scTags("x")), scItem("c", scTags("y", "Y"))}, 0.5, 0.5, 0)
		})
		It("matches the empty tag with the empty tag", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a", scTags("")), scItem("b", scTags("", "q")), scItem("c", scTags("q"))}, 0.5, 1, 0.5)
		})
	})

	Describe("robustness", func() {
		It("scores a nil item 0 and ignores nil entries, also in the denominator", func() {
			a, b := scItem("a", scTags("x")), scItem("b", scTags("x"))
			Expect(s.Score(nil, []*cupel.ContextItem{a, b})).To(Equal(0.0))
			expectScores(s, []*cupel.ContextItem{nil, a, nil, b, nil}, 0, 1, 0, 1, 0)
			expectScores(s, []*cupel.ContextItem{nil, a, nil}, 0, 0, 0)
		})
		It("scores against the given list even when the item is not in it", func() {
			a := scItem("a", scTags("x"))
			Expect(s.Score(a, []*cupel.ContextItem{scItem("b", scTags("x")), scItem("c")})).To(Equal(1.0))
			Expect(s.Score(a, []*cupel.ContextItem{scItem("b", scTags("x")), scItem("c"), scItem("d", scTags("y"))})).To(Equal(0.5))
		})
	})
})

func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - ('a' - 'A')
		}
	}
	return string(b)
}
