package cupel_test

import (
	"context"
	"errors"
	"iter"
	"math"
	"math/rand/v2"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

// The dispatch spies: custom components implementing the optional
// interfaces of interfaces.go, which record the methods the pipeline calls.
// Every slicer method selects every item of its input, so that whatever
// path is taken the selection is the same and only the path differs; bad
// returns positions to give back instead.

type dispatchLog struct{ calls []string }

func (l *dispatchLog) record(m string) { l.calls = append(l.calls, m) }

// spySlicer is a plain Slicer.
type spySlicer struct{ log *dispatchLog }

func (s spySlicer) Slice(sorted []cupel.ScoredItem, _ cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	s.log.record("Slice")
	out := make([]*cupel.ContextItem, len(sorted))
	for i, si := range sorted {
		out[i] = si.Item
	}
	return out, nil
}

func allPositions(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = n - 1 - i // any order will do
	}
	return out
}

// spyItemsContext is a ContextSlicer.
type spyItemsContext struct{ spySlicer }

func (s spyItemsContext) SliceContext(ctx context.Context, sorted []cupel.ScoredItem, b cupel.ContextBudget) (cupel.SliceResult, error) {
	s.log.record("SliceContext")
	Expect(ctx).NotTo(BeNil())
	sel, _ := s.spySlicer.Slice(sorted, b)
	s.log.calls = s.log.calls[:len(s.log.calls)-1]
	return cupel.SliceResult{Selected: sel}, nil
}

// spyPositions is a PositionSlicer and a ContextSlicer.
type spyPositions struct {
	spyItemsContext
	bad []int // returned by every positional method when not nil
}

func (s spyPositions) SlicePositions(sorted []cupel.ScoredItem, _ cupel.ContextBudget) ([]int, error) {
	s.log.record("SlicePositions")
	if s.bad != nil {
		return s.bad, nil
	}
	return allPositions(len(sorted)), nil
}

// spyContextPositions is a ContextPositionSlicer (and a ContextSlicer).
type spyContextPositions struct{ spyPositions }

func (s spyContextPositions) SlicePositionsContext(ctx context.Context, sorted []cupel.ScoredItem, _ cupel.ContextBudget) ([]int, error) {
	s.log.record("SlicePositionsContext")
	Expect(ctx).NotTo(BeNil())
	if s.bad != nil {
		return s.bad, nil
	}
	return allPositions(len(sorted)), nil
}

// spyUnsorted is an UnsortedSlicer and a ContextPositionSlicer.
type spyUnsorted struct{ spyContextPositions }

func (s spyUnsorted) SliceUnsorted(items []cupel.ScoredItem, _ cupel.ContextBudget, dst []int) ([]int, error) {
	s.log.record("SliceUnsorted")
	if s.bad != nil {
		return append(dst[:0], s.bad...), nil
	}
	return append(dst[:0], allPositions(len(items))...), nil
}

// spyDetailed implements every optional slicer interface.
type spyDetailed struct {
	spyUnsorted
	foreign *cupel.ContextItem // returned in Selected when not nil
}

func (s spyDetailed) SliceDetailed(sorted []cupel.ScoredItem, b cupel.ContextBudget) (cupel.SliceResult, error) {
	s.log.record("SliceDetailed")
	sel, _ := s.spySlicer.Slice(sorted, b)
	s.log.calls = s.log.calls[:len(s.log.calls)-1]
	if s.foreign != nil {
		sel = append(sel[:0], s.foreign)
	}
	return cupel.SliceResult{Selected: sel, Shortfalls: []cupel.CountRequirementShortfall{{Kind: "Spy", RequiredCount: 1}}}, nil
}

func (s spyDetailed) SliceContext(ctx context.Context, sorted []cupel.ScoredItem, b cupel.ContextBudget) (cupel.SliceResult, error) {
	Expect(ctx).NotTo(BeNil())
	res, err := s.SliceDetailed(sorted, b)
	s.log.calls[len(s.log.calls)-1] = "SliceContext"
	return res, err
}

