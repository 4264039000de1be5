package placer_test

import (
	"math"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
)

func slTimed(content string, ts *time.Time) *cupel.ContextItem {
	return cupel.MustItem(cupel.ItemSpec{Content: content, Tokens: 1, Timestamp: ts})
}

func slItem(content string, tokens int) *cupel.ContextItem {
	return cupel.MustItem(cupel.ItemSpec{Content: content, Tokens: tokens})
}

func slS(it *cupel.ContextItem, score float64) cupel.ScoredItem {
	return cupel.ScoredItem{Item: it, Score: score}
}

// slContents is the contents of items in order, "<nil>" for a nil item.
func slContents(items []*cupel.ContextItem) []string {
	out := make([]string, len(items))
	for i, it := range items {
		if it == nil {
			out[i] = "<nil>"
		} else {
			out[i] = it.Content()
		}
	}
	return out
}

var _ = Describe("ChronologicalPlacer", func() {
	p := placer.NewChronological()
	t0 := time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *time.Time { t := t0.Add(d); return &t }
	place := func(its ...*cupel.ContextItem) []string {
		in := make([]cupel.ScoredItem, len(its))
		for i, it := range its {
			in[i] = slS(it, float64(i)) // scores must not matter
		}
		return slContents(p.Place(in))
	}

	DescribeTable("edge cases (chapter ChronologicalPlacer)",
		func(its func() []*cupel.ContextItem, want []string) {
			Expect(place(its()...)).To(Equal(want))
		},
		Entry("empty input", func() []*cupel.ContextItem { return nil }, []string{}),
		Entry("single item", func() []*cupel.ContextItem { return []*cupel.ContextItem{slTimed("a", nil)} }, []string{"a"}),
		Entry("all items have timestamps", func() []*cupel.ContextItem {
			return []*cupel.ContextItem{slTimed("c", at(3)), slTimed("a", at(1)), slTimed("b", at(2))}
		}, []string{"a", "b", "c"}),
		Entry("no items have timestamps: input order", func() []*cupel.ContextItem {
			return []*cupel.ContextItem{slTimed("c", nil), slTimed("a", nil), slTimed("b", nil)}
		}, []string{"c", "a", "b"}),
		Entry("mixed: timestamped ascending, then the others in input order", func() []*cupel.ContextItem {
			return []*cupel.ContextItem{slTimed("n1", nil), slTimed("t2", at(2*time.Hour)), slTimed("n2", nil), slTimed("t1", at(-time.Hour))}
		}, []string{"t1", "t2", "n1", "n2"}),
		Entry("all the same timestamp: input order", func() []*cupel.ContextItem {
			return []*cupel.ContextItem{slTimed("x", at(0)), slTimed("y", at(0)), slTimed("z", at(0))}
		}, []string{"x", "y", "z"}),
	)

	It("compares timestamps as instants, whatever their zones, to the nanosecond", func() {
		plus2 := time.FixedZone("+02", 2*3600)
		early := t0.In(plus2)                             // 14:00+02 = 12:00Z
		late := time.Date(2024, 1, 1, 13, 0, 0, 0, plus2) // 11:00Z
		ns := t0.Add(time.Nanosecond)
		Expect(place(slTimed("ns", &ns), slTimed("noonZ", &early), slTimed("elevenZ", &late), slTimed("noon", at(0)))).
			To(Equal([]string{"elevenZ", "noonZ", "noon", "ns"}))
	})

	It("orders timestamps before 1970 and far in the future", func() {
		old := time.Date(1600, 1, 1, 0, 0, 0, 5, time.UTC)
		older := time.Date(1600, 1, 1, 0, 0, 0, 4, time.UTC)
		future := time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)
		Expect(place(slTimed("f", &future), slTimed("o", &old), slTimed("n", nil), slTimed("oo", &older))).To(Equal([]string{"oo", "o", "f", "n"}))
	})

	It("orders large inputs (radix path) and inputs with out-of-nanosecond-range instants (slow path) alike", func() {
		for _, far := range []bool{false, true} {
			var in []cupel.ScoredItem
			for i := 0; i < 700; i++ {
				var ts *time.Time
				if i%5 != 0 {
					ts = at(time.Duration((i*7919)%97) * time.Minute)
				}
				in = append(in, slS(slTimed("x", ts), 0))
			}
			if far {
				f := time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)
				in = append(in, slS(slTimed("far", &f), 0))
			}
			out := p.Place(in)
			pos := map[*cupel.ContextItem]int{}
			for i, si := range in {
				pos[si.Item] = i
			}
			for i := 1; i < len(out); i++ {
				a, aok := out[i-1].Timestamp()
				b, bok := out[i].Timestamp()
				switch {
				case aok && bok && !a.Equal(b):
					Expect(a.Before(b)).To(BeTrue())
				case aok == bok:
					Expect(pos[out[i-1]]).To(BeNumerically("<", pos[out[i]]))
				default:
					Expect(aok).To(BeTrue()) // timestamped before untimed
				}
			}
		}
	})

	It("places nil items among the untimed ones, as nil", func() {
		in := []cupel.ScoredItem{{Item: nil}, slS(slTimed("t", at(0)), 0)}
		Expect(slContents(p.Place(in))).To(Equal([]string{"t", "<nil>"}))
		var z *placer.Chronological
		Expect(slContents(z.Place(in))).To(Equal([]string{"t", "<nil>"}))
	})
})

