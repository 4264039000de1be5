package cupelotel_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
	"github.com/cupel-go/go-cupel/cupelotel"
)

// builtinRun uses the engine's own scorer, count-quota slicer and placer:
// its Slice stage excludes for CountCapExceeded, PinnedOverride and
// BudgetExceeded.
func builtinRun() (*cupel.Pipeline, []*cupel.ContextItem, cupel.ContextBudget) {
	toolCap, err := slicer.NewCountQuotaEntry(cupel.KindToolOutput, 0, 1)
	Expect(err).NotTo(HaveOccurred())
	slicer, err := slicer.NewCountQuota([]slicer.CountQuotaEntry{toolCap}, slicer.NewGreedy(), slicer.ScarcityDegrade)
	Expect(err).NotTo(HaveOccurred())
	p := pipeline(cupel.Policy{Scorer: scorer.NewPriority(), Slicer: slicer, Placer: placer.NewUShaped()})
	it := func(content string, tokens int, kind cupel.ContextKind, priority int) *cupel.ContextItem {
		return cupel.MustItem(cupel.ItemSpec{Content: content, Tokens: tokens, Kind: kind, Priority: cupel.Ptr(priority)})
	}
	return p, []*cupel.ContextItem{
		pinned("system", 20, cupel.KindSystemPrompt),
		it("broken", -1, cupel.KindMessage, 1),
		it("question", 10, cupel.KindMessage, 9),
		it("doc", 60, cupel.KindDocument, 8),
		it("doc", 60, cupel.KindDocument, 2),
		it("ls", 15, cupel.KindToolOutput, 7),
		it("cat", 15, cupel.KindToolOutput, 6),
		it("memory", 25, cupel.KindMemory, 5),
		it("transcript", 140, cupel.KindMessage, 4),
		it("notes", 45, cupel.KindDocument, 3),
	}, budget(200, 150)
}

var _ = Describe("With the built-in scorers, slicers and placers", func() {
	for _, v := range allTiers {
		It("records at "+v.String()+" exactly what the run's diagnostic events say", func() {
			h := newHarness(v)
			p, items, b := builtinRun()
			diag := cupel.NewDiagnosticTraceCollector(cupel.DetailItem, nil)
			res, err := h.tracer.Run(background, p, items, b, cupel.WithTrace(diag))
			Expect(err).NotTo(HaveOccurred())

			// The expected stage spans, built from the diagnostic events.
			want := make([]spanView, 0, 5)
			var events []eventView
			excluded := 0
			reasons := map[string]bool{}
			for _, e := range diag.Events() {
				switch {
				case e.Item != nil && e.Exclusion.Variant != "":
					excluded++
					reasons[string(e.Exclusion.Variant)] = true
					if v >= cupelotel.StageAndExclusions {
						events = append(events, exclusion(string(e.Exclusion.Variant), e.Item.Kind(), e.Item.Tokens()))
					}
				case e.Item != nil:
					if v == cupelotel.Full {
						events = append(events, included(e.Item.Kind(), e.Item.Tokens(), e.Score))
					}
				default:
					count := excluded
					if v == cupelotel.StageOnly {
						count = -1
					}
					want = append(want, stageView(lower(e.Stage), e.ItemCount, e.ItemCount-excluded, count, events...))
					events, excluded = nil, 0
				}
			}
			Expect(reasons).To(Equal(map[string]bool{"NegativeTokens": true, "Deduplicated": true, "CountCapExceeded": true, "PinnedOverride": true, "BudgetExceeded": true}))
			Expect(want[4].Attrs["cupel.stage.item_count_out"]).To(Equal(int64(len(res.Items))))

			root, children := h.tree()
			Expect(root).To(Equal(rootView(200, v)))
			Expect(children).To(Equal(want))
		})
	}
})

func lower(s cupel.PipelineStage) string {
	return map[cupel.PipelineStage]string{"Classify": "classify", "Score": "score", "Deduplicate": "deduplicate", "Slice": "slice", "Place": "place"}[s]
}