// spyWholeSet is a WholeSetSlicer whose NeedsWholeSet returns needs.
type spyWholeSet struct {
	spySlicer
	needs bool
}

func (s spyWholeSet) NeedsWholeSet() bool {
	s.log.record("NeedsWholeSet")
	return s.needs
}

// spyScorer is a Scorer; spyBatchScorer a BatchScorer.
type spyScorer struct{ log *dispatchLog }

func (s spyScorer) Score(it *cupel.ContextItem, _ []*cupel.ContextItem) float64 {
	s.log.record("Score")
	return float64(len(it.Content()))
}

type spyBatchScorer struct{ spyScorer }

func (s spyBatchScorer) ScoreAll(items []*cupel.ContextItem, out []float64) {
	s.log.record("ScoreAll")
	for i, it := range items {
		out[i] = float64(len(it.Content()))
	}
}

// spyPlacer is a Placer; spyPositionPlacer a PositionPlacer.
type spyPlacer struct{ log *dispatchLog }

func (p spyPlacer) Place(items []cupel.ScoredItem) []*cupel.ContextItem {
	p.log.record("Place")
	out := make([]*cupel.ContextItem, len(items))
	for i, si := range items {
		out[len(items)-1-i] = si.Item
	}
	return out
}

type spyPositionPlacer struct{ spyPlacer }

func (p spyPositionPlacer) PlacePositions(items []cupel.ScoredItem) []int {
	p.log.record("PlacePositions")
	out := make([]int, len(items))
	for i := range out {
		out[i] = len(items) - 1 - i
	}
	return out
}

// spyRankedPlacer is a RankedPlacer and a PositionPlacer; bad, when not
// nil, is what PlaceRanked returns.
type spyRankedPlacer struct {
	spyPositionPlacer
	bad []int
}

func (p spyRankedPlacer) PlaceRanked(out []int) []int {
	p.log.record("PlaceRanked")
	if p.bad != nil {
		return p.bad
	}
	for i := range out {
		out[i] = len(out) - 1 - i
	}
	return out
}

// The built-ins take their paths through the exported interfaces only.
var (
	_ cupel.UnsortedSlicer        = (*slicer.Greedy)(nil)
	_ cupel.ContextPositionSlicer = (*slicer.Knapsack)(nil)
	_ cupel.ContextSlicer         = (*slicer.Quota)(nil)
	_ cupel.DetailedSlicer        = (*slicer.CountQuota)(nil)
	_ cupel.RankedPlacer          = (*placer.UShaped)(nil)
)

