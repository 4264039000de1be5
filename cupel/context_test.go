package cupel_test

import (
	"context"
	"errors"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

// cancelOnScore is a scorer that cancels a context the first time it is
// called, so that a run is cancelled, deterministically, during the Score
// stage.
type cancelOnScore struct {
	cancel context.CancelFunc
	inner  cupel.Scorer
}

func (s cancelOnScore) Score(it *cupel.ContextItem, all []*cupel.ContextItem) float64 {
	s.cancel()
	return s.inner.Score(it, all)
}

// ctxSpySlicer is a custom ContextSlicer recording the context it gets.
type ctxSpySlicer struct {
	got       context.Context
	viaPlain  bool
	cancelNow context.CancelFunc // when set, called from within the slice
}

func (s *ctxSpySlicer) Slice(sorted []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	s.viaPlain = true
	return slicer.NewGreedy().Slice(sorted, b)
}

func (s *ctxSpySlicer) SliceContext(ctx context.Context, sorted []cupel.ScoredItem, b cupel.ContextBudget) (cupel.SliceResult, error) {
	s.got = ctx
	if s.cancelNow != nil {
		s.cancelNow()
	}
	if err := ctx.Err(); err != nil {
		return cupel.SliceResult{}, err
	}
	sel, err := slicer.NewGreedy().Slice(sorted, b)
	return cupel.SliceResult{Selected: sel}, err
}

// plainCancellingSlicer is a Slicer without SliceContext that cancels the
// run's context while it works.
type plainCancellingSlicer struct{ cancel context.CancelFunc }

func (s plainCancellingSlicer) Slice(sorted []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	s.cancel()
	return slicer.NewGreedy().Slice(sorted, b)
}

// snapshot records everything the caller passed: the slice and each item's
// fields, to prove a stopped run changed nothing.
func ctxSnapshot(items []*cupel.ContextItem) ([]*cupel.ContextItem, []cupel.ItemSpec) {
	specs := make([]cupel.ItemSpec, len(items))
	for i, it := range items {
		specs[i] = it.Spec()
	}
	return append([]*cupel.ContextItem(nil), items...), specs
}

func ctxCanceledStage(err error) cupel.PipelineStage {
	var ce *cupel.CanceledError
	Expect(errors.As(err, &ce)).To(BeTrue(), "error %v is not a *CanceledError", err)
	return ce.Stage
}

var _ = Describe("RunContext", func() {
	var (
		items  []*cupel.ContextItem
		budget cupel.ContextBudget
		ks     *slicer.Knapsack
	)
	BeforeEach(func() {
		items = benchItems(2000)
		budget = slBudget(32000, 30000)
		var err error
		ks, err = slicer.NewKnapsack(100)
		Expect(err).NotTo(HaveOccurred())
	})
	pipeline := func(s cupel.Scorer, sl cupel.Slicer) *cupel.Pipeline {
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: s, Slicer: sl, Placer: placer.NewChronological()})
		Expect(err).NotTo(HaveOccurred())
		return p
	}

	It("gives Run's result and DryRun's report under a live context", func() {
		quota, err := slicer.NewCountQuota([]slicer.CountQuotaEntry{
			ctxMust(slicer.NewCountQuotaEntry(cupel.KindDocument, 5, 20)),
			ctxMust(slicer.NewCountQuotaEntry(cupel.KindToolOutput, 0, 3)),
		}, slicer.NewGreedy(), slicer.ScarcityDegrade)
		Expect(err).NotTo(HaveOccurred())
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		for _, sl := range []cupel.Slicer{slicer.NewGreedy(), ks, quota, &ctxSpySlicer{}} {
			p := pipeline(scorer.NewPriority(), sl)
			want, wantRep, err := dryRun(p, items, budget)
			Expect(err).NotTo(HaveOccurred())
			got, gotRep, err := dryRunContext(ctx, p, items, budget)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want))
			Expect(gotRep.Included).To(Equal(wantRep.Included))
			Expect(gotRep.Excluded).To(Equal(wantRep.Excluded))
			Expect(gotRep.CountRequirementShortfalls).To(Equal(wantRep.CountRequirementShortfalls))

			plain, err := p.RunContext(context.Background(), items, budget)
			Expect(err).NotTo(HaveOccurred())
			Expect(plain).To(Equal(want))
		}
	})

	It("stops before Classify when the context is already done", func() {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		col := cupel.NewDiagnosticTraceCollector(cupel.DetailItem, nil)
		res, err := pipeline(scorer.NewPriority(), ks).RunContext(ctx, items, budget, cupel.WithTrace(col))
		Expect(errors.Is(err, context.Canceled)).To(BeTrue())
		Expect(ctxCanceledStage(err)).To(Equal(cupel.StageClassify))
		Expect(res).To(Equal(cupel.Result{}))
		Expect(col.Events()).To(BeEmpty())
		Expect(err.Error()).To(Equal("cupel: run stopped at the Classify stage: context canceled"))
	})

	It("notices a cancellation during scoring at the next checkpoint and changes nothing passed in", func() {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		before, specs := ctxSnapshot(items)
		col := cupel.NewDiagnosticTraceCollector(cupel.DetailItem, nil)
		called := false
		_, err := pipeline(cancelOnScore{cancel, scorer.NewPriority()}, ks).RunContext(ctx, items, budget, cupel.WithTrace(col), cupel.WithOnOverflow(func(cupel.OverflowEvent) { called = true }))
		Expect(errors.Is(err, context.Canceled)).To(BeTrue())
		Expect(ctxCanceledStage(err)).To(Equal(cupel.StageDeduplicate))
		Expect(items).To(Equal(before))
		after, afterSpecs := ctxSnapshot(items)
		Expect(after).To(Equal(before))
		Expect(afterSpecs).To(Equal(specs))
		Expect(called).To(BeFalse())
		var stages []cupel.PipelineStage
		for _, e := range col.Events() {
			if e.Item == nil {
				stages = append(stages, e.Stage)
			}
		}
		Expect(stages).To(Equal([]cupel.PipelineStage{cupel.StageClassify, cupel.StageScore}))
	})

	It("reports a deadline as DeadlineExceeded, and a cause when one is set", func() {
		ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
		defer cancel()
		p := pipeline(scorer.NewPriority(), slicer.NewGreedy())
		_, err := p.RunContext(ctx, items, budget)
		Expect(errors.Is(err, context.DeadlineExceeded)).To(BeTrue())
		Expect(errors.Is(err, context.Canceled)).To(BeFalse())

		why := errors.New("user left")
		cctx, ccancel := context.WithCancelCause(context.Background())
		ccancel(why)
		_, _, err = dryRunContext(cctx, p, items, budget)
		Expect(errors.Is(err, context.Canceled)).To(BeTrue())
		Expect(errors.Is(err, why)).To(BeTrue())
		Expect(err.Error()).To(ContainSubstring("(cause: user left)"))
	})

	It("hands a custom ContextSlicer the run's context", func() {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		spy := &ctxSpySlicer{cancelNow: cancel}
		_, err := pipeline(scorer.NewPriority(), spy).RunContext(ctx, items, budget)
		Expect(spy.got).To(BeIdenticalTo(ctx))
		Expect(spy.viaPlain).To(BeFalse())
		Expect(errors.Is(err, context.Canceled)).To(BeTrue())
	})

	It("checks the context after a slicer without SliceContext returns", func() {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		_, err := pipeline(scorer.NewPriority(), plainCancellingSlicer{cancel}).RunContext(ctx, items, budget)
		Expect(errors.Is(err, context.Canceled)).To(BeTrue())
		Expect(ctxCanceledStage(err)).To(Equal(cupel.StageSlice))
	})

	Describe("the built-in slicers' SliceContext", func() {
		var sorted []cupel.ScoredItem
		BeforeEach(func() {
			sorted = make([]cupel.ScoredItem, len(items))
			for i, it := range items {
				sorted[i] = cupel.ScoredItem{Item: it, Score: float64(len(items)-i) / float64(len(items))}
			}
		})
		done := func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}
		countEntries := func() []slicer.CountQuotaEntry {
			return []slicer.CountQuotaEntry{ctxMust(slicer.NewCountQuotaEntry(cupel.KindDocument, 2, 50))}
		}

		It("select what Slice selects under a live context", func() {
			cq := ctxMust(slicer.NewCountQuota(countEntries(), slicer.NewGreedy(), slicer.ScarcityDegrade))
			cck := ctxMust(slicer.NewCountConstrainedKnapsack(countEntries(), ks, slicer.ScarcityDegrade))
			qs := ctxMust(slicer.NewQuota(ctxMust(slicer.NewQuotaSet(slicer.Require(cupel.KindDocument, 20))), ks))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			for _, s := range []cupel.ContextSlicer{slicer.NewGreedy(), ks, cq, cck, qs} {
				want, err := s.Slice(sorted, budget)
				Expect(err).NotTo(HaveOccurred())
				got, err := s.SliceContext(ctx, sorted, budget)
				Expect(err).NotTo(HaveOccurred())
				Expect(got.Selected).To(Equal(want), "%T", s)
			}
		})

		It("stop a knapsack inside its table, directly and as the Phase 2 or inner slicer", func() {
			// The knapsack polls only inside the DP loop: an error proves the
			// check there (the table here has 2000 x 300 cells).
			_, err := ks.SliceContext(done(), sorted, budget)
			Expect(errors.Is(err, context.Canceled)).To(BeTrue())
			Expect(ctxCanceledStage(err)).To(Equal(cupel.StageSlice))

			cck := ctxMust(slicer.NewCountConstrainedKnapsack(countEntries(), ks, slicer.ScarcityDegrade))
			_, err = cck.SliceContext(done(), sorted, budget)
			Expect(errors.Is(err, context.Canceled)).To(BeTrue())

			qs := ctxMust(slicer.NewQuota(ctxMust(slicer.NewQuotaSet(slicer.Require(cupel.KindDocument, 20))), ks))
			_, err = qs.SliceContext(done(), sorted, budget)
			Expect(errors.Is(err, context.Canceled)).To(BeTrue())
		})

		It("stop a count-quota slicer between its phases", func() {
			cq := ctxMust(slicer.NewCountQuota(countEntries(), slicer.NewGreedy(), slicer.ScarcityDegrade))
			_, err := cq.SliceContext(done(), sorted, budget)
			Expect(errors.Is(err, context.Canceled)).To(BeTrue())
		})

		It("SliceWithContext passes the context to a custom slicer and keeps a DetailedSlicer's details", func() {
			spy := &ctxSpySlicer{}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			_, err := cupel.SliceWithContext(ctx, spy, sorted, budget)
			Expect(err).NotTo(HaveOccurred())
			Expect(spy.got).To(BeIdenticalTo(ctx))

			cq := ctxMust(slicer.NewCountQuota([]slicer.CountQuotaEntry{ctxMust(slicer.NewCountQuotaEntry("Nope", 1, 1))}, slicer.NewGreedy(), slicer.ScarcityDegrade))
			res, err := cupel.SliceWithContext(context.Background(), cq, sorted, budget)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Shortfalls).To(HaveLen(1))
		})
	})
})

func ctxMust[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
