package cupelotel_test

import (
	"errors"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupelotel"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.opentelemetry.io/otel/codes"
)

// failedStage is the expected span of the stage a run failed in.
func failedStage(name string, in int, err error, exclusions ...eventView) spanView {
	attrs := map[string]any{"cupel.stage.name": name, "cupel.exclusion.count": int64(len(exclusions))}
	if in >= 0 {
		attrs["cupel.stage.item_count_in"] = int64(in)
	}
	return spanView{
		Name:       "cupel.stage." + name,
		Attrs:      attrs,
		Events:     append(exclusions, exceptionEvent(err)),
		Status:     codes.Error,
		StatusText: err.Error(),
	}
}

func failedRoot(maxTokens int, v cupelotel.Verbosity, err error) spanView {
	r := rootView(maxTokens, v)
	r.Status, r.StatusText = codes.Error, err.Error()
	return r
}

var _ = Describe("A failed run", func() {
	It("ends in Classify when pinned items exceed the budget", func() {
		h := newHarness(cupelotel.StageAndExclusions)
		p := pipeline(cupel.Policy{Scorer: tableScorer{}, Slicer: capSlicer{}, Placer: orderPlacer{}})
		items := []*cupel.ContextItem{pinned("sys", 20, cupel.KindSystemPrompt), item("n", -1, cupel.KindMessage), item("m", 1, cupel.KindMessage)}
		_, err := h.tracer.Run(background, p, items, budget(10, 10))
		Expect(err).To(MatchError(cupel.ErrPinnedExceedsBudget))
		root, children := h.tree()
		Expect(root).To(Equal(failedRoot(10, cupelotel.StageAndExclusions, err)))
		Expect(children).To(Equal([]spanView{
			failedStage("classify", 3, err, exclusion("NegativeTokens", cupel.KindMessage, -1)),
		}))
	})

	It("leaves item_count_in out of a failed Classify when the input size is unknown (Start and End)", func() {
		h := newHarness(cupelotel.StageAndExclusions)
		p := pipeline(cupel.Policy{Scorer: tableScorer{}, Slicer: capSlicer{}, Placer: orderPlacer{}})
		b := budget(10, 10)
		_, c := h.tracer.Start(background, b)
		_, err := p.Run([]*cupel.ContextItem{pinned("sys", 20, cupel.KindSystemPrompt)}, b, cupel.WithTrace(c))
		Expect(err).To(HaveOccurred())
		c.End(err)
		root, children := h.tree()
		Expect(root).To(Equal(failedRoot(10, cupelotel.StageAndExclusions, err)))
		Expect(children).To(Equal([]spanView{failedStage("classify", -1, err)}))
	})

	It("ends in Slice when the slicer fails", func() {
		h := newHarness(cupelotel.StageAndExclusions)
		boom := errors.New("slicer broke")
		p := pipeline(cupel.Policy{Scorer: tableScorer{}, Slicer: capSlicer{err: boom}, Placer: orderPlacer{}})
		items := []*cupel.ContextItem{pinned("sys", 2, cupel.KindSystemPrompt), item("a", 1, cupel.KindMessage), item("a", 1, cupel.KindMessage)}
		_, err := h.tracer.Run(background, p, items, budget(10, 10))
		Expect(err).To(MatchError(boom))
		root, children := h.tree()
		Expect(root).To(Equal(failedRoot(10, cupelotel.StageAndExclusions, err)))
		Expect(children).To(Equal([]spanView{
			stageView("classify", 3, 3, 0),
			stageView("score", 2, 2, 0),
			stageView("deduplicate", 2, 1, 1, exclusion("Deduplicated", cupel.KindMessage, 1)),
			failedStage("slice", 1, err),
		}))
	})

	It("ends in Place on an overflow under OverflowThrow", func() {
		h := newHarness(cupelotel.StageOnly)
		p := pipeline(cupel.Policy{Scorer: tableScorer{}, Slicer: takeAllSlicer{}, Placer: orderPlacer{}})
		items := []*cupel.ContextItem{pinned("sys", 20, cupel.KindSystemPrompt), item("a", 20, cupel.KindMessage), item("b", 20, cupel.KindMessage), item("c", 25, cupel.KindMessage)}
		_, err := h.tracer.Run(background, p, items, budget(100, 50))
		Expect(err).To(MatchError(cupel.ErrOverflow))
		place := failedStage("place", 4, err)
		delete(place.Attrs, "cupel.exclusion.count") // StageOnly
		root, children := h.tree()
		Expect(root).To(Equal(failedRoot(100, cupelotel.StageOnly, err)))
		Expect(children).To(Equal([]spanView{
			stageView("classify", 4, 4, -1),
			stageView("score", 3, 3, -1),
			stageView("deduplicate", 3, 3, -1),
			stageView("slice", 3, 3, -1),
			place,
		}))
	})

	It("records a panic in Place, then re-raises it", func() {
		h := newHarness(cupelotel.Full)
		p := pipeline(cupel.Policy{Scorer: tableScorer{}, Slicer: takeAllSlicer{}, Placer: panicPlacer{}})
		items := []*cupel.ContextItem{pinned("sys", 1, cupel.KindSystemPrompt), item("a", 1, cupel.KindMessage)}
		Expect(func() {
			_, _ = h.tracer.Run(background, p, items, budget(10, 10))
		}).To(PanicWith("placer exploded"))
		err := errors.New("cupelotel: pipeline run panicked: placer exploded")
		root, children := h.tree()
		Expect(root).To(Equal(failedRoot(10, cupelotel.Full, err)))
		Expect(children).To(HaveLen(5))
		Expect(children[4]).To(Equal(failedStage("place", 2, err)))
	})

	It("records an error given after a complete run on the root span", func() {
		h := newHarness(cupelotel.StageOnly)
		p := pipeline(cupel.Policy{Scorer: tableScorer{}, Slicer: capSlicer{}, Placer: orderPlacer{}})
		b := budget(10, 10)
		_, c := h.tracer.Start(background, b)
		_, err := p.Run(nil, b, cupel.WithTrace(c))
		Expect(err).NotTo(HaveOccurred())
		later := errors.New("the model call failed")
		c.End(later)
		root, children := h.tree()
		want := failedRoot(10, cupelotel.StageOnly, later)
		want.Events = []eventView{exceptionEvent(later)}
		Expect(root).To(Equal(want))
		Expect(children).To(HaveLen(5))
		for _, s := range children {
			Expect(s.Status).To(Equal(codes.Unset))
		}
	})
})
