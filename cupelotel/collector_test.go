package cupelotel_test

import (
	"errors"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupelotel"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.opentelemetry.io/otel/codes"
)

// everyReasonRun is a pipeline run whose stages exclude for every reason
// Classify, Deduplicate and Slice can give: NegativeTokens, Deduplicated,
// PinnedOverride, CountCapExceeded and BudgetExceeded. The placer reverses
// the merged order.
type everyReasonRun struct {
	p      *cupel.Pipeline
	items  []*cupel.ContextItem
	budget cupel.ContextBudget
}

func newEveryReasonRun() everyReasonRun {
	scores := tableScorer{"dup/Document": 0.9, "dup/Message": 0.3, "big": 0.8, "huge": 0.7, "toolA": 0.6, "toolB": 0.55, "late": 0.5, "zero": 0.2}
	return everyReasonRun{
		p: pipeline(cupel.Policy{
			Scorer: scores,
			Slicer: capSlicer{caps: map[cupel.ContextKind]int{cupel.KindToolOutput: 1}},
			Placer: orderPlacer{reverse: true},
		}),
		items: []*cupel.ContextItem{
			pinned("system prompt", 30, cupel.KindSystemPrompt),
			item("broken", -5, cupel.KindMessage),
			item("dup", 10, cupel.KindDocument),
			item("dup", 10, cupel.KindMessage),
			item("big", 40, cupel.KindDocument),
			item("huge", 80, cupel.KindMemory), // fits 100, not the 70 the pinned item leaves
			item("toolA", 5, cupel.KindToolOutput),
			item("toolB", 5, cupel.KindToolOutput), // over the ToolOutput cap of 1
			item("late", 30, cupel.KindMessage),    // 15 tokens left
			item("zero", 0, cupel.KindMessage),
		},
		budget: budget(100, 100),
	}
}

// The stage spans of everyReasonRun; excl(i) gives the exclusion count
// attribute (or -1 at StageOnly) and ev the events of a stage.
func everyReasonStages(v cupelotel.Verbosity) []spanView {
	count := func(n int) int {
		if v == cupelotel.StageOnly {
			return -1
		}
		return n
	}
	events := func(evs ...eventView) []eventView {
		if v == cupelotel.StageOnly {
			return nil
		}
		return evs
	}
	var inc []eventView
	if v == cupelotel.Full {
		inc = []eventView{
			included(cupel.KindMessage, 0, 0.2),
			included(cupel.KindToolOutput, 5, 0.6),
			included(cupel.KindDocument, 40, 0.8),
			included(cupel.KindDocument, 10, 0.9),
			included(cupel.KindSystemPrompt, 30, 1.0),
		}
	}
	return []spanView{
		stageView("classify", 10, 9, count(1), events(exclusion("NegativeTokens", cupel.KindMessage, -5))...),
		stageView("score", 8, 8, count(0)),
		stageView("deduplicate", 8, 7, count(1), events(exclusion("Deduplicated", cupel.KindMessage, 10))...),
		stageView("slice", 7, 4, count(3), events(
			exclusion("PinnedOverride", cupel.KindMemory, 80),
			exclusion("CountCapExceeded", cupel.KindToolOutput, 5),
			exclusion("BudgetExceeded", cupel.KindMessage, 30),
		)...),
		stageView("place", 5, 5, count(0), inc...),
	}
}

// truncateRun drops items at Place under OverflowTruncate, for both reasons
// Place can give: PinnedOverride and BudgetExceeded.
func truncateRun() ([]*cupel.ContextItem, *cupel.Pipeline, cupel.ContextBudget) {
	p := pipeline(cupel.Policy{
		Scorer:   tableScorer{"a": 0.9, "b": 0.8, "c": 0.7, "d": 0.6},
		Slicer:   takeAllSlicer{},
		Placer:   orderPlacer{},
		Overflow: cupel.OverflowTruncate,
	})
	items := []*cupel.ContextItem{
		pinned("sys", 20, cupel.KindSystemPrompt),
		item("a", 20, cupel.KindMessage),
		item("b", 20, cupel.KindDocument),   // 40 kept + 20 > 50; 20 unpinned + 20 fits
		item("c", 25, cupel.KindToolOutput), // 40 + 25 > 50; 20 + 25 fits
		item("d", 40, cupel.KindMemory),     // 20 + 40 > 50 even without the pinned item
	}
	return items, p, budget(100, 50)
}

