package scorer_test

import (
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/scorer"
)

var _ = Describe("DecayScorer (spec chapter DecayScorer)", func() {
	// The spec's reference time for its vector outlines.
	ref := scT0 // 2025-01-01T12:00:00Z
	clock := scFixedClock(ref)
	h := time.Hour
	mustCurve := func(c scorer.DecayCurve, err error) scorer.DecayCurve {
		GinkgoHelper()
		Expect(err).NotTo(HaveOccurred())
		return c
	}
	mustDecay := func(curve scorer.DecayCurve, opts ...scorer.DecayOption) *scorer.Decay {
		GinkgoHelper()
		s, err := scorer.NewDecay(clock, curve, opts...)
		Expect(err).NotTo(HaveOccurred())
		return s
	}
	exp24 := mustCurve(scorer.NewExponentialCurve(24 * h))
	steps := mustCurve(scorer.NewStepCurve(scorer.StepWindow{MaxAge: h, Score: 0.9}, scorer.StepWindow{MaxAge: 24 * h, Score: 0.5}, scorer.StepWindow{MaxAge: 72 * h, Score: 0.1}))
	window6 := mustCurve(scorer.NewWindowCurve(6 * h))
	at := func(s string) *cupel.ContextItem {
		t, err := time.Parse(time.RFC3339, s)
		Expect(err).NotTo(HaveOccurred())
		return scItem("x", scAt(t))
	}
	aged := func(age time.Duration) *cupel.ContextItem { return scItem("x", scAt(ref.Add(-age))) }

	Describe("conformance vector outlines (reference time 2025-01-01T12:00:00Z)", func() {
		It("1. exponential, one half-life of age: 0.5", func() {
			expectScores(mustDecay(exp24), []*cupel.ContextItem{at("2024-12-31T12:00:00Z")}, 0.5)
		})
		It("2. a future-dated item scores as age zero: 1.0", func() {
			expectScores(mustDecay(exp24), []*cupel.ContextItem{at("2025-01-02T00:00:00Z")}, 1.0)
		})
		It("3. a null timestamp scores nullTimestampScore 0.5, whatever the curve", func() {
			for _, c := range []scorer.DecayCurve{exp24, steps, window6} {
				expectScores(mustDecay(c), []*cupel.ContextItem{scItem("x")}, 0.5)
			}
		})
		It("4. step curve, age 6h falls in the second window: 0.5", func() {
			expectScores(mustDecay(steps), []*cupel.ContextItem{at("2025-01-01T06:00:00Z")}, 0.5)
		})
		It("5. window curve, age exactly maxAge: 0.0", func() {
			expectScores(mustDecay(window6), []*cupel.ContextItem{at("2025-01-01T06:00:00Z")}, 0.0)
		})
	})

	Describe("edge cases", func() {
		It("scores a null timestamp with the configured nullTimestampScore", func() {
			s := mustDecay(exp24, scorer.WithNullTimestampScore(0.2))
			expectScores(s, []*cupel.ContextItem{scItem("x"), aged(0)}, 0.2, 1)
			Expect(s.NullTimestampScore()).To(Equal(0.2))
			expectScores(mustDecay(exp24, scorer.WithNullTimestampScore(0)), []*cupel.ContextItem{scItem("x")}, 0)
			expectScores(mustDecay(exp24, scorer.WithNullTimestampScore(1)), []*cupel.ContextItem{scItem("x")}, 1)
		})
		It("clamps a future-dated item's age to zero for every curve", func() {
			future := aged(-1000 * h)
			expectScores(mustDecay(exp24), []*cupel.ContextItem{future}, 1)
			expectScores(mustDecay(steps), []*cupel.ContextItem{future}, 0.9)
			expectScores(mustDecay(window6), []*cupel.ContextItem{future}, 1)
		})
		It("scores age exactly zero: exponential 1.0, step first window, window 1.0", func() {
			expectScores(mustDecay(exp24), []*cupel.ContextItem{aged(0)}, 1)
			expectScores(mustDecay(steps), []*cupel.ContextItem{aged(0)}, 0.9)
			expectScores(mustDecay(window6), []*cupel.ContextItem{aged(0)}, 1)
		})
		It("treats the window as half-open [0, maxAge)", func() {
			expectScores(mustDecay(window6), []*cupel.ContextItem{aged(6*h - time.Nanosecond), aged(6 * h), aged(6*h + time.Nanosecond)}, 1, 0, 0)
		})
		It("gives the last window's score beyond every boundary", func() {
			expectScores(mustDecay(steps), []*cupel.ContextItem{aged(72 * h), aged(10000 * h)}, 0.1, 0.1)
		})
		It("approaches but never goes below 0.0 for very large ages", func() {
			s := mustDecay(mustCurve(scorer.NewExponentialCurve(time.Second)))
			for _, age := range []time.Duration{100 * h, 1e6 * h, math.MaxInt64} {
				v := s.Score(aged(age), nil)
				Expect(v).To(BeNumerically(">=", 0))
				Expect(v).To(BeNumerically("<", 1e-100))
			}
			Expect(s.Score(scItem("x", scAt(time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC))), nil)).To(Equal(0.0))
		})
	})

	Describe("the step curve table", func() {
		DescribeTable("strict > at the boundaries",
			func(age time.Duration, want float64) {
				expectScores(mustDecay(steps), []*cupel.ContextItem{aged(age)}, want)
			},
			Entry("0h: the 1h window", time.Duration(0), 0.9),
			Entry("1h: the 24h window (1h is not > 1h)", h, 0.5),
			Entry("24h: the 72h window", 24*h, 0.1),
			Entry("72h: no window, the last entry", 72*h, 0.1),
			Entry("59m59s: the 1h window", h-time.Second, 0.9),
		)
	})

	Describe("the exponential curve", func() {
		It("computes 2^(-age/halfLife) in float64 seconds", func() {
			s := mustDecay(mustCurve(scorer.NewExponentialCurve(1500 * time.Millisecond)))
			expectScores(s, []*cupel.ContextItem{aged(3 * time.Second), aged(1500 * time.Millisecond), aged(750 * time.Millisecond)}, 0.25, 0.5, math.Pow(2, -0.5))
			expectScores(mustDecay(exp24), []*cupel.ContextItem{aged(36 * h)}, math.Pow(2, -1.5))
		})
	})

	Describe("conformance notes", func() {
		It("ignores allItems (an absolute scorer) and scores a nil item 0", func() {
			s := mustDecay(exp24)
			Expect(s.Score(aged(24*h), []*cupel.ContextItem{nil, aged(0)})).To(Equal(0.5))
			Expect(s.Score(nil, nil)).To(Equal(0.0))
			var z scorer.Decay
			Expect(z.Score(aged(0), nil)).To(Equal(0.0))
			expectScores(&z, []*cupel.ContextItem{aged(0)}, 0)
		})
		It("reads the injected clock: per call in Score, once per pass in the batch path", func() {
			var calls atomic.Int32
			counting := scorer.ClockFunc(func() time.Time { calls.Add(1); return ref })
			s, err := scorer.NewDecay(counting, exp24)
			Expect(err).NotTo(HaveOccurred())
			items := []*cupel.ContextItem{aged(24 * h), scItem("n"), aged(48 * h)}
			Expect(s.Score(items[0], items)).To(Equal(0.5))
			Expect(calls.Load()).To(Equal(int32(1)))
			calls.Store(0)
			Expect(scBatched(s, items)).To(Equal([]float64{0.5, 0.5, 0.25}))
			Expect(calls.Load()).To(Equal(int32(1)))
		})
		It("follows a moving clock", func() {
			now := ref
			s, err := scorer.NewDecay(scorer.ClockFunc(func() time.Time { return now }), mustCurve(scorer.NewWindowCurve(h)))
			Expect(err).NotTo(HaveOccurred())
			it := aged(30 * time.Minute)
			Expect(s.Score(it, nil)).To(Equal(1.0))
			now = now.Add(31 * time.Minute)
			Expect(s.Score(it, nil)).To(Equal(0.0))
		})
		It("has a real clock", func() {
			s, err := scorer.NewDecay(scorer.SystemClock(), mustCurve(scorer.NewWindowCurve(h)))
			Expect(err).NotTo(HaveOccurred())
			Expect(s.Score(scItem("x", scAt(time.Now().Add(-time.Minute))), nil)).To(Equal(1.0))
			Expect(s.Score(scItem("x", scAt(time.Now().Add(-2*h))), nil)).To(Equal(0.0))
			// Bracketed by two readings of the real clock: no tolerance for
			// how long the call took.
			before := time.Now()
			got := scorer.SystemClock().Now()
			after := time.Now()
			Expect(got).To(BeTemporally(">=", before))
			Expect(got).To(BeTemporally("<=", after))
		})
		It("can be used from several goroutines at once, all reading one clock (Rust's Send + Sync rule)", func() {
			s := mustDecay(exp24)
			items := []*cupel.ContextItem{aged(0), aged(24 * h), scItem("x"), aged(48 * h)}
			want := []float64{1, 0.5, 0.5, 0.25}
			got := make([][]float64, 8)
			var wg sync.WaitGroup
			for g := range got {
				wg.Go(func() {
					if g%2 == 0 {
						got[g] = scBatched(s, items)
					} else {
						got[g] = scPerItem(s, items)
					}
				})
			}
			wg.Wait()
			for g := range got {
				Expect(got[g]).To(Equal(want), "goroutine %d", g)
			}
		})
	})

	Describe("accessors, for serialising a policy", func() {
		It("describe each curve", func() {
			Expect(exp24.Type()).To(Equal("exponential"))
			Expect(exp24.HalfLife()).To(Equal(24 * h))
			Expect(exp24.MaxAge()).To(BeZero())
			Expect(exp24.Windows()).To(BeNil())
			Expect(window6.Type()).To(Equal("window"))
			Expect(window6.MaxAge()).To(Equal(6 * h))
			Expect(window6.HalfLife()).To(BeZero())
			Expect(steps.Type()).To(Equal("step"))
			Expect(steps.Windows()).To(Equal([]scorer.StepWindow{{MaxAge: h, Score: 0.9}, {MaxAge: 24 * h, Score: 0.5}, {MaxAge: 72 * h, Score: 0.1}}))
			Expect(scorer.DecayCurve{}.Type()).To(BeEmpty())
		})
		It("copy the step windows in and out", func() {
			ws := []scorer.StepWindow{{MaxAge: h, Score: 1}, {MaxAge: 2 * h, Score: 0}}
			c := mustCurve(scorer.NewStepCurve(ws...))
			ws[0].Score = 0.3
			c.Windows()[0].Score = 0.3
			expectScores(mustDecay(c), []*cupel.ContextItem{aged(0)}, 1)
		})
		It("describe the scorer", func() {
			s := mustDecay(steps)
			Expect(s.Curve()).To(Equal(steps))
			Expect(s.Clock()).NotTo(BeNil())
			Expect(s.Clock().Now()).To(Equal(ref))
			Expect(s.NullTimestampScore()).To(Equal(0.5))
		})
	})

	Describe("construction validation", func() {
		It("requires a clock", func() {
			for _, c := range []scorer.Clock{nil, scorer.ClockFunc(nil)} {
				s, err := scorer.NewDecay(c, exp24)
				expectConfigError(err, "clock")
				Expect(s).To(BeNil())
			}
		})
		It("rejects the zero curve", func() {
			_, err := scorer.NewDecay(clock, scorer.DecayCurve{})
			expectConfigError(err, "curve")
		})
		It("rejects a nullTimestampScore outside [0, 1]", func() {
			for _, v := range []float64{-0.01, 1.01, math.NaN(), math.Inf(1)} {
				_, err := scorer.NewDecay(clock, exp24, scorer.WithNullTimestampScore(v))
				expectConfigError(err, "nullTimestampScore")
			}
		})
		It("accepts a nil option", func() {
			_, err := scorer.NewDecay(clock, exp24, nil)
			Expect(err).NotTo(HaveOccurred())
		})
		It("rejects a half-life that is not positive, naming halfLife", func() {
			for _, d := range []time.Duration{0, -time.Second} {
				c, err := scorer.NewExponentialCurve(d)
				expectConfigError(err, "halfLife")
				Expect(err.Error()).To(ContainSubstring("halfLife"))
				Expect(c.Type()).To(BeEmpty())
			}
		})
		It("rejects a window maxAge that is not positive", func() {
			for _, d := range []time.Duration{0, -time.Second} {
				_, err := scorer.NewWindowCurve(d)
				expectConfigError(err, "maxAge")
			}
		})
		DescribeTable("step windows",
			func(field string, ws ...scorer.StepWindow) {
				c, err := scorer.NewStepCurve(ws...)
				expectConfigError(err, field)
				Expect(c.Type()).To(BeEmpty())
			},
			Entry("empty", "windows"),
			Entry("a zero maxAge (zero-width window)", "windows[1].maxAge", scorer.StepWindow{MaxAge: h, Score: 1}, scorer.StepWindow{MaxAge: 0, Score: 1}),
			Entry("a negative maxAge", "windows[0].maxAge", scorer.StepWindow{MaxAge: -h, Score: 1}),
			Entry("unsorted windows", "windows[1].maxAge", scorer.StepWindow{MaxAge: 2 * h, Score: 1}, scorer.StepWindow{MaxAge: h, Score: 0.5}),
			Entry("equal maxAges", "windows[1].maxAge", scorer.StepWindow{MaxAge: h, Score: 1}, scorer.StepWindow{MaxAge: h, Score: 0.5}),
			Entry("a score above 1", "windows[0].score", scorer.StepWindow{MaxAge: h, Score: 1.5}),
			Entry("a negative score", "windows[0].score", scorer.StepWindow{MaxAge: h, Score: -0.5}),
			Entry("a NaN score", "windows[0].score", scorer.StepWindow{MaxAge: h, Score: math.NaN()}),
			Entry("an infinite score", "windows[0].score", scorer.StepWindow{MaxAge: h, Score: math.Inf(1)}),
		)
		It("names the unsorted neighbour in the message", func() {
			_, err := scorer.NewStepCurve(scorer.StepWindow{MaxAge: 2 * h, Score: 1}, scorer.StepWindow{MaxAge: h, Score: 0.5})
			Expect(strings.Contains(err.Error(), "2h0m0s")).To(BeTrue(), err.Error())
		})
		It("accepts a single window and scores 0 and 1", func() {
			c := mustCurve(scorer.NewStepCurve(scorer.StepWindow{MaxAge: time.Nanosecond, Score: 0}))
			expectScores(mustDecay(c), []*cupel.ContextItem{aged(0), aged(h)}, 0, 0)
		})
	})
})
