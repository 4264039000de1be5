package cupel_test

import (
	"context"
	"errors"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

// recCollector records every event and shortfall it is handed.
type recCollector struct {
	stages, items int
	shortfalls    []cupel.CountRequirementShortfall
}

func (c *recCollector) Enabled() bool                     { return true }
func (c *recCollector) RecordStageEvent(cupel.TraceEvent) { c.stages++ }
func (c *recCollector) RecordItemEvent(cupel.TraceEvent)  { c.items++ }
func (c *recCollector) RecordShortfalls(s []cupel.CountRequirementShortfall) {
	c.shortfalls = append(c.shortfalls, s...)
}

var _ = Describe("Run options", func() {
	pipeline := func() *cupel.Pipeline {
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewPriority(), Slicer: slicer.NewGreedy(), Placer: placer.NewChronological()})
		Expect(err).NotTo(HaveOccurred())
		return p
	}

	It("are the same for every run method: a report from Run, RunContext, RunStream and RunStreamContext alike", func() {
		items := stItems(12, 10)
		b := slBudget(100, 60)
		p := pipeline()
		var r1, r2, r3, r4 cupel.SelectionReport
		res1, err := p.Run(items, b, cupel.WithReport(&r1))
		Expect(err).NotTo(HaveOccurred())
		res2, err := p.RunContext(context.Background(), items, b, cupel.WithReport(&r2))
		Expect(err).NotTo(HaveOccurred())
		res3, err := p.RunStream(slices.Values(items), b, cupel.WithReport(&r3), cupel.WithBatchSize(100))
		Expect(err).NotTo(HaveOccurred())
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		res4, err := p.RunStreamContext(ctx, slices.Values(items), b, cupel.WithReport(&r4), cupel.WithBatchSize(100))
		Expect(err).NotTo(HaveOccurred())
		for _, res := range []cupel.Result{res2, res3, res4} {
			Expect(res).To(Equal(res1))
		}
		Expect(r1.Included).To(HaveLen(6))
		Expect(r1.Excluded).To(HaveLen(6))
		for _, r := range []cupel.SelectionReport{r2, r3, r4} {
			Expect(r.Included).To(Equal(r1.Included))
			Expect(r.Excluded).To(Equal(r1.Excluded))
		}
	})

	It("make a batch run fail when they apply to a stream only, naming the option", func() {
		for _, o := range []cupel.RunOption{cupel.WithBatchSize(8), cupel.WithFillTolerance(3), cupel.WithMaxCandidates(5)} {
			_, err := pipeline().Run(stItems(3, 1), slBudget(10, 10), o)
			Expect(errors.Is(err, cupel.ErrInvalidConfig)).To(BeTrue())
			Expect(err.Error()).To(ContainSubstring("RunStream"))
			_, err = pipeline().RunContext(context.Background(), stItems(3, 1), slBudget(10, 10), o)
			Expect(errors.Is(err, cupel.ErrInvalidConfig)).To(BeTrue())
		}
		Expect(slField(func() error {
			_, err := pipeline().Run(stItems(3, 1), slBudget(10, 10), cupel.WithMaxCandidates(5))
			return err
		}())).To(Equal("WithMaxCandidates"))
	})

	It("hand every event to every collector when several are given, a report's included", func() {
		e, err := slicer.NewCountQuotaEntry(cupel.KindDocument, 2, 3)
		Expect(err).NotTo(HaveOccurred())
		cq, err := slicer.NewCountQuota([]slicer.CountQuotaEntry{e}, slicer.NewGreedy(), slicer.ScarcityDegrade)
		Expect(err).NotTo(HaveOccurred())
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewPriority(), Slicer: cq, Placer: placer.NewChronological()})
		Expect(err).NotTo(HaveOccurred())
		items := stItems(6, 10) // Messages: the Document requirement falls short
		a, b := &recCollector{}, &recCollector{}
		var rep cupel.SelectionReport
		_, err = p.Run(items, slBudget(100, 30), cupel.WithTrace(a), cupel.RunOption{}, cupel.WithTrace(b), cupel.WithReport(&rep))
		Expect(err).NotTo(HaveOccurred())
		Expect(a.stages).To(Equal(5))
		Expect(a.items).To(Equal(len(items)))
		Expect(*b).To(Equal(*a))
		Expect(a.shortfalls).To(HaveLen(1))
		Expect(rep.CountRequirementShortfalls).To(Equal(a.shortfalls))
		Expect(len(rep.Included) + len(rep.Excluded)).To(Equal(len(items)))
	})

	It("leave a report destination as it was when the run fails", func() {
		rep := cupel.SelectionReport{TotalCandidates: -7}
		_, err := pipeline().Run(append(stItems(2, 1), nil), slBudget(10, 10), cupel.WithReport(&rep))
		Expect(errors.Is(err, cupel.ErrInvalidItem)).To(BeTrue())
		Expect(rep).To(Equal(cupel.SelectionReport{TotalCandidates: -7}))
	})
})

var _ = Describe("NewStreamSlice options", func() {
	It("takes WithFillTolerance and rejects any other option, naming it", func() {
		s, err := slicer.NewStream(4, cupel.WithFillTolerance(7))
		Expect(err).NotTo(HaveOccurred())
		Expect(s.FillTolerance()).To(Equal(7))
		_, err = slicer.NewStream(4, cupel.WithBatchSize(3))
		Expect(errors.Is(err, cupel.ErrInvalidConfig)).To(BeTrue())
		Expect(err.Error()).To(ContainSubstring("WithBatchSize"))
	})
})
