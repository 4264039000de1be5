package scorer_test

import (
	"math"
	"math/rand/v2"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/internal/testtool"
)

var _ = Describe("RecencyScorer (spec chapter RecencyScorer)", func() {
	s := scorer.NewRecency()

	It("has a batch path", func() { Expect(hasBatchPath(s)).To(BeTrue()) })

	It("ranks whole seconds, milliseconds, microseconds and nanoseconds in its batch path exactly as per item", func() {
		// The batch key counts in the largest unit dividing every
		// timestamp: each unit alone, mixed, near the UnixNano range's
		// ends and outside it, with ties and items without a timestamp.
		r := rand.New(rand.NewPCG(25, 5))
		units := []time.Duration{time.Second, time.Millisecond, time.Microsecond, time.Nanosecond}
		for trial := range testtool.Iterations(400, 100) { // fewer under -race; every unit 25 times
			unit := units[trial%4]
			n := []int{2, 3, 50, 300, 1100}[r.IntN(5)]
			items := make([]*cupel.ContextItem, n)
			for i := range items {
				at := scT0.Add(time.Duration(r.Int64N(1e6)) * unit / 16 * 16)
				switch r.IntN(20) {
				case 0:
					at = scT0.Add(time.Duration(r.IntN(5)) * time.Nanosecond) // breaks every coarser unit
				case 1:
					at = time.Unix(0, math.MaxInt64).Add(-time.Duration(r.IntN(3)) * unit)
				case 2:
					at = time.Unix(0, math.MinInt64).Add(time.Duration(r.IntN(3)) * unit)
				case 3: // outside the UnixNano range
					at = time.Date([]int{1, 1600, 2300, 9999}[r.IntN(4)], 1, 1, 0, 0, r.IntN(3), 0, time.UTC)
				case 4:
					items[i] = scItem("n" + strconv.Itoa(i))
					continue
				}
				items[i] = scItem("i"+strconv.Itoa(i), scAt(at))
			}
			per, batch := scPerItem(s, items), scBatched(s, items)
			for i := range items {
				Expect(batch[i]).To(Equal(per[i]), "trial %d (unit %v) item %d", trial, unit, i)
			}
		}
	})

	Describe("edge cases", func() {
		It("scores 0.0 for an item without a timestamp", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a", scAt(scHours(1))), scItem("b"), scItem("c", scAt(scHours(2)))}, 0, 0, 1)
		})
		It("scores every item 0.0 when none has a timestamp", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a"), scItem("b"), scItem("c")}, 0, 0, 0)
		})
		It("scores 1.0 for the only item with a timestamp", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a"), scItem("b", scAt(scHours(-100))), scItem("c")}, 0, 1, 0)
		})
		It("scores 1.0 for a single-item list (the lone timestamped item is the most recent)", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a", scAt(scT0))}, 1)
		})
		It("scores every item 0.0 when all share one timestamp", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a", scAt(scT0)), scItem("b", scAt(scT0)), scItem("c", scAt(scT0))}, 0, 0, 0)
		})
	})

	Describe("score distribution", func() {
		It("spaces distinct timestamps evenly, most recent 1.0 and oldest 0.0", func() {
			expectScores(s, []*cupel.ContextItem{
				scItem("mid", scAt(scHours(2))), scItem("new", scAt(scHours(3))),
				scItem("old", scAt(scHours(0))), scItem("q", scAt(scHours(1))), scItem("newest", scAt(scHours(4))),
			}, 0.5, 0.75, 0, 0.25, 1)
		})
		It("gives tied timestamps the same rank, the number of strictly older items", func() {
			expectScores(s, []*cupel.ContextItem{
				scItem("a", scAt(scHours(1))), scItem("b", scAt(scHours(2))), scItem("c", scAt(scHours(2))), scItem("d", scAt(scHours(3))),
			}, 0, 1.0/3, 1.0/3, 1)
		})
	})

	Describe("conformance notes", func() {
		It("compares timestamps as instants, not as their written form", func() {
			paris := time.FixedZone("+02:00", 2*3600)
			// 13:00+02:00 is 11:00Z, before 12:00Z although it reads later;
			// 14:00+02:00 is exactly 12:00Z, a tie.
			expectScores(s, []*cupel.ContextItem{
				scItem("utc", scAt(scT0)), scItem("earlier", scAt(time.Date(2025, 1, 1, 13, 0, 0, 0, paris))),
				scItem("same", scAt(time.Date(2025, 1, 1, 14, 0, 0, 0, paris))),
			}, 0.5, 0, 0.5)
		})
		It("divides by countWithTimestamp - 1, not length(allItems) - 1", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a", scAt(scHours(1))), scItem("b"), scItem("c"), scItem("d", scAt(scHours(2)))}, 0, 0, 0, 1)
		})
		It("ranks instants outside the years 1678 to 2262 (beyond UnixNano)", func() {
			y1 := time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
			y3000 := time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)
			expectScores(s, []*cupel.ContextItem{
				scItem("a", scAt(y3000)), scItem("b", scAt(y1)), scItem("c", scAt(scT0)), scItem("d", scAt(y3000.Add(time.Nanosecond))), scItem("e", scAt(y1)),
			}, 0.75, 0, 0.5, 1, 0)
		})
		It("distinguishes timestamps a nanosecond apart", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a", scAt(scT0.Add(time.Nanosecond))), scItem("b", scAt(scT0))}, 1, 0)
		})
	})

	Describe("robustness", func() {
		It("scores a nil item 0 and ignores nil entries", func() {
			a, b := scItem("a", scAt(scHours(1))), scItem("b", scAt(scHours(2)))
			Expect(s.Score(nil, []*cupel.ContextItem{a, b})).To(Equal(0.0))
			expectScores(s, []*cupel.ContextItem{nil, a, nil, b}, 0, 0, 0, 1)
		})
		It("counts every occurrence of a repeated pointer as a timestamped item", func() {
			a, b := scItem("a", scAt(scHours(1))), scItem("b", scAt(scHours(2)))
			expectScores(s, []*cupel.ContextItem{a, a, b}, 0, 0, 1)
		})
		It("works as a zero value", func() {
			var z scorer.Recency
			Expect(z.Score(scItem("a", scAt(scT0)), nil)).To(Equal(1.0))
		})
	})
})

