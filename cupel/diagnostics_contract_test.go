package cupel_test

import (
	"encoding/json"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

// The conformance notes of spec chapters 35 (TraceCollector) and 36
// (Events) that no other test states on its own.
var _ = Describe("the diagnostics contract", func() {
	newPipeline := func(overflow cupel.OverflowStrategy) *cupel.Pipeline {
		p, err := cupel.NewPipeline(cupel.Policy{
			Scorer:   scorer.NewPriority(),
			Slicer:   slicer.NewGreedy(),
			Placer:   placer.NewChronological(),
			Overflow: overflow,
		})
		Expect(err).NotTo(HaveOccurred())
		return p
	}
	budget := func(maxTokens, target int) cupel.ContextBudget {
		b, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: maxTokens, TargetTokens: target})
		Expect(err).NotTo(HaveOccurred())
		return b
	}

	It("has a disabled null collector and an enabled diagnostic one, at Stage detail by default", func() {
		Expect(cupel.NullTraceCollector{}.Enabled()).To(BeFalse())
		Expect(cupel.NewDiagnosticTraceCollector(cupel.DetailStage, nil).Enabled()).To(BeTrue())
		var zero cupel.TraceDetailLevel
		Expect(zero).To(Equal(cupel.DetailStage))
		Expect(cupel.DetailStage).To(BeNumerically("<", cupel.DetailItem))
		Expect(cupel.DetailStage.String()).To(Equal("Stage"))
		Expect(cupel.DetailItem.String()).To(Equal("Item"))
	})

	It("emits one stage event per named stage, with item_count 0, for a run over no items", func() {
		c := cupel.NewDiagnosticTraceCollector(cupel.DetailItem, nil)
		res, err := newPipeline(cupel.OverflowThrow).Run(nil, budget(100, 100), cupel.WithTrace(c))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Items).To(BeEmpty())
		var stages []cupel.PipelineStage
		for _, e := range c.Events() {
			Expect(e.Item).To(BeNil())
			Expect(e.ItemCount).To(BeZero(), string(e.Stage))
			stages = append(stages, e.Stage)
		}
		Expect(stages).To(Equal([]cupel.PipelineStage{
			cupel.StageClassify, cupel.StageScore, cupel.StageDeduplicate, cupel.StageSlice, cupel.StagePlace,
		}))
	})

	It("times a stage event by the wall clock", func() {
		// The scorer sleeps 2 ms per item, so the Score stage lasts at least
		// 6 ms over three items: a lower bound, whatever the machine's load.
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: sleepyScorer{2 * time.Millisecond}, Slicer: slicer.NewGreedy(), Placer: placer.NewChronological()})
		Expect(err).NotTo(HaveOccurred())
		c := cupel.NewDiagnosticTraceCollector(cupel.DetailStage, nil)
		items := []*cupel.ContextItem{
			cupel.MustItem(cupel.ItemSpec{Content: "a", Tokens: 1}),
			cupel.MustItem(cupel.ItemSpec{Content: "b", Tokens: 1}),
			cupel.MustItem(cupel.ItemSpec{Content: "c", Tokens: 1}),
		}
		_, err = p.Run(items, budget(10, 10), cupel.WithTrace(c))
		Expect(err).NotTo(HaveOccurred())
		events := c.Events()
		Expect(events).To(HaveLen(5))
		Expect(events[1].Stage).To(Equal(cupel.StageScore))
		Expect(events[1].DurationMs).To(BeNumerically(">=", 6.0))
	})

	Describe("the OverflowEvent", func() {
		// The pinned item alone (120 tokens) exceeds the target (100) but
		// not maxTokens (200), so the merged list overflows the target.
		items := func() []*cupel.ContextItem {
			return []*cupel.ContextItem{
				cupel.MustItem(cupel.ItemSpec{Content: "pin", Tokens: 120, Pinned: true}),
				cupel.MustItem(cupel.ItemSpec{Content: "a", Tokens: 10}),
			}
		}

		It("is produced under Proceed", func() {
			var seen []cupel.OverflowEvent
			res, err := newPipeline(cupel.OverflowProceed).Run(items(), budget(200, 100),
				cupel.WithOnOverflow(func(e cupel.OverflowEvent) { seen = append(seen, e) }))
			Expect(err).NotTo(HaveOccurred())
			Expect(seen).To(HaveLen(1))
			Expect(seen[0].TokensOverBudget).To(Equal(20)) // 120 pinned tokens, target 100: "a" is not sliced
			Expect(res.Overflow).NotTo(BeNil())
		})

		It("is not produced under Throw", func() {
			called := false
			_, err := newPipeline(cupel.OverflowThrow).Run(items(), budget(200, 100),
				cupel.WithOnOverflow(func(cupel.OverflowEvent) { called = true }))
			Expect(err).To(MatchError(cupel.ErrOverflow))
			Expect(called).To(BeFalse())
		})

		It("is not produced under Truncate", func() {
			called := false
			res, err := newPipeline(cupel.OverflowTruncate).Run(items(), budget(200, 100),
				cupel.WithOnOverflow(func(cupel.OverflowEvent) { called = true }))
			Expect(err).NotTo(HaveOccurred())
			Expect(contents(res.Items)).To(Equal([]string{"pin"}))
			Expect(called).To(BeFalse())
			Expect(res.Overflow).To(BeNil())
		})
	})

	It("writes a TraceEvent's message only when it has one", func() {
		b, err := json.Marshal(cupel.TraceEvent{Stage: cupel.StageScore, DurationMs: 12.4, ItemCount: 47})
		Expect(err).NotTo(HaveOccurred())
		Expect(b).To(MatchJSON(`{"stage":"Score","duration_ms":12.4,"item_count":47}`))
		b, err = json.Marshal(cupel.TraceEvent{Stage: cupel.StageSlice, ItemCount: 1, Message: "why"})
		Expect(err).NotTo(HaveOccurred())
		Expect(b).To(MatchJSON(`{"stage":"Slice","duration_ms":0,"item_count":1,"message":"why"}`))
	})
})

// sleepyScorer scores every item 0.5 after sleeping d.
type sleepyScorer struct{ d time.Duration }

func (s sleepyScorer) Score(*cupel.ContextItem, []*cupel.ContextItem) float64 {
	time.Sleep(s.d)
	return 0.5
}