var allTiers = []cupelotel.Verbosity{cupelotel.StageOnly, cupelotel.StageAndExclusions, cupelotel.Full}

var _ = Describe("Collector", func() {
	for _, v := range allTiers {
		Context("at "+v.String(), func() {
			It("records a run with zero items as a root span and five empty stage spans", func() {
				h := newHarness(v)
				p := pipeline(cupel.Policy{Scorer: tableScorer{}, Slicer: capSlicer{}, Placer: orderPlacer{}})
				res, err := h.tracer.Run(background, p, nil, budget(4096, 3000))
				Expect(err).NotTo(HaveOccurred())
				Expect(res.Items).To(BeEmpty())
				count := 0
				if v == cupelotel.StageOnly {
					count = -1
				}
				root, children := h.tree()
				Expect(root).To(Equal(rootView(4096, v)))
				Expect(children).To(Equal([]spanView{
					stageView("classify", 0, 0, count),
					stageView("score", 0, 0, count),
					stageView("deduplicate", 0, 0, count),
					stageView("slice", 0, 0, count),
					stageView("place", 0, 0, count),
				}))
			})

			It("puts every Classify, Deduplicate and Slice exclusion on its stage's span", func() {
				h := newHarness(v)
				r := newEveryReasonRun()
				res, err := h.tracer.Run(background, r.p, r.items, r.budget)
				Expect(err).NotTo(HaveOccurred())
				Expect(res.Items).To(HaveLen(5))
				root, children := h.tree()
				Expect(root).To(Equal(rootView(100, v)))
				Expect(children).To(Equal(everyReasonStages(v)))
			})

			It("puts Truncate drops on the place span, before the included items", func() {
				h := newHarness(v)
				items, p, b := truncateRun()
				res, err := h.tracer.Run(background, p, items, b)
				Expect(err).NotTo(HaveOccurred())
				Expect(res.Items).To(Equal(items[:2]))
				count := func(n int) int {
					if v == cupelotel.StageOnly {
						return -1
					}
					return n
				}
				var placeEvents []eventView
				if v >= cupelotel.StageAndExclusions {
					placeEvents = append(placeEvents,
						exclusion("PinnedOverride", cupel.KindDocument, 20),
						exclusion("PinnedOverride", cupel.KindToolOutput, 25),
						exclusion("BudgetExceeded", cupel.KindMemory, 40))
				}
				if v == cupelotel.Full {
					placeEvents = append(placeEvents,
						included(cupel.KindSystemPrompt, 20, 1.0),
						included(cupel.KindMessage, 20, 0.9))
				}
				root, children := h.tree()
				Expect(root).To(Equal(rootView(100, v)))
				Expect(children).To(Equal([]spanView{
					stageView("classify", 5, 5, count(0)),
					stageView("score", 4, 4, count(0)),
					stageView("deduplicate", 4, 4, count(0)),
					stageView("slice", 4, 4, count(0)),
					stageView("place", 5, 2, count(3), placeEvents...),
				}))
			})
		})
	}

	It("records the same trace through Start and End as through Run", func() {
		h := newHarness(cupelotel.Full)
		r := newEveryReasonRun()
		_, c := h.tracer.Start(background, r.budget)
		Expect(c.Enabled()).To(BeTrue())
		_, err := r.p.Run(r.items, r.budget, cupel.WithTrace(c))
		Expect(err).NotTo(HaveOccurred())
		Expect(h.exp.GetSpans()).To(BeEmpty(), "nothing is exported before End")
		c.End(nil)
		root, children := h.tree()
		Expect(root).To(Equal(rootView(100, cupelotel.Full)))
		Expect(children).To(Equal(everyReasonStages(cupelotel.Full)))
	})

	It("returns a context carrying the root span", func() {
		h := newHarness(cupelotel.StageOnly)
		ctx, c := h.tracer.Start(background, budget(10, 10))
		c.End(nil)
		root, _ := h.recorded()
		Expect(traceSpanContext(ctx)).To(Equal(root.SpanContext))
	})

	It("ends the run only once and ignores events after End", func() {
		h := newHarness(cupelotel.Full)
		p := pipeline(cupel.Policy{Scorer: tableScorer{}, Slicer: capSlicer{}, Placer: orderPlacer{}})
		_, c := h.tracer.Start(background, budget(10, 10))
		_, err := p.Run(nil, budget(10, 10), cupel.WithTrace(c))
		Expect(err).NotTo(HaveOccurred())
		c.End(nil)
		c.RecordItemEvent(cupel.TraceEvent{Stage: cupel.StageSlice, ItemCount: 1, Item: item("x", 1, cupel.KindMessage), Exclusion: cupel.BudgetExceeded(1, 0)})
		c.RecordStageEvent(cupel.TraceEvent{Stage: cupel.StageSlice, ItemCount: 1})
		c.End(errors.New("late"))
		Expect(h.exp.GetSpans()).To(HaveLen(6))
		root, _ := h.tree()
		Expect(root.Status).To(Equal(codes.Unset))
	})

	It("feeds a collector of the caller's WithTrace as well", func() {
		h := newHarness(cupelotel.StageAndExclusions)
		r := newEveryReasonRun()
		diag := cupel.NewDiagnosticTraceCollector(cupel.DetailItem, nil)
		_, err := h.tracer.Run(background, r.p, r.items, r.budget, cupel.WithTrace(diag))
		Expect(err).NotTo(HaveOccurred())
		rep := diag.Report()
		Expect(rep.Included).To(HaveLen(5))
		Expect(rep.Excluded).To(HaveLen(5))
		Expect(rep.TotalCandidates).To(Equal(10))
		_, children := h.tree()
		Expect(children).To(Equal(everyReasonStages(cupelotel.StageAndExclusions)))
	})

	It("passes count-requirement shortfalls on to a collector of the caller's WithTrace", func() {
		h := newHarness(cupelotel.StageOnly)
		shortfall := cupel.CountRequirementShortfall{Kind: cupel.KindMemory, RequiredCount: 2, SatisfiedCount: 0}
		p := pipeline(cupel.Policy{Scorer: tableScorer{}, Slicer: shortfallSlicer{shortfall}, Placer: orderPlacer{}})
		diag := cupel.NewDiagnosticTraceCollector(cupel.DetailStage, nil)
		_, err := h.tracer.Run(background, p, []*cupel.ContextItem{item("a", 1, cupel.KindMessage)}, budget(10, 10), cupel.WithTrace(diag))
		Expect(err).NotTo(HaveOccurred())
		Expect(diag.Report().CountRequirementShortfalls).To(Equal([]cupel.CountRequirementShortfall{shortfall}))
		Expect(h.exp.GetSpans()).To(HaveLen(6))
	})

	Context("with events fed directly", func() {
		It("passes reserved and unknown exclusion reasons through by name and ignores unknown stages", func() {
			h := newHarness(cupelotel.Full)
			_, c := h.tracer.Start(background, budget(50, 40))
			feedEmptyStages(c, cupel.StageClassify, cupel.StageScore, cupel.StageDeduplicate)
			c.RecordItemEvent(cupel.TraceEvent{Stage: cupel.StageSlice, ItemCount: 1, Item: item("a", 7, cupel.KindMemory), Score: 0.1, Exclusion: cupel.ScoredTooLow(0.1, 0.5)})
			c.RecordItemEvent(cupel.TraceEvent{Stage: cupel.StageSlice, ItemCount: 1, Item: item("b", 8, "Custom"), Exclusion: cupel.ExclusionReason{Variant: "Frobnicated"}})
			c.RecordItemEvent(cupel.TraceEvent{Stage: cupel.StageSlice, ItemCount: 1, Item: item("c", 9, cupel.KindDocument), Exclusion: cupel.CountCapExceeded(cupel.KindDocument, 0, 0)})
			c.RecordItemEvent(cupel.TraceEvent{Stage: "Sort", ItemCount: 1, Item: item("d", 1, cupel.KindMessage), Exclusion: cupel.Filtered("f")})
			c.RecordStageEvent(cupel.TraceEvent{Stage: "Sort", DurationMs: 1, ItemCount: 3})
			c.RecordStageEvent(cupel.TraceEvent{Stage: cupel.StageSlice, DurationMs: 0.01, ItemCount: 4})
			c.RecordItemEvent(cupel.TraceEvent{Stage: cupel.StagePlace, ItemCount: 1, Item: item("e", 3, cupel.KindMessage), Score: 0.25, Inclusion: cupel.InclusionScored})
			c.RecordStageEvent(cupel.TraceEvent{Stage: cupel.StagePlace, DurationMs: 0.01, ItemCount: 1})
			c.End(nil)
			root, children := h.tree()
			Expect(root).To(Equal(rootView(50, cupelotel.Full)))
			Expect(children).To(Equal([]spanView{
				stageView("classify", 0, 0, 0),
				stageView("score", 0, 0, 0),
				stageView("deduplicate", 0, 0, 0),
				stageView("slice", 4, 1, 3,
					exclusion("ScoredTooLow", cupel.KindMemory, 7),
					exclusion("Frobnicated", "Custom", 8),
					exclusion("CountCapExceeded", cupel.KindDocument, 9)),
				stageView("place", 1, 1, 0, included(cupel.KindMessage, 3, 0.25)),
			}))
		})

		It("times each stage from its event: Classify from its duration, each later stage from the previous end", func() {
			h := newHarness(cupelotel.StageAndExclusions)
			t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
			now := t0
			cupelotel.SetClock(h.tracer, func() time.Time { return now })
			at := func(ms float64) { now = t0.Add(time.Duration(ms * float64(time.Millisecond))) }

			_, c := h.tracer.Start(background, budget(10, 10))
			at(3)
			c.RecordItemEvent(cupel.TraceEvent{Stage: cupel.StageClassify, ItemCount: 1, Item: item("n", -1, cupel.KindMessage), Exclusion: cupel.NegativeTokens(-1)})
			at(10)
			c.RecordStageEvent(cupel.TraceEvent{Stage: cupel.StageClassify, DurationMs: 8, ItemCount: 2})
			at(15)
			c.RecordStageEvent(cupel.TraceEvent{Stage: cupel.StageScore, DurationMs: 4.5, ItemCount: 1})
			at(15.25)
			c.RecordStageEvent(cupel.TraceEvent{Stage: cupel.StageDeduplicate, DurationMs: 0.25, ItemCount: 1})
			at(30)
			c.RecordItemEvent(cupel.TraceEvent{Stage: cupel.StageSlice, ItemCount: 1, Item: item("s", 5, cupel.KindMessage), Exclusion: cupel.BudgetExceeded(5, 0)})
			at(31)
			c.RecordStageEvent(cupel.TraceEvent{Stage: cupel.StageSlice, DurationMs: 2, ItemCount: 1}) // Sort ran from 15.25 to 29
			at(31.5)
			c.RecordStageEvent(cupel.TraceEvent{Stage: cupel.StagePlace, DurationMs: 0.5, ItemCount: 1})
			at(40)
			c.End(nil)

			root, children := h.recorded()
			ms := func(v float64) time.Time { return t0.Add(time.Duration(v * float64(time.Millisecond))) }
			Expect([]time.Time{root.StartTime, root.EndTime}).To(Equal([]time.Time{t0, ms(40)}))
			type window struct{ Start, End time.Time }
			var got []window
			for _, s := range children {
				got = append(got, window{s.StartTime, s.EndTime})
			}
			Expect(got).To(Equal([]window{
				{ms(2), ms(10)},
				{ms(10), ms(15)},
				{ms(15), ms(15.25)},
				{ms(15.25), ms(31)},
				{ms(31), ms(31.5)},
			}))
			Expect(children[0].Events[0].Time).To(Equal(ms(3)))
			Expect(children[3].Events[0].Time).To(Equal(ms(30)))
		})

		It("never starts Classify before the root span", func() {
			h := newHarness(cupelotel.StageOnly)
			t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
			now := t0
			cupelotel.SetClock(h.tracer, func() time.Time { return now })
			_, c := h.tracer.Start(background, budget(10, 10))
			now = t0.Add(time.Millisecond)
			feedEmptyStages(c, cupel.StageClassify) // DurationMs 5, more than the 1 ms since Start
			c.End(nil)
			_, children := h.recorded()
			Expect(children[0].StartTime).To(Equal(t0))
			Expect(children[0].EndTime).To(Equal(now))
		})
	})

	It("times the spans to the real stage boundaries", func() {
		h := newHarness(cupelotel.StageOnly)
		p := pipeline(cupel.Policy{Scorer: sleepScorer{3 * time.Millisecond}, Slicer: capSlicer{sleep: 5 * time.Millisecond}, Placer: orderPlacer{}})
		diag := cupel.NewDiagnosticTraceCollector(cupel.DetailStage, nil)
		items := []*cupel.ContextItem{item("a", 1, cupel.KindMessage), item("b", 1, cupel.KindMessage)}
		_, err := h.tracer.Run(background, p, items, budget(10, 10), cupel.WithTrace(diag))
		Expect(err).NotTo(HaveOccurred())
		_, children := h.recorded()
		events := diag.Events()
		Expect(events).To(HaveLen(5))
		for i, s := range children {
			d := time.Duration(events[i].DurationMs * float64(time.Millisecond))
			Expect(s.EndTime.Sub(s.StartTime)).To(BeNumerically(">=", d-time.Microsecond), s.Name)
		}
		classify := children[0]
		Expect(classify.EndTime.Sub(classify.StartTime)).To(BeNumerically("~", time.Duration(events[0].DurationMs*float64(time.Millisecond)), time.Microsecond))
		Expect(children[1].EndTime.Sub(children[1].StartTime)).To(BeNumerically(">=", 6*time.Millisecond))
		Expect(children[3].EndTime.Sub(children[3].StartTime)).To(BeNumerically(">=", 5*time.Millisecond))
	})
})