var _ = Describe("PriorityScorer (spec chapter PriorityScorer)", func() {
	s := scorer.NewPriority()

	It("has a batch path", func() { Expect(hasBatchPath(s)).To(BeTrue()) })

	Describe("edge cases", func() {
		It("scores 0.0 for an item without a priority", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a", scPriority(1)), scItem("b"), scItem("c", scPriority(2))}, 0, 0, 1)
		})
		It("scores every item 0.0 when none has a priority", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a"), scItem("b")}, 0, 0)
		})
		It("scores 1.0 for the only item with a priority", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a"), scItem("b", scPriority(-7))}, 0, 1)
		})
		It("scores every item 0.0 when all share one priority", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a", scPriority(5)), scItem("b", scPriority(5)), scItem("c", scPriority(5))}, 0, 0, 0)
		})
	})

	Describe("score distribution and conformance notes", func() {
		It("scores higher priorities higher: priority 10 above 5", func() {
			expectScores(s, []*cupel.ContextItem{scItem("ten", scPriority(10)), scItem("five", scPriority(5))}, 1, 0)
		})
		It("spaces distinct priorities evenly, negative ones included", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a", scPriority(-3)), scItem("b", scPriority(100)), scItem("c", scPriority(0))}, 0, 1, 0.5)
		})
		It("gives tied priorities the same rank (strict comparison)", func() {
			expectScores(s, []*cupel.ContextItem{
				scItem("a", scPriority(1)), scItem("b", scPriority(3)), scItem("c", scPriority(3)), scItem("d", scPriority(3)), scItem("e", scPriority(9)),
			}, 0, 0.25, 0.25, 0.25, 1)
		})
		It("divides by countWithPriority - 1, not length(allItems) - 1", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a", scPriority(1)), scItem("b"), scItem("c", scPriority(2)), scItem("d", scPriority(3))}, 0, 0, 0.5, 1)
		})
		It("handles the extreme int values", func() {
			expectScores(s, []*cupel.ContextItem{scItem("a", scPriority(int(^uint(0)>>1))), scItem("b", scPriority(-int(^uint(0)>>1)-1))}, 1, 0)
		})
	})

	Describe("robustness", func() {
		It("scores a nil item 0 and ignores nil entries", func() {
			a, b := scItem("a", scPriority(1)), scItem("b", scPriority(2))
			Expect(s.Score(nil, []*cupel.ContextItem{a, b})).To(Equal(0.0))
			expectScores(s, []*cupel.ContextItem{a, nil, b}, 0, 0, 1)
			expectScores(s, []*cupel.ContextItem{nil, a, nil}, 0, 1, 0)
		})
		It("counts every occurrence of a repeated pointer", func() {
			a, b := scItem("a", scPriority(1)), scItem("b", scPriority(2))
			expectScores(s, []*cupel.ContextItem{b, a, a, b}, 2.0/3, 0, 0, 2.0/3)
		})
	})
})

var _ = Describe("ReflexiveScorer (spec chapter ReflexiveScorer)", func() {
	s := scorer.NewReflexive()
	inf := func(sign int) float64 {
		if sign > 0 {
			return 1 / zero()
		}
		return -1 / zero()
	}

	DescribeTable("edge cases",
		func(opts []scOpt, want float64) {
			expectScores(s, []*cupel.ContextItem{scItem("x", opts...)}, want)
		},
		Entry("futureRelevanceHint is null", nil, 0.0),
		Entry("futureRelevanceHint is NaN", []scOpt{scHint(zero() / zero())}, 0.0),
		Entry("futureRelevanceHint is +infinity", []scOpt{scHint(inf(1))}, 0.0),
		Entry("futureRelevanceHint is -infinity", []scOpt{scHint(inf(-1))}, 0.0),
		Entry("futureRelevanceHint is 0.5", []scOpt{scHint(0.5)}, 0.5),
		Entry("futureRelevanceHint is -0.3 (clamped)", []scOpt{scHint(-0.3)}, 0.0),
		Entry("futureRelevanceHint is 1.7 (clamped)", []scOpt{scHint(1.7)}, 1.0),
		Entry("futureRelevanceHint is 0.0", []scOpt{scHint(0)}, 0.0),
		Entry("futureRelevanceHint is 1.0", []scOpt{scHint(1)}, 1.0),
	)

	It("ignores allItems and scores a nil item 0", func() {
		a := scItem("a", scHint(0.25))
		Expect(s.Score(a, nil)).To(Equal(0.25))
		Expect(s.Score(a, []*cupel.ContextItem{nil, scItem("b", scHint(1))})).To(Equal(0.25))
		Expect(s.Score(nil, nil)).To(Equal(0.0))
	})
})

// zero returns 0 at run time, for NaN and infinities without constant folding errors.
func zero() float64 { return 0 }
