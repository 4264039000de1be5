package cupel_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

// viaInterface hides the concrete collector type, so the pipeline records
// through the public TraceCollector methods instead of its compact path.
type viaInterface struct {
	*cupel.DiagnosticTraceCollector
}

// render prints events field by field (item pointers as addresses, NaN as
// NaN), so that two event lists compare exactly; stage durations are zeroed,
// being the only thing two runs may legitimately differ in.
func render(events []cupel.TraceEvent) []string {
	out := make([]string, len(events))
	for i, e := range events {
		if e.Item == nil {
			e.DurationMs = 0
		}
		out[i] = fmt.Sprintf("%#v", e)
	}
	return out
}

func renderReport(r *cupel.SelectionReport) string {
	return fmt.Sprintf("%#v|%#v|%d|%d|%#v|%v", r.Included, r.Excluded, r.TotalCandidates, r.TotalTokensConsidered, r.CountRequirementShortfalls, render(r.Events))
}

var _ = Describe("DiagnosticTraceCollector", func() {
	mk := func(content string, tokens int) *cupel.ContextItem {
		return cupel.MustItem(cupel.ItemSpec{Content: content, Tokens: tokens, Kind: cupel.KindMessage})
	}
	a, b := mk("a", 3), mk("b", 4)
	negZero := math.Copysign(0, -1) // a literal -0.0 is plain zero in Go

	// handed lists item events of every shape: the built-in stages, reasons
	// and inclusions, and the shapes the compact form cannot hold.
	handed := func() []cupel.TraceEvent {
		return []cupel.TraceEvent{
			{Stage: cupel.StageClassify, ItemCount: 1, Item: a, Exclusion: cupel.NegativeTokens(-7)},
			{Stage: cupel.StageClassify, DurationMs: 0.5, ItemCount: 2},
			{Stage: cupel.StageDeduplicate, ItemCount: 1, Item: b, Score: negZero, Exclusion: cupel.Deduplicated("a")},
			{Stage: cupel.StageSlice, ItemCount: 1, Item: a, Score: 0.25, Exclusion: cupel.BudgetExceeded(math.MaxInt, math.MinInt)},
			{Stage: cupel.StageSlice, ItemCount: 1, Item: b, Score: 0.5, Exclusion: cupel.PinnedOverride("p")},
			{Stage: cupel.StageSlice, ItemCount: 1, Item: a, Score: 0.5, Exclusion: cupel.PinnedOverride("p")},
			{Stage: cupel.StageSlice, ItemCount: 1, Item: b, Score: 0.5, Exclusion: cupel.PinnedOverride("q")},
			{Stage: cupel.StageSlice, ItemCount: 1, Item: a, Exclusion: cupel.CountCapExceeded("Tool", 2, 2)},
			{Stage: cupel.StageSlice, ItemCount: 1, Item: b, Exclusion: cupel.ScoredTooLow(0.125, 0.75)},
			{Stage: cupel.StageSlice, ItemCount: 1, Item: a, Exclusion: cupel.QuotaCapExceeded("Doc", 5, 6)},
			{Stage: cupel.StageSlice, ItemCount: 1, Item: b, Exclusion: cupel.QuotaRequireDisplaced("Memory")},
			{Stage: cupel.StageSlice, ItemCount: 1, Item: a, Exclusion: cupel.Filtered("f")},
			{Stage: cupel.StageSlice, DurationMs: 1.5, ItemCount: 9},
			{Stage: cupel.StagePlace, ItemCount: 1, Item: a, Score: 1, Inclusion: cupel.InclusionPinned},
			{Stage: cupel.StagePlace, ItemCount: 1, Item: b, Score: 0.5, Inclusion: cupel.InclusionScored},
			{Stage: cupel.StagePlace, ItemCount: 1, Item: a, Inclusion: cupel.InclusionZeroToken},
			// Shapes kept whole:
			{Stage: cupel.StagePlace, ItemCount: 1, Item: a, Inclusion: cupel.InclusionScored, Message: "why"},
			{Stage: cupel.StagePlace, DurationMs: 2, ItemCount: 1, Item: a, Inclusion: cupel.InclusionScored},
			{Stage: cupel.StagePlace, ItemCount: 3, Item: a, Inclusion: cupel.InclusionScored},
			{Stage: "Sort", ItemCount: 1, Item: b, Exclusion: cupel.BudgetExceeded(1, 0)},
			{Stage: cupel.StageSlice, ItemCount: 1, Item: b, Exclusion: cupel.UnknownExclusion("Frobnicated", `{"x":1}`)},
			{Stage: cupel.StagePlace, ItemCount: 1, Item: b, Inclusion: "Custom"},
			{Stage: cupel.StagePlace, ItemCount: 1, Message: "no item"},
			{Stage: cupel.StagePlace, DurationMs: 0.25, ItemCount: 4},
		}
	}
	record := func(c *cupel.DiagnosticTraceCollector, events []cupel.TraceEvent) {
		for _, e := range events {
			if e.Item == nil && e.DurationMs != 0 {
				c.RecordStageEvent(e)
			} else {
				c.RecordItemEvent(e)
			}
		}
	}

	It("gives back at item detail exactly the events it was handed, in order, and hands the same to the observer", func() {
		var observed []cupel.TraceEvent
		c := cupel.NewDiagnosticTraceCollector(cupel.DetailItem, func(e cupel.TraceEvent) { observed = append(observed, e) })
		record(c, handed())
		Expect(c.Events()).To(Equal(handed()))
		Expect(observed).To(Equal(handed()))
		Expect(c.Report().Events).To(Equal(handed()))
		// Equal compares floats with ==, for which -0 is +0; the rendering
		// keeps the sign, so the negative zero score is checked too.
		Expect(render(handed())[2]).To(ContainSubstring("Score:-0,"))
		Expect(render(c.Events())).To(Equal(render(handed())))
		Expect(render(observed)).To(Equal(render(handed())))
		Expect(render(c.Report().Events)).To(Equal(render(handed())))
	})

	It("keeps a NaN score and a negative zero as they were", func() {
		c := cupel.NewDiagnosticTraceCollector(cupel.DetailItem, nil)
		c.RecordItemEvent(cupel.TraceEvent{Stage: cupel.StageSlice, ItemCount: 1, Item: a, Score: math.NaN(), Exclusion: cupel.ScoredTooLow(math.NaN(), math.Inf(-1))})
		c.RecordItemEvent(cupel.TraceEvent{Stage: cupel.StagePlace, ItemCount: 1, Item: b, Score: math.Copysign(0, -1), Inclusion: cupel.InclusionScored})
		ev := c.Events()
		Expect(math.IsNaN(ev[0].Score)).To(BeTrue())
		Expect(math.IsNaN(ev[0].Exclusion.Score())).To(BeTrue())
		Expect(ev[0].Exclusion.Threshold()).To(Equal(math.Inf(-1)))
		Expect(math.Signbit(ev[1].Score)).To(BeTrue())
	})

	It("keeps at stage detail the stage events in its list and every decision in its report", func() {
		var observed int
		c := cupel.NewDiagnosticTraceCollector(cupel.DetailStage, func(cupel.TraceEvent) { observed++ })
		record(c, handed())
		Expect(render(c.Events())).To(Equal(render([]cupel.TraceEvent{handed()[1], handed()[12], handed()[23]})))
		Expect(observed).To(Equal(3))

		full := cupel.NewDiagnosticTraceCollector(cupel.DetailItem, nil)
		record(full, handed())
		got, want := c.Report(), full.Report()
		Expect(got.Included).To(Equal(want.Included))
		Expect(got.Excluded).To(Equal(want.Excluded))
		Expect(got.TotalCandidates).To(Equal(want.TotalCandidates))
		Expect(got.TotalCandidates).To(Equal(len(handed()) - 4)) // item events with an item
	})

	It("records the same events and report through the pipeline's compact path as through the interface", func() {
		r := rand.New(rand.NewPCG(3, 5))
		caps := func() cupel.Slicer {
			e1, err := slicer.NewCountQuotaEntry("Message", 1, 2)
			Expect(err).NotTo(HaveOccurred())
			e2, err := slicer.NewCountQuotaEntry("document", 0, 1)
			Expect(err).NotTo(HaveOccurred())
			s, err := slicer.NewCountQuota([]slicer.CountQuotaEntry{e1, e2}, slicer.NewGreedy(), slicer.ScarcityDegrade)
			Expect(err).NotTo(HaveOccurred())
			return s
		}
		ks, err := slicer.NewKnapsack(5)
		Expect(err).NotTo(HaveOccurred())
		slicers := []cupel.Slicer{slicer.NewGreedy(), ks, caps()}
		placers := []cupel.Placer{placer.NewChronological(), placer.NewUShaped()}
		overflows := []cupel.OverflowStrategy{cupel.OverflowTruncate, cupel.OverflowProceed}
		seen := map[cupel.ExclusionVariant]bool{}
		for trial := range 200 {
			items := randomItems(r, 1+r.IntN(40))
			budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 400, TargetTokens: 20 + r.IntN(200)})
			Expect(err).NotTo(HaveOccurred())
			p, err := cupel.NewPipeline(cupel.Policy{
				Scorer: randomScorer(r, 2), Slicer: slicers[r.IntN(len(slicers))], Placer: placers[r.IntN(2)],
				Overflow: overflows[r.IntN(2)], DisableDeduplication: r.IntN(4) == 0,
			})
			Expect(err).NotTo(HaveOccurred())
			level := cupel.TraceDetailLevel(r.IntN(2))
			var obsFast, obsSlow []cupel.TraceEvent
			fast := cupel.NewDiagnosticTraceCollector(level, func(e cupel.TraceEvent) { obsFast = append(obsFast, e) })
			slow := cupel.NewDiagnosticTraceCollector(level, func(e cupel.TraceEvent) { obsSlow = append(obsSlow, e) })
			_, err1 := p.Run(items, budget, cupel.WithTrace(fast))
			_, err2 := p.Run(items, budget, cupel.WithTrace(viaInterface{slow}))
			Expect(fmt.Sprint(err1)).To(Equal(fmt.Sprint(err2)), "trial %d", trial)
			if err1 != nil {
				continue
			}
			Expect(render(fast.Events())).To(Equal(render(slow.Events())), "trial %d", trial)
			Expect(render(obsFast)).To(Equal(render(obsSlow)), "trial %d", trial)
			Expect(render(obsFast)).To(Equal(render(fast.Events())), "trial %d", trial)
			Expect(renderReport(fast.Report())).To(Equal(renderReport(slow.Report())), "trial %d", trial)
			for _, x := range fast.Report().Excluded {
				seen[x.Reason.Variant] = true
			}
		}
		// The trials reached every reason the built-in stages give.
		Expect(seen).To(Equal(map[cupel.ExclusionVariant]bool{
			cupel.ExclusionNegativeTokens: true, cupel.ExclusionDeduplicated: true, cupel.ExclusionBudgetExceeded: true,
			cupel.ExclusionPinnedOverride: true, cupel.ExclusionCountCapExceeded: true,
		}))
	})
})