var _ = Describe("the dispatch (one path per stage, by the optional interfaces)", func() {
	var (
		log   *dispatchLog
		items []*cupel.ContextItem
	)
	BeforeEach(func() {
		log = &dispatchLog{}
		items = []*cupel.ContextItem{item("aaa", 10), item("b", 10), item("cc", 10), pinnedItem("pin", 5)}
	})
	// run runs a pipeline of scorer, slicer and placer, traced or not, under
	// a context that can be cancelled or not, and returns the result with
	// the methods called.
	run := func(sc cupel.Scorer, sl cupel.Slicer, pl cupel.Placer, traced, cancellable bool) (cupel.Result, []string, error) {
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: sc, Slicer: sl, Placer: pl})
		Expect(err).NotTo(HaveOccurred())
		ctx := context.Background()
		if cancellable {
			c, cancel := context.WithCancel(ctx)
			defer cancel()
			ctx = c
		}
		var opts []cupel.RunOption
		var rep cupel.SelectionReport
		if traced {
			opts = append(opts, cupel.WithReport(&rep))
		}
		res, err := p.RunContext(ctx, items, budget(1000, 1000), opts...)
		return res, log.calls, err
	}

	It("scores through ScoreAll once when the scorer is a BatchScorer, else through Score per item", func() {
		_, calls, err := run(spyBatchScorer{spyScorer{log}}, slicer.NewGreedy(), placer.NewUShaped(), false, false)
		Expect(err).NotTo(HaveOccurred())
		Expect(calls).To(Equal([]string{"ScoreAll"}))
		log.calls = nil
		_, calls, err = run(spyScorer{log}, slicer.NewGreedy(), placer.NewUShaped(), false, false)
		Expect(err).NotTo(HaveOccurred())
		Expect(calls).To(Equal([]string{"Score", "Score", "Score"}))
	})

	It("places through PlacePositions when the placer is a PositionPlacer, else through Place, with the same result", func() {
		want, calls, err := run(tableScorer{}, slicer.NewGreedy(), spyPositionPlacer{spyPlacer{log}}, false, false)
		Expect(err).NotTo(HaveOccurred())
		Expect(calls).To(Equal([]string{"PlacePositions"}))
		log.calls = nil
		got, calls, err := run(tableScorer{}, slicer.NewGreedy(), spyPlacer{log}, false, false)
		Expect(err).NotTo(HaveOccurred())
		Expect(calls).To(Equal([]string{"Place"}))
		Expect(got.Items).To(Equal(want.Items))
		Expect(got.Scores).To(Equal(want.Scores))
	})

	It("places through PlaceRanked when the Place stage's input is in rank order (a batch run without pinned items), else through PlacePositions", func() {
		noPins := items[:3]
		for _, traced := range []bool{false, true} {
			log.calls = nil
			p, err := cupel.NewPipeline(cupel.Policy{Scorer: tableScorer{"aaa": 0.9, "b": 0.5, "cc": 0.1}, Slicer: slicer.NewGreedy(), Placer: spyRankedPlacer{spyPositionPlacer: spyPositionPlacer{spyPlacer{log}}}})
			Expect(err).NotTo(HaveOccurred())
			var opts []cupel.RunOption
			if traced {
				opts = append(opts, cupel.WithReport(&cupel.SelectionReport{}))
			}
			res, err := p.Run(noPins, budget(1000, 1000), opts...)
			Expect(err).NotTo(HaveOccurred())
			Expect(contents(res.Items)).To(Equal([]string{"cc", "b", "aaa"}))
			Expect(res.Scores).To(Equal([]float64{0.1, 0.5, 0.9}))
			_, err = p.Run(items, budget(1000, 1000), opts...) // with a pinned item
			Expect(err).NotTo(HaveOccurred())
			_, err = p.RunStream(func(yield func(*cupel.ContextItem) bool) {
				for _, it := range noPins {
					if !yield(it) {
						return
					}
				}
			}, budget(1000, 1000))
			Expect(err).NotTo(HaveOccurred())
			Expect(log.calls).To(Equal([]string{"PlaceRanked", "PlacePositions", "PlacePositions"}), "traced %v", traced)
		}
	})

	DescribeTable("rejects a PlaceRanked result that is not a permutation with a *ValidationError naming the placer",
		func(bad []int, why string) {
			p, err := cupel.NewPipeline(cupel.Policy{Scorer: tableScorer{}, Slicer: slicer.NewGreedy(), Placer: spyRankedPlacer{spyPositionPlacer{spyPlacer{log}}, bad}})
			Expect(err).NotTo(HaveOccurred())
			_, err = p.Run(items[:3], budget(1000, 1000))
			var ve *cupel.ValidationError
			Expect(errors.As(err, &ve)).To(BeTrue(), "%v", err)
			Expect(ve.Field).To(Equal("Placer"))
			Expect(err.Error()).To(ContainSubstring("cupel_test.spyRankedPlacer"))
			Expect(err.Error()).To(ContainSubstring(why))
		},
		Entry("too short", []int{0, 1}, "PlaceRanked returned 2 positions for 3 items"),
		Entry("out of range", []int{0, 1, 3}, "PlaceRanked returned position 3, outside [0, 3)"),
		Entry("repeated", []int{2, 0, 2}, "PlaceRanked returned position 2 twice"),
	)

	It("UShapedPlacer.PlaceRanked is Place on any input in rank order (ties, NaN, -0.0)", func() {
		r := rand.New(rand.NewPCG(35, 33))
		u := placer.NewUShaped()
		values := []float64{0, math.Copysign(0, -1), 0.5, 1, math.NaN(), -1, math.Inf(1)}
		for trial := range 300 {
			n := trial % 40
			in := make([]cupel.ScoredItem, n)
			for i := range in {
				in[i] = cupel.ScoredItem{Item: item("x", 1), Score: values[r.IntN(len(values))]}
			}
			slices.SortStableFunc(in, func(a, b cupel.ScoredItem) int { return fzCmpDesc(a.Score, b.Score) })
			want := u.Place(in)
			pos := u.PlaceRanked(make([]int, n))
			Expect(pos).To(HaveLen(n))
			for i, p := range pos {
				Expect(in[p].Item).To(BeIdenticalTo(want[i]), "trial %d, n %d, position %d", trial, n, i)
			}
		}
	})

	// Each row: a slicer, whether the run is traced and can be cancelled,
	// and the one method the Slice stage must call (the table of doc.go).
	DescribeTable("slices through the richest method the slicer has, in its context form when the run can be cancelled",
		func(mk func(*dispatchLog) cupel.Slicer, traced, cancellable bool, want string) {
			res, calls, err := run(tableScorer{"aaa": 0.9, "b": 0.5, "cc": 0.1}, mk(log), placer.NewChronological(), traced, cancellable)
			Expect(err).NotTo(HaveOccurred())
			Expect(calls).To(Equal([]string{want}))
			Expect(contents(res.Items)).To(ConsistOf("pin", "aaa", "b", "cc"))
			if _, ok := mk(log).(cupel.DetailedSlicer); ok {
				// The details reach the result (ruling 8) through either method.
				Expect(res.Shortfalls).To(HaveLen(1))
			}
		},
		Entry("Slicer", func(l *dispatchLog) cupel.Slicer { return spySlicer{l} }, false, false, "Slice"),
		Entry("Slicer, cancellable", func(l *dispatchLog) cupel.Slicer { return spySlicer{l} }, false, true, "Slice"),
		Entry("ContextSlicer", func(l *dispatchLog) cupel.Slicer { return spyItemsContext{spySlicer{l}} }, false, false, "Slice"),
		Entry("ContextSlicer, cancellable", func(l *dispatchLog) cupel.Slicer { return spyItemsContext{spySlicer{l}} }, true, true, "SliceContext"),
		Entry("PositionSlicer", func(l *dispatchLog) cupel.Slicer { return spyPositions{spyItemsContext: spyItemsContext{spySlicer{l}}} }, true, false, "SlicePositions"),
		Entry("PositionSlicer and ContextSlicer, cancellable", func(l *dispatchLog) cupel.Slicer {
			return spyPositions{spyItemsContext: spyItemsContext{spySlicer{l}}}
		}, true, true, "SlicePositions"),
		Entry("ContextPositionSlicer", func(l *dispatchLog) cupel.Slicer {
			return spyContextPositions{spyPositions{spyItemsContext: spyItemsContext{spySlicer{l}}}}
		}, false, false, "SlicePositions"),
		Entry("ContextPositionSlicer, cancellable", func(l *dispatchLog) cupel.Slicer {
			return spyContextPositions{spyPositions{spyItemsContext: spyItemsContext{spySlicer{l}}}}
		}, false, true, "SlicePositionsContext"),
		Entry("UnsortedSlicer, untraced", func(l *dispatchLog) cupel.Slicer {
			return spyUnsorted{spyContextPositions{spyPositions{spyItemsContext: spyItemsContext{spySlicer{l}}}}}
		}, false, false, "SliceUnsorted"),
		Entry("UnsortedSlicer, untraced, cancellable", func(l *dispatchLog) cupel.Slicer {
			return spyUnsorted{spyContextPositions{spyPositions{spyItemsContext: spyItemsContext{spySlicer{l}}}}}
		}, false, true, "SliceUnsorted"),
		// A report's collector is a SliceExclusionRecorder: it orders the
		// Slice stage's exclusions itself, so the run needs no Sort stage.
		Entry("UnsortedSlicer, traced into a SliceExclusionRecorder", func(l *dispatchLog) cupel.Slicer {
			return spyUnsorted{spyContextPositions{spyPositions{spyItemsContext: spyItemsContext{spySlicer{l}}}}}
		}, true, false, "SliceUnsorted"),
		Entry("UnsortedSlicer, traced into a SliceExclusionRecorder, cancellable", func(l *dispatchLog) cupel.Slicer {
			return spyUnsorted{spyContextPositions{spyPositions{spyItemsContext: spyItemsContext{spySlicer{l}}}}}
		}, true, true, "SliceUnsorted"),
		Entry("DetailedSlicer (and every other)", func(l *dispatchLog) cupel.Slicer {
			return spyDetailed{spyUnsorted: spyUnsorted{spyContextPositions{spyPositions{spyItemsContext: spyItemsContext{spySlicer{l}}}}}}
		}, false, false, "SliceDetailed"),
		Entry("DetailedSlicer (and every other), cancellable", func(l *dispatchLog) cupel.Slicer {
			return spyDetailed{spyUnsorted: spyUnsorted{spyContextPositions{spyPositions{spyItemsContext: spyItemsContext{spySlicer{l}}}}}}
		}, true, true, "SliceContext"),
	)

	It("slices through SlicePositions, not SliceUnsorted, when a collector of the run is not a SliceExclusionRecorder", func() {
		sl := spyUnsorted{spyContextPositions{spyPositions{spyItemsContext: spyItemsContext{spySlicer{log}}}}}
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: tableScorer{"aaa": 0.9, "b": 0.5, "cc": 0.1}, Slicer: sl, Placer: placer.NewChronological()})
		Expect(err).NotTo(HaveOccurred())
		var events int
		res, err := p.Run(items, budget(1000, 1000), cupel.WithTrace(plainCollector{&events}))
		Expect(err).NotTo(HaveOccurred())
		Expect(log.calls).To(Equal([]string{"SlicePositions"}))
		Expect(contents(res.Items)).To(ConsistOf("pin", "aaa", "b", "cc"))
		Expect(events).To(BeNumerically(">", 0))
	})

	It("hands SliceUnsorted the deduplicated items in input order and passes the selection to the placer in the Sort stage's order", func() {
		sl := spyUnsorted{spyContextPositions{spyPositions{spyItemsContext: spyItemsContext{spySlicer{log}}}}}
		placer := &keepOrderPlacer{}
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: tableScorer{"aaa": 0.1, "b": 0.9, "cc": 0.5}, Slicer: sl, Placer: placer})
		Expect(err).NotTo(HaveOccurred())
		res, err := p.Run(items, budget(1000, 1000))
		Expect(err).NotTo(HaveOccurred())
		Expect(log.calls).To(Equal([]string{"SliceUnsorted"}))
		got := make([]string, len(placer.got))
		for i, si := range placer.got {
			got[i] = si.Item.Content()
		}
		Expect(got).To(Equal([]string{"pin", "b", "cc", "aaa"}))
		Expect(res.Scores).To(Equal([]float64{1, 0.9, 0.5, 0.1}))
	})

	It("slices a streamed run's batches through the same rule", func() {
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: tableScorer{}, Slicer: spyPositions{spyItemsContext: spyItemsContext{spySlicer{log}}}, Placer: placer.NewChronological()})
		Expect(err).NotTo(HaveOccurred())
		seq := iter.Seq[*cupel.ContextItem](func(yield func(*cupel.ContextItem) bool) {
			for _, it := range items {
				if !yield(it) {
					return
				}
			}
		})
		res, err := p.RunStream(seq, budget(1000, 1000), cupel.WithBatchSize(2))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Items).To(HaveLen(4))
		Expect(log.calls).To(Equal([]string{"SlicePositions", "SlicePositions"}))
	})

	It("calls a decorator's inner slicer through Slice, or SliceContext in a run that can be cancelled, never a positional method", func() {
		inner := spyDetailed{spyUnsorted: spyUnsorted{spyContextPositions{spyPositions{spyItemsContext: spyItemsContext{spySlicer{log}}}}}}
		qs, err := slicer.NewQuota(ctxMust(slicer.NewQuotaSet(slicer.Require(cupel.KindMessage, 10))), inner)
		Expect(err).NotTo(HaveOccurred())
		res, calls, err := run(tableScorer{}, qs, placer.NewChronological(), false, false)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Items).To(HaveLen(4))
		Expect(calls).To(Equal([]string{"Slice"}))
		log.calls = nil
		_, calls, err = run(tableScorer{}, qs, placer.NewChronological(), true, true)
		Expect(err).NotTo(HaveOccurred())
		Expect(calls).To(Equal([]string{"SliceContext"}))
	})

	It("SliceWithContext takes the details and the items, in their context form when the context can be done", func() {
		sorted := []cupel.ScoredItem{{Item: items[0], Score: 1}, {Item: items[1], Score: 0.5}}
		s := spyDetailed{spyUnsorted: spyUnsorted{spyContextPositions{spyPositions{spyItemsContext: spyItemsContext{spySlicer{log}}}}}}
		res, err := cupel.SliceWithContext(context.Background(), s, sorted, budget(100, 100))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Shortfalls).To(HaveLen(1))
		Expect(res.Selected).To(HaveLen(2))
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		_, err = cupel.SliceWithContext(ctx, s, sorted, budget(100, 100))
		Expect(err).NotTo(HaveOccurred())
		p := spyPositions{spyItemsContext: spyItemsContext{spySlicer{log}}}
		_, err = cupel.SliceWithContext(context.Background(), p, sorted, budget(100, 100))
		Expect(err).NotTo(HaveOccurred())
		Expect(log.calls).To(Equal([]string{"SliceDetailed", "SliceContext", "Slice"}))
	})

	DescribeTable("rejects bad positions from every positional method with a *ValidationError naming the slicer and the method, never a panic",
		func(mk func(*dispatchLog, []int) cupel.Slicer, traced, cancellable bool, bad []int, why string) {
			_, _, err := run(tableScorer{}, mk(log, bad), placer.NewChronological(), traced, cancellable)
			Expect(err).To(MatchError(cupel.ErrInvalidConfig))
			var ve *cupel.ValidationError
			Expect(errors.As(err, &ve)).To(BeTrue())
			Expect(ve.Field).To(Equal("Slicer"))
			Expect(err.Error()).To(ContainSubstring("cupel_test.spy"))
			Expect(err.Error()).To(ContainSubstring(why))
		},
		Entry("SliceUnsorted, out of range", func(l *dispatchLog, bad []int) cupel.Slicer {
			return spyUnsorted{spyContextPositions{spyPositions{spyItemsContext{spySlicer{l}}, bad}}}
		}, false, false, []int{0, 3}, "SliceUnsorted returned position 3, outside [0, 3)"),
		Entry("SliceUnsorted, repeated", func(l *dispatchLog, bad []int) cupel.Slicer {
			return spyUnsorted{spyContextPositions{spyPositions{spyItemsContext{spySlicer{l}}, bad}}}
		}, false, false, []int{2, 2}, "SliceUnsorted returned position 2 twice"),
		Entry("SliceUnsorted, negative", func(l *dispatchLog, bad []int) cupel.Slicer {
			return spyUnsorted{spyContextPositions{spyPositions{spyItemsContext{spySlicer{l}}, bad}}}
		}, false, true, []int{-1}, "SliceUnsorted returned position -1, outside [0, 3)"),
		Entry("SlicePositionsContext, out of range", func(l *dispatchLog, bad []int) cupel.Slicer {
			return spyContextPositions{spyPositions{spyItemsContext{spySlicer{l}}, bad}}
		}, true, true, []int{7}, "SlicePositionsContext returned position 7, outside [0, 3)"),
		Entry("SlicePositionsContext, repeated", func(l *dispatchLog, bad []int) cupel.Slicer {
			return spyContextPositions{spyPositions{spyItemsContext{spySlicer{l}}, bad}}
		}, false, true, []int{0, 1, 0}, "SlicePositionsContext returned position 0 twice"),
		Entry("SlicePositions, out of range", func(l *dispatchLog, bad []int) cupel.Slicer {
			return spyPositions{spyItemsContext{spySlicer{l}}, bad}
		}, false, true, []int{3}, "SlicePositions returned position 3, outside [0, 3)"),
	)

	It("refuses in RunStream a slicer that needs the whole candidate set, with the error it gives the quota slicers, before pulling a candidate", func() {
		stream := func(sl cupel.Slicer) (int, error) {
			p, err := cupel.NewPipeline(cupel.Policy{Scorer: tableScorer{}, Slicer: sl, Placer: placer.NewChronological()})
			Expect(err).NotTo(HaveOccurred())
			pulled := 0
			seq := func(yield func(*cupel.ContextItem) bool) {
				for _, it := range items {
					pulled++
					if !yield(it) {
						return
					}
				}
			}
			_, err = p.RunStream(seq, slTarget(100))
			return pulled, err
		}
		pulled, err := stream(spyWholeSet{spySlicer{log}, true})
		Expect(pulled).To(BeZero())
		Expect(log.calls).To(Equal([]string{"NeedsWholeSet"}))
		var custom *cupel.ValidationError
		Expect(errors.As(err, &custom)).To(BeTrue(), "%v", err)
		Expect(errors.Is(err, cupel.ErrInvalidConfig)).To(BeTrue())
		Expect(custom.Value).To(Equal("cupel_test.spyWholeSet"))

		q, err := slicer.NewQuota(slicer.QuotaSet{}, slicer.NewGreedy())
		Expect(err).NotTo(HaveOccurred())
		_, err = stream(q)
		var builtin *cupel.ValidationError
		Expect(errors.As(err, &builtin)).To(BeTrue(), "%v", err)
		Expect(builtin.Value).To(Equal("*slicer.Quota"))
		Expect([]string{custom.Type, custom.Field, custom.Reason}).To(Equal([]string{builtin.Type, builtin.Field, builtin.Reason}))

		log.calls = nil
		pulled, err = stream(spyWholeSet{spySlicer{log}, false})
		Expect(err).NotTo(HaveOccurred())
		Expect(pulled).To(Equal(len(items)))
		Expect(log.calls).To(Equal([]string{"NeedsWholeSet", "Slice"}))
	})

	It("rejects an item SliceDetailed or SliceContext returns that was not in the input, with a *ValidationError", func() {
		for _, cancellable := range []bool{false, true} {
			s := spyDetailed{spyUnsorted: spyUnsorted{spyContextPositions{spyPositions{spyItemsContext: spyItemsContext{spySlicer{log}}}}}, foreign: item("stranger", 1)}
			_, _, err := run(tableScorer{}, s, placer.NewChronological(), false, cancellable)
			var ve *cupel.ValidationError
			Expect(errors.As(err, &ve)).To(BeTrue(), "cancellable %v: %v", cancellable, err)
			Expect(err.Error()).To(ContainSubstring("returned an item that was not in its input"))
		}
	})
})

// plainCollector is a TraceCollector with none of the optional interfaces:
// it counts the events it is given.
type plainCollector struct{ n *int }

func (plainCollector) Enabled() bool                       { return true }
func (c plainCollector) RecordStageEvent(cupel.TraceEvent) { *c.n++ }
func (c plainCollector) RecordItemEvent(cupel.TraceEvent)  { *c.n++ }
