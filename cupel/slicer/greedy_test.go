package slicer_test

import (
	"math"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

var _ = Describe("GreedySlice", func() {
	g := slicer.NewGreedy()
	slice := func(in []cupel.ScoredItem, b cupel.ContextBudget) []string {
		out, err := g.Slice(in, b)
		Expect(err).NotTo(HaveOccurred())
		return slContents(out)
	}

	DescribeTable("edge cases (chapter GreedySlice)",
		func(in func() []cupel.ScoredItem, target int, want []string) {
			Expect(slice(in(), slTarget(target))).To(Equal(want))
		},
		Entry("empty scoredItems", func() []cupel.ScoredItem { return nil }, 100, []string{}),
		Entry("targetTokens = 0", func() []cupel.ScoredItem {
			return []cupel.ScoredItem{slS(slItem("a", 10), 0.9), slS(slItem("z", 0), 0.1)}
		}, 0, []string{}),
		Entry("all items zero-token", func() []cupel.ScoredItem {
			return []cupel.ScoredItem{slS(slItem("a", 0), 0.9), slS(slItem("b", 0), 0.1), slS(slItem("c", 0), 0.5)}
		}, 10, []string{"a", "b", "c"}),
		Entry("single item fits", func() []cupel.ScoredItem {
			return []cupel.ScoredItem{slS(slItem("a", 10), 0.9)}
		}, 10, []string{"a"}),
		Entry("single item exceeds", func() []cupel.ScoredItem {
			return []cupel.ScoredItem{slS(slItem("a", 11), 0.9)}
		}, 10, []string{}),
		Entry("all items exceed individually: only zero-token items", func() []cupel.ScoredItem {
			return []cupel.ScoredItem{slS(slItem("a", 20), 0.9), slS(slItem("z", 0), 0.1), slS(slItem("b", 30), 0.8)}
		}, 10, []string{"z"}),
		Entry("all items fit", func() []cupel.ScoredItem {
			return []cupel.ScoredItem{slS(slItem("a", 20), 0.9), slS(slItem("b", 30), 0.9), slS(slItem("c", 50), 0.3)}
		}, 100, []string{"a", "b", "c"}),
	)

	It("returns an empty list for a negative target (budget values are clamped by construction)", func() {
		Expect(slice([]cupel.ScoredItem{slS(slItem("a", 1), 1)}, cupel.ContextBudget{})).To(BeEmpty())
	})

	It("orders by density descending, equal densities by input index (A 0.5 at 0 before B 0.5 at 3)", func() {
		in := []cupel.ScoredItem{
			slS(slItem("A", 2), 1.0),    // 0.5
			slS(slItem("x", 10), 0.9),   // 0.09
			slS(slItem("y", 1), 0.9),    // 0.9
			slS(slItem("B", 1), 0.5),    // 0.5
			slS(slItem("w", 100), 0.05), // 0.0005
		}
		Expect(slice(in, slTarget(1000))).To(Equal([]string{"y", "A", "B", "x", "w"}))
	})

	It("puts zero-token items first, by index only, whatever their scores", func() {
		in := []cupel.ScoredItem{
			slS(slItem("a", 1), 5.0), // density 5
			slS(slItem("z1", 0), 0.0),
			slS(slItem("z2", 0), 0.9),
			slS(slItem("z3", 0), math.NaN()),
		}
		Expect(slice(in, slTarget(10))).To(Equal([]string{"z1", "z2", "z3", "a"}))
	})

	It("skips an item that does not fit instead of deferring, and keeps filling with later items", func() {
		in := []cupel.ScoredItem{
			slS(slItem("big", 60), 0.9),   // 0.015
			slS(slItem("small", 50), 1.0), // 0.02
			slS(slItem("tiny", 40), 0.4),  // 0.01
		}
		// small (50) fits, big (60) does not fit the remaining 50, tiny (40) does.
		Expect(slice(in, slTarget(100))).To(Equal([]string{"small", "tiny"}))
	})

	It("sorts NaN densities after every number and treats -0 as +0 (ruling 6)", func() {
		in := []cupel.ScoredItem{
			slS(slItem("nan", 1), math.NaN()),
			slS(slItem("negzero", 1), math.Copysign(0, -1)),
			slS(slItem("neg", 1), -1),
			slS(slItem("poszero", 1), 0),
			slS(slItem("inf", 1), math.Inf(-1)),
			slS(slItem("pos", 1), 0.1),
		}
		Expect(slice(in, slTarget(100))).To(Equal([]string{"pos", "negzero", "poszero", "neg", "inf", "nan"}))
		// With room for three, the NaN item is the one dropped among the tail.
		Expect(slice(in, slTarget(5))).To(Equal([]string{"pos", "negzero", "poszero", "neg", "inf"}))
	})

	It("never selects items with negative tokens and skips nil items", func() {
		in := []cupel.ScoredItem{
			slS(slItem("neg", -5), 0.9),
			{Item: nil, Score: 1},
			slS(slItem("a", 10), 0.5),
		}
		Expect(slice(in, slTarget(10))).To(Equal([]string{"a"}))
	})

	It("selects only what fits targetTokens, not maxTokens", func() {
		in := []cupel.ScoredItem{slS(slItem("a", 60), 0.9), slS(slItem("b", 60), 0.8)}
		Expect(slice(in, slBudget(200, 100))).To(Equal([]string{"a"}))
	})

	It("works as a zero value and as a nil pointer", func() {
		in := []cupel.ScoredItem{slS(slItem("a", 1), 1)}
		var z slicer.Greedy
		out, err := z.Slice(in, slTarget(1))
		Expect(err).NotTo(HaveOccurred())
		Expect(slContents(out)).To(Equal([]string{"a"}))
		var p *slicer.Greedy
		out, err = p.Slice(in, slTarget(1))
		Expect(err).NotTo(HaveOccurred())
		Expect(slContents(out)).To(Equal([]string{"a"}))
	})

	It("uses the same order for large inputs (radix path) as for small ones", func() {
		var in []cupel.ScoredItem
		for i := 0; i < 1000; i++ {
			in = append(in, slS(slItem("i", 1+i%7), float64(i%13)/13))
		}
		in = append(in, slS(slItem("nan", 1), math.NaN()), slS(slItem("neg0", 2), math.Copysign(0, -1)))
		out, err := g.Slice(in, slTarget(1<<30))
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(HaveLen(len(in)))
		// Densities must be non-increasing (NaN last); ties by input position.
		pos := map[*cupel.ContextItem]int{}
		for i, si := range in {
			pos[si.Item] = i
		}
		dens := func(it *cupel.ContextItem) float64 { return in[pos[it]].Score / float64(it.Tokens()) }
		for i := 1; i < len(out); i++ {
			a, b := dens(out[i-1]), dens(out[i])
			if math.IsNaN(b) {
				continue
			}
			Expect(math.IsNaN(a)).To(BeFalse())
			Expect(a >= b).To(BeTrue())
			if a == b {
				Expect(pos[out[i-1]]).To(BeNumerically("<", pos[out[i]]))
			}
		}
		Expect(out[len(out)-1].Content()).To(Equal("nan"))
	})
})