// feedEmptyStages records a stage event of 5 ms over zero items for each stage.
func feedEmptyStages(c *cupelotel.Collector, stages ...cupel.PipelineStage) {
	for _, s := range stages {
		c.RecordStageEvent(cupel.TraceEvent{Stage: s, DurationMs: 5})
	}
}

// shortfallSlicer selects everything and reports one shortfall.
type shortfallSlicer struct {
	s cupel.CountRequirementShortfall
}

func (s shortfallSlicer) Slice(sorted []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	return takeAllSlicer{}.Slice(sorted, b)
}

func (s shortfallSlicer) SliceDetailed(sorted []cupel.ScoredItem, b cupel.ContextBudget) (cupel.SliceResult, error) {
	sel, _ := takeAllSlicer{}.Slice(sorted, b)
	return cupel.SliceResult{Selected: sel, Shortfalls: []cupel.CountRequirementShortfall{s.s}}, nil
}

var _ = Describe("A Tracer", func() {
	It("traces concurrent runs, each into its own trace", func() {
		h := newHarness(cupelotel.Full)
		r := newEveryReasonRun()
		const runs = 8
		done := make(chan error, runs)
		for range runs {
			go func() {
				_, err := h.tracer.Run(background, r.p, r.items, r.budget)
				done <- err
			}()
		}
		for range runs {
			Expect(<-done).NotTo(HaveOccurred())
		}
		spans := h.exp.GetSpans()
		Expect(spans).To(HaveLen(runs * 6))
		perTrace := map[string]int{}
		for _, s := range spans {
			perTrace[s.SpanContext.TraceID().String()]++
		}
		Expect(perTrace).To(HaveLen(runs))
		for _, n := range perTrace {
			Expect(n).To(Equal(6))
		}
	})
})
