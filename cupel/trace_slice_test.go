package cupel_test

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

// eventList keeps every event it is handed, in order, through
// TraceCollector's methods only.
type eventList struct{ events []cupel.TraceEvent }

func (l *eventList) Enabled() bool                       { return true }
func (l *eventList) RecordStageEvent(e cupel.TraceEvent) { l.events = append(l.events, e) }
func (l *eventList) RecordItemEvent(e cupel.TraceEvent)  { l.events = append(l.events, e) }

// sliceBatches is an eventList that also takes the Slice stage's
// exclusions in one call (cupel.SliceExclusionRecorder), expanding them as
// the interface's documentation says they stand for: in Sort-stage order,
// score descending, ties in the order given, NaN last.
type sliceBatches struct {
	eventList
	calls int
}

func (s *sliceBatches) RecordSliceExclusions(excluded []cupel.ScoredItem, reason func(*cupel.ContextItem) cupel.ExclusionReason) {
	s.calls++
	slices.SortStableFunc(excluded, func(a, b cupel.ScoredItem) int {
		an, bn := math.IsNaN(a.Score), math.IsNaN(b.Score)
		switch {
		case an || bn:
			return cmp.Compare(btoi(an), btoi(bn))
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	for _, si := range excluded {
		s.events = append(s.events, cupel.TraceEvent{Stage: cupel.StageSlice, ItemCount: 1, Item: si.Item, Score: si.Score, Exclusion: reason(si.Item)})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// withoutDurations returns events with their stage durations zeroed: the
// only part of a trace that differs between two runs of the same input.
func withoutDurations(events []cupel.TraceEvent) []cupel.TraceEvent {
	out := make([]cupel.TraceEvent, len(events))
	for i, e := range events {
		e.DurationMs = 0
		out[i] = e
	}
	return out
}

var _ = Describe("SliceExclusionRecorder", func() {
	// slicers covers the greedy, knapsack and count-quota Slice stages: the
	// last reports count-quota cap exclusions, for which the pipeline
	// records each exclusion with RecordItemEvent instead.
	slicers := func() map[string]cupel.Slicer {
		ks, err := slicer.NewKnapsack(5)
		Expect(err).NotTo(HaveOccurred())
		e, err := slicer.NewCountQuotaEntry(cupel.KindDocument, 0, 1)
		Expect(err).NotTo(HaveOccurred())
		cq, err := slicer.NewCountQuota([]slicer.CountQuotaEntry{e}, slicer.NewGreedy(), slicer.ScarcityDegrade)
		Expect(err).NotTo(HaveOccurred())
		return map[string]cupel.Slicer{"greedy": slicer.NewGreedy(), "knapsack": ks, "count-quota": cq}
	}

	It("gives a collector that implements it the same events, and the DiagnosticTraceCollector the same events and report, as item by item", func() {
		r := rand.New(rand.NewPCG(35, 1))
		batched := 0
		for trial := range 200 {
			items := randomItems(r, 1+r.IntN(60))
			for name, sl := range slicers() {
				p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewReflexive(), Slicer: sl, Placer: placer.NewChronological(), Overflow: cupel.OverflowProceed})
				Expect(err).NotTo(HaveOccurred())
				budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 400, TargetTokens: 20 + r.IntN(300)})
				Expect(err).NotTo(HaveOccurred())
				var plain eventList
				var batches sliceBatches
				var observed []cupel.TraceEvent
				diag := cupel.NewDiagnosticTraceCollector(cupel.DetailItem, nil)
				watched := cupel.NewDiagnosticTraceCollector(cupel.DetailItem, func(e cupel.TraceEvent) { observed = append(observed, e) })
				stage := cupel.NewDiagnosticTraceCollector(cupel.DetailStage, nil)
				_, runErr := p.Run(items, budget, cupel.WithTrace(&plain))
				for _, c := range []cupel.TraceCollector{&batches, diag, watched, stage} {
					_, err := p.Run(items, budget, cupel.WithTrace(c))
					if runErr == nil {
						Expect(err).NotTo(HaveOccurred(), "trial %d %s", trial, name)
					} else {
						Expect(err).To(MatchError(runErr.Error()), "trial %d %s", trial, name)
					}
				}
				if runErr != nil {
					continue
				}
				want := withoutDurations(plain.events)
				Expect(withoutDurations(batches.events)).To(Equal(want), "trial %d %s", trial, name)
				Expect(withoutDurations(diag.Events())).To(Equal(want), "trial %d %s", trial, name)
				Expect(withoutDurations(watched.Events())).To(Equal(want), "trial %d %s", trial, name)
				Expect(withoutDurations(observed)).To(Equal(want), "trial %d %s", trial, name)
				var all []cupel.TraceEvent
				for e := range diag.All() {
					all = append(all, e)
				}
				Expect(withoutDurations(all)).To(Equal(want), "trial %d %s", trial, name)

				// The report of a collector fed item by item is the reference.
				ref := cupel.NewDiagnosticTraceCollector(cupel.DetailItem, nil)
				for _, e := range plain.events {
					if e.Item == nil {
						ref.RecordStageEvent(e)
					} else {
						ref.RecordItemEvent(e)
					}
				}
				got, wantRep := diag.Report(), ref.Report()
				Expect(withoutDurations(got.Events)).To(Equal(withoutDurations(wantRep.Events)))
				Expect(got.Included).To(Equal(wantRep.Included), "trial %d %s", trial, name)
				Expect(got.Excluded).To(Equal(wantRep.Excluded), "trial %d %s", trial, name)
				Expect(got.TotalCandidates).To(Equal(wantRep.TotalCandidates))
				Expect(got.TotalTokensConsidered).To(Equal(wantRep.TotalTokensConsidered))
				st := stage.Report()
				Expect(st.Included).To(Equal(wantRep.Included), "trial %d %s", trial, name)
				Expect(st.Excluded).To(Equal(wantRep.Excluded), "trial %d %s", trial, name)
				if name != "count-quota" {
					batched += batches.calls
				}
			}
		}
		Expect(batched).To(BeNumerically(">", 100)) // the batch path was taken
	})

	It("is not used for a Slice stage with count-quota cap exclusions", func() {
		e, err := slicer.NewCountQuotaEntry(cupel.KindDocument, 0, 1)
		Expect(err).NotTo(HaveOccurred())
		cq, err := slicer.NewCountQuota([]slicer.CountQuotaEntry{e}, slicer.NewGreedy(), slicer.ScarcityDegrade)
		Expect(err).NotTo(HaveOccurred())
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewReflexive(), Slicer: cq, Placer: placer.NewChronological()})
		Expect(err).NotTo(HaveOccurred())
		doc := func(c string) *cupel.ContextItem {
			h := 0.5
			return cupel.MustItem(cupel.ItemSpec{Content: c, Tokens: 10, Kind: cupel.KindDocument, FutureRelevanceHint: &h})
		}
		var batches sliceBatches
		_, err = p.Run([]*cupel.ContextItem{doc("a"), doc("b")}, budget(100, 100), cupel.WithTrace(&batches))
		Expect(err).NotTo(HaveOccurred())
		Expect(batches.calls).To(Equal(0))
		var reasons []cupel.ExclusionVariant
		for _, e := range batches.events {
			if e.Exclusion.Variant != "" {
				reasons = append(reasons, e.Exclusion.Variant)
			}
		}
		Expect(reasons).To(Equal([]cupel.ExclusionVariant{cupel.ExclusionCountCapExceeded}))
	})
})