var _ = Describe("UShapedPlacer", func() {
	p := placer.NewUShaped()
	place := func(in []cupel.ScoredItem) []string { return slContents(p.Place(in)) }

	It("places the spec's 7-item example as A C E G F D B", func() {
		var in []cupel.ScoredItem
		for i, n := range []string{"A", "B", "C", "D", "E", "F", "G"} {
			in = append(in, slS(slItem(n, 1), 0.9-0.1*float64(i)))
		}
		Expect(place(in)).To(Equal([]string{"A", "C", "E", "G", "F", "D", "B"}))
		// Input order does not matter, only scores.
		shuffled := []cupel.ScoredItem{in[3], in[6], in[0], in[5], in[1], in[4], in[2]}
		Expect(place(shuffled)).To(Equal([]string{"A", "C", "E", "G", "F", "D", "B"}))
	})

	DescribeTable("edge cases (chapter UShapedPlacer)",
		func(in func() []cupel.ScoredItem, want []string) {
			Expect(place(in())).To(Equal(want))
		},
		Entry("empty input", func() []cupel.ScoredItem { return nil }, []string{}),
		Entry("single item", func() []cupel.ScoredItem { return []cupel.ScoredItem{slS(slItem("a", 1), 0.1)} }, []string{"a"}),
		Entry("two items: higher first", func() []cupel.ScoredItem {
			return []cupel.ScoredItem{slS(slItem("lo", 1), 0.1), slS(slItem("hi", 1), 0.9)}
		}, []string{"hi", "lo"}),
		Entry("all the same score: input-order ranks, alternating", func() []cupel.ScoredItem {
			return []cupel.ScoredItem{slS(slItem("r0", 1), 0.5), slS(slItem("r1", 1), 0.5), slS(slItem("r2", 1), 0.5), slS(slItem("r3", 1), 0.5), slS(slItem("r4", 1), 0.5)}
		}, []string{"r0", "r2", "r4", "r3", "r1"}),
		Entry("pinned items (score 1.0) go to the edges", func() []cupel.ScoredItem {
			return []cupel.ScoredItem{slS(slItem("p1", 1), 1.0), slS(slItem("p2", 1), 1.0), slS(slItem("s1", 1), 0.7), slS(slItem("s2", 1), 0.3)}
		}, []string{"p1", "s1", "s2", "p2"}),
		Entry("NaN after every number, -0 equal to +0 (ruling 6)", func() []cupel.ScoredItem {
			return []cupel.ScoredItem{
				slS(slItem("nan", 1), math.NaN()), slS(slItem("nz", 1), math.Copysign(0, -1)), slS(slItem("inf", 1), math.Inf(-1)),
				slS(slItem("pz", 1), 0), slS(slItem("one", 1), 1),
			}
		}, []string{"one", "pz", "nan", "inf", "nz"}),
	)

	It("places nil items by their score, as nil", func() {
		var z *placer.UShaped
		in := []cupel.ScoredItem{{Item: nil, Score: 0.9}, slS(slItem("a", 1), 0.1)}
		Expect(slContents(z.Place(in))).To(Equal([]string{"<nil>", "a"}))
	})

	It("uses the same order for large inputs (radix path)", func() {
		var in []cupel.ScoredItem
		for i := 0; i < 1001; i++ {
			in = append(in, slS(slItem("x", 1), float64((i*7919)%17)))
		}
		out := p.Place(in)
		pos := map[*cupel.ContextItem]int{}
		for i, si := range in {
			pos[si.Item] = i
		}
		// Reading the even ranks from the left and odd from the right
		// must give scores non-increasing, ties by input position.
		var ranked []*cupel.ContextItem
		for l, r := 0, len(out)-1; l <= r; l, r = l+1, r-1 {
			ranked = append(ranked, out[l])
			if l != r {
				ranked = append(ranked, out[r])
			}
		}
		for i := 1; i < len(ranked); i++ {
			a, b := in[pos[ranked[i-1]]].Score, in[pos[ranked[i]]].Score
			Expect(a >= b).To(BeTrue())
			if a == b {
				Expect(pos[ranked[i-1]]).To(BeNumerically("<", pos[ranked[i]]))
			}
		}
	})
})
