package cupel_test

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

// Tests for behaviour the conformance vectors cannot express (issue 16):
// stage durations, ContextItem.Spec, report decoding, the exclusion-reason
// accessors and custom placers (FindMinBudgetFor's search bounds are tested
// in package cupel/analysis).

// stSleepScorer scores by the futureRelevanceHint after sleeping once per
// scoring pass (it is called per item: it sleeps on the first item only).
type stSleepScorer struct{ d time.Duration }

func (s stSleepScorer) Score(it *cupel.ContextItem, all []*cupel.ContextItem) float64 {
	if len(all) > 0 && all[0] == it {
		time.Sleep(s.d)
	}
	h, _ := it.FutureRelevanceHint()
	return h
}

// stSleepSlicer is a GreedySlice that sleeps first.
type stSleepSlicer struct{ d time.Duration }

func (s stSleepSlicer) Slice(sorted []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	time.Sleep(s.d)
	return slicer.NewGreedy().Slice(sorted, b)
}

// stCountingScorer returns the hint and records "content/len(all)" per call.
type stCountingScorer struct{ calls *[]string }

func (s stCountingScorer) Score(it *cupel.ContextItem, all []*cupel.ContextItem) float64 {
	*s.calls = append(*s.calls, it.Content()+"/"+string(rune('0'+len(all))))
	h, _ := it.FutureRelevanceHint()
	return h
}

// stStages records stage events only.
type stStages struct{ events []cupel.TraceEvent }

func (c *stStages) Enabled() bool                       { return true }
func (c *stStages) RecordStageEvent(e cupel.TraceEvent) { c.events = append(c.events, e) }
func (c *stStages) RecordItemEvent(cupel.TraceEvent)    {}

// stReversePlacer is a custom placer (no PlacePositions fast path) that
// returns its input reversed, or what bad returns when set.
type stReversePlacer struct {
	got []cupel.ScoredItem
	bad func([]cupel.ScoredItem) []*cupel.ContextItem
}

func (p *stReversePlacer) Place(items []cupel.ScoredItem) []*cupel.ContextItem {
	p.got = slices.Clone(items)
	if p.bad != nil {
		return p.bad(items)
	}
	out := make([]*cupel.ContextItem, len(items))
	for i, si := range items {
		out[len(items)-1-i] = si.Item
	}
	return out
}

func stItem(content string, tokens int, hint float64) *cupel.ContextItem {
	return cupel.MustItem(cupel.ItemSpec{Content: content, Tokens: tokens, FutureRelevanceHint: cupel.Ptr(hint)})
}

func stBudget(maxTokens, target int) cupel.ContextBudget {
	b, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: maxTokens, TargetTokens: target})
	Expect(err).NotTo(HaveOccurred())
	return b
}

var _ = Describe("Suite strength (issue 16)", func() {
	Describe("stage events", func() {
		It("time each stage from its own start, in milliseconds", func() {
			const scoreSleep, sliceSleep = 30 * time.Millisecond, 500 * time.Millisecond
			p, err := cupel.NewPipeline(cupel.Policy{
				Scorer: stSleepScorer{scoreSleep},
				Slicer: stSleepSlicer{sliceSleep},
				Placer: placer.NewChronological(),
			})
			Expect(err).NotTo(HaveOccurred())
			items := []*cupel.ContextItem{stItem("a", 10, 0.9), stItem("b", 10, 0.5), stItem("c", -1, 0.1),
				cupel.MustItem(cupel.ItemSpec{Content: "pin", Tokens: 5, Pinned: true})}
			var c stStages
			_, err = p.Run(items, stBudget(100, 100), cupel.WithTrace(&c))
			Expect(err).NotTo(HaveOccurred())

			stages := make([]cupel.PipelineStage, len(c.events))
			byStage := map[cupel.PipelineStage]cupel.TraceEvent{}
			for i, e := range c.events {
				stages[i] = e.Stage
				byStage[e.Stage] = e
				Expect(e.DurationMs).To(BeNumerically(">=", 0), string(e.Stage))
				Expect(e.DurationMs).To(BeNumerically("<", 60_000), string(e.Stage)) // milliseconds, not ns
				Expect(e.Item).To(BeNil())
			}
			Expect(stages).To(Equal([]cupel.PipelineStage{cupel.StageClassify, cupel.StageScore,
				cupel.StageDeduplicate, cupel.StageSlice, cupel.StagePlace}))
			// ItemCount: the items the stage received.
			Expect(byStage[cupel.StageClassify].ItemCount).To(Equal(4))
			Expect(byStage[cupel.StageScore].ItemCount).To(Equal(2))
			Expect(byStage[cupel.StageDeduplicate].ItemCount).To(Equal(2))
			Expect(byStage[cupel.StageSlice].ItemCount).To(Equal(2))
			Expect(byStage[cupel.StagePlace].ItemCount).To(Equal(3))

			ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
			Expect(byStage[cupel.StageScore].DurationMs).To(BeNumerically(">=", ms(scoreSleep)))
			Expect(byStage[cupel.StageSlice].DurationMs).To(BeNumerically(">=", ms(sliceSleep)))
			// Stages after a slow one start their own clock.
			Expect(byStage[cupel.StagePlace].DurationMs).To(BeNumerically("<", ms(sliceSleep)))
			Expect(byStage[cupel.StageDeduplicate].DurationMs).To(BeNumerically("<", ms(sliceSleep)))
		})

		It("are not built when the collector is disabled", func() {
			p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewReflexive(), Slicer: slicer.NewGreedy(), Placer: placer.NewChronological()})
			Expect(err).NotTo(HaveOccurred())
			res, err := p.Run([]*cupel.ContextItem{stItem("a", 10, 0.5)}, stBudget(100, 100), cupel.WithTrace(cupel.NullTraceCollector{}))
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Items).To(HaveLen(1))
		})
	})

	Describe("ContextItem.Spec", func() {
		It("returns every field, so that NewItem(Spec()) rebuilds an equal item", func() {
			ts := time.Date(1500, 1, 2, 3, 4, 5, 6, time.UTC)
			spec := cupel.ItemSpec{
				Content: "c", Tokens: 42, Kind: "Document", Source: "Tool",
				Priority: cupel.Ptr(-7), Tags: []string{"x", "Y"},
				Metadata:  map[string]any{"cupel:trust": 0.5, "k": "v"},
				Timestamp: &ts, FutureRelevanceHint: cupel.Ptr(0.25), Pinned: true,
				OriginalTokens: cupel.Ptr(99),
			}
			it := cupel.MustItem(spec)
			Expect(it.Spec()).To(Equal(spec))
			again := cupel.MustItem(it.Spec())
			Expect(again.Spec()).To(Equal(spec))
			Expect(again).NotTo(BeIdenticalTo(it))
		})

		It("leaves optional fields absent when the item has none", func() {
			it := cupel.MustItem(cupel.ItemSpec{Content: "c", Tokens: 1})
			s := it.Spec()
			Expect(s.Priority).To(BeNil())
			Expect(s.Timestamp).To(BeNil())
			Expect(s.FutureRelevanceHint).To(BeNil())
			Expect(s.OriginalTokens).To(BeNil())
			Expect(s.Pinned).To(BeFalse())
			Expect(s.Kind).To(Equal(cupel.ContextKind("Message")))
			Expect(s.Source).To(Equal(cupel.ContextSource("Chat")))
		})

		It("hands out copies: changing the spec does not change the item", func() {
			it := cupel.MustItem(cupel.ItemSpec{Content: "c", Tokens: 1, Tags: []string{"a"},
				Metadata: map[string]any{"k": "v"}, Priority: cupel.Ptr(1), OriginalTokens: cupel.Ptr(2)})
			s := it.Spec()
			s.Tags[0] = "changed"
			s.Metadata["k"] = "changed"
			*s.Priority = 100
			*s.OriginalTokens = 100
			Expect(it.Tags()).To(Equal([]string{"a"}))
			Expect(it.Metadata()).To(Equal(map[string]any{"k": "v"}))
			p, _ := it.Priority()
			Expect(p).To(Equal(1))
			o, _ := it.OriginalTokens()
			Expect(o).To(Equal(2))
		})
	})

	Describe("exclusion reason accessors", func() {
		type fields struct {
			itemTokens, available, cap, actual, count, tokens int
			score, threshold                                  float64
			against, displacedBy, filter                      string
			kind, byKind                                      cupel.ContextKind
		}
		read := func(r cupel.ExclusionReason) fields {
			return fields{r.ItemTokens(), r.AvailableTokens(), r.Cap(), r.Actual(), r.Count(), r.Tokens(),
				r.Score(), r.Threshold(), r.DeduplicatedAgainst(), r.DisplacedBy(), r.FilterName(), r.Kind(), r.DisplacedByKind()}
		}
		DescribeTable("return the variant's own fields and zero for every other",
			func(r cupel.ExclusionReason, variant cupel.ExclusionVariant, want fields, text string) {
				Expect(r.Variant).To(Equal(variant))
				Expect(read(r)).To(Equal(want))
				Expect(r.Known()).To(BeTrue())
				Expect(r.UnknownFields()).To(BeEmpty())
				Expect(r.String()).To(Equal(text))
				// The JSON form round-trips to an equal reason.
				b, err := json.Marshal(r)
				Expect(err).NotTo(HaveOccurred())
				var back cupel.ExclusionReason
				Expect(json.Unmarshal(b, &back)).To(Succeed())
				Expect(back).To(Equal(r))
			},
			Entry("BudgetExceeded", cupel.BudgetExceeded(400, 50), cupel.ExclusionBudgetExceeded,
				fields{itemTokens: 400, available: 50}, "BudgetExceeded: 400 tokens requested, 50 available"),
			Entry("ScoredTooLow", cupel.ScoredTooLow(0.25, 0.5), cupel.ExclusionScoredTooLow,
				fields{score: 0.25, threshold: 0.5}, "ScoredTooLow: score 0.25 below threshold 0.5"),
			Entry("Deduplicated", cupel.Deduplicated("kept"), cupel.ExclusionDeduplicated,
				fields{against: "kept"}, `Deduplicated: duplicate of "kept"`),
			Entry("QuotaCapExceeded", cupel.QuotaCapExceeded("Document", 3, 4), cupel.ExclusionQuotaCapExceeded,
				fields{kind: "Document", cap: 3, actual: 4}, "QuotaCapExceeded: kind Document at 4 over cap 3"),
			Entry("QuotaRequireDisplaced", cupel.QuotaRequireDisplaced("Memory"), cupel.ExclusionQuotaRequireDisplaced,
				fields{byKind: "Memory"}, "QuotaRequireDisplaced: displaced by kind Memory"),
			Entry("NegativeTokens", cupel.NegativeTokens(-5), cupel.ExclusionNegativeTokens,
				fields{tokens: -5}, "NegativeTokens: -5 tokens"),
			Entry("PinnedOverride", cupel.PinnedOverride("sys"), cupel.ExclusionPinnedOverride,
				fields{displacedBy: "sys"}, `PinnedOverride: displaced by pinned item "sys"`),
			Entry("Filtered", cupel.Filtered("pii"), cupel.ExclusionFiltered,
				fields{filter: "pii"}, "Filtered: by pii"),
			Entry("CountCapExceeded", cupel.CountCapExceeded("ToolOutput", 2, 2), cupel.ExclusionCountCapExceeded,
				fields{kind: "ToolOutput", cap: 2, count: 2}, "CountCapExceeded: kind ToolOutput already has 2 of cap 2"),
		)

		It("keep an unknown variant's name and fields, and no known field", func() {
			r := cupel.UnknownExclusion("Vetoed", `{"by":"policy"}`)
			Expect(r.Known()).To(BeFalse())
			Expect(r.UnknownFields()).To(Equal(`{"by":"policy"}`))
			Expect(read(r)).To(Equal(fields{}))
			Expect(r.String()).To(Equal("Vetoed"))
		})
	})

	Describe("report decoding", func() {
		It("decodes a report written by another implementation: unknown stage, reasons and fields", func() {
			in := `{
			  "events": [{"stage":"Rerank","duration_ms":1.5,"item_count":3,"message":"m"},
			             {"stage":"Slice","duration_ms":"Infinity","item_count":2}],
			  "included": [{"item":{"content":"a","tokens":10},"score":"NaN","reason":{"reason":"Boosted"}}],
			  "excluded": [
			    {"item":{"content":"b","tokens":5},"score":"-Infinity","reason":{"reason":"Vetoed","zeta":1,"alpha":{"x":[1,2]}}},
			    {"item":{"content":"c","tokens":7},"score":0.5,"reason":{"reason":"ScoredTooLow","score":"NaN","threshold":"+Infinity"}},
			    {"item":{"content":"d","tokens":7},"score":0.5,"reason":{"reason":"BudgetExceeded","item_tokens":7,"extra":true}}
			  ],
			  "total_candidates": 4,
			  "total_tokens_considered": 29,
			  "count_requirement_shortfalls": [{"kind":"ToolOutput","required_count":2,"satisfied_count":1}],
			  "future_field": {"ignored": true}
			}`
			var r cupel.SelectionReport
			Expect(json.Unmarshal([]byte(in), &r)).To(Succeed())
			Expect(r.Events).To(HaveLen(2))
			Expect(r.Events[0]).To(Equal(cupel.TraceEvent{Stage: "Rerank", DurationMs: 1.5, ItemCount: 3, Message: "m"}))
			Expect(math.IsInf(r.Events[1].DurationMs, 1)).To(BeTrue())
			Expect(r.Included).To(HaveLen(1))
			Expect(r.Included[0].Reason).To(Equal(cupel.InclusionReason("Boosted")))
			Expect(math.IsNaN(r.Included[0].Score)).To(BeTrue())
			Expect(r.Included[0].Item.Content()).To(Equal("a"))

			Expect(r.Excluded).To(HaveLen(3))
			v := r.Excluded[0]
			Expect(math.IsInf(v.Score, -1)).To(BeTrue())
			Expect(v.Reason.Variant).To(Equal(cupel.ExclusionVariant("Vetoed")))
			Expect(v.Reason.Known()).To(BeFalse())
			Expect(v.Reason.UnknownFields()).To(MatchJSON(`{"zeta":1,"alpha":{"x":[1,2]}}`))
			s := r.Excluded[1].Reason
			Expect(math.IsNaN(s.Score())).To(BeTrue())
			Expect(math.IsInf(s.Threshold(), 1)).To(BeTrue())
			Expect(r.Excluded[2].Reason).To(Equal(cupel.BudgetExceeded(7, 0)))
			Expect(r.TotalCandidates).To(Equal(4))
			Expect(r.TotalTokensConsidered).To(Equal(29))
			Expect(r.CountRequirementShortfalls).To(HaveLen(1))

			// Written back, the unknown reason keeps its fields (sorted keys).
			out, err := json.Marshal(v.Reason)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(out)).To(Equal(`{"reason":"Vetoed","alpha":{"x":[1,2]},"zeta":1}`))
			// The whole report round-trips.
			b, err := json.Marshal(&r)
			Expect(err).NotTo(HaveOccurred())
			var again cupel.SelectionReport
			Expect(json.Unmarshal(b, &again)).To(Succeed())
			Expect(again.Excluded[0].Reason).To(Equal(v.Reason))
			Expect(again.Excluded[2].Reason).To(Equal(cupel.BudgetExceeded(7, 0)))
			Expect(again.Events[0]).To(Equal(r.Events[0]))
		})

		It("writes an unknown reason without fields as its name alone", func() {
			var r cupel.ExclusionReason
			Expect(json.Unmarshal([]byte(`{"reason":"Vetoed"}`), &r)).To(Succeed())
			Expect(r.UnknownFields()).To(BeEmpty())
			out, err := json.Marshal(r)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(out)).To(Equal(`{"reason":"Vetoed"}`))
		})

		It("writes the three lists of an empty report as empty arrays", func() {
			b, err := json.Marshal(&cupel.SelectionReport{})
			Expect(err).NotTo(HaveOccurred())
			Expect(b).To(MatchJSON(`{"events":[],"included":[],"excluded":[],"total_candidates":0,"total_tokens_considered":0}`))
		})

		DescribeTable("reject malformed reasons with an error naming what is wrong",
			func(in, want string) {
				var r cupel.ExclusionReason
				err := json.Unmarshal([]byte(in), &r)
				Expect(err).To(HaveOccurred())
				Expect(err.Error()).To(ContainSubstring(want))
			},
			Entry("no discriminator", `{"item_tokens":1}`, `missing "reason"`),
			Entry("empty discriminator", `{"reason":""}`, `missing "reason"`),
			Entry("not an object", `[1]`, "decoding ExclusionReason"),
			Entry("a field of the wrong type", `{"reason":"BudgetExceeded","item_tokens":"many"}`, "BudgetExceeded.item_tokens"),
			Entry("a bad float name", `{"reason":"ScoredTooLow","score":"Lots"}`, `invalid number "Lots"`),
		)

		It("rejects malformed reports, items and events", func() {
			var r cupel.SelectionReport
			Expect(json.Unmarshal([]byte(`{"events":7}`), &r)).To(MatchError(ContainSubstring("decoding SelectionReport")))
			var e cupel.TraceEvent
			Expect(json.Unmarshal([]byte(`{"stage":1}`), &e)).To(MatchError(ContainSubstring("decoding TraceEvent")))
			var in cupel.IncludedItem
			Expect(json.Unmarshal([]byte(`{"score":"x"}`), &in)).To(MatchError(ContainSubstring("decoding IncludedItem")))
			var ex cupel.ExcludedItem
			Expect(json.Unmarshal([]byte(`{"reason":{}}`), &ex)).To(MatchError(ContainSubstring("decoding ExcludedItem")))
		})
	})

	// The engine's side of the vector
	// optional/pipeline/pipeline-count-quota-count-requirement-shortfalls,
	// whose count_requirement_shortfalls key the runner may not read yet.
	It("carries count-quota shortfalls on the report, in entry order", func() {
		entry := func(k cupel.ContextKind, req, capCount int) slicer.CountQuotaEntry {
			e, err := slicer.NewCountQuotaEntry(k, req, capCount)
			Expect(err).NotTo(HaveOccurred())
			return e
		}
		sl, err := slicer.NewCountQuota([]slicer.CountQuotaEntry{
			entry("ToolOutput", 2, 2), entry("Document", 1, 2), entry("Memory", 2, 3),
		}, slicer.NewGreedy(), slicer.ScarcityDegrade)
		Expect(err).NotTo(HaveOccurred())
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewReflexive(), Slicer: sl, Placer: placer.NewChronological()})
		Expect(err).NotTo(HaveOccurred())
		mk := func(content string, kind cupel.ContextKind, hint float64, day int) *cupel.ContextItem {
			return cupel.MustItem(cupel.ItemSpec{Content: content, Tokens: 100, Kind: kind, FutureRelevanceHint: cupel.Ptr(hint),
				Timestamp: cupel.Ptr(time.Date(2024, 6, day, 0, 0, 0, 0, time.UTC))})
		}
		items := []*cupel.ContextItem{mk("m1", "", 0.9, 1), mk("d1", "Document", 0.8, 2), mk("d2", "Document", 0.7, 3),
			mk("mem", "Memory", 0.6, 4), mk("m2", "", 0.5, 5)}
		res, rep, err := dryRun(p, items, stBudget(1000, 1000))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Items).To(Equal(items))
		want := []cupel.CountRequirementShortfall{{Kind: "ToolOutput", RequiredCount: 2, SatisfiedCount: 0}, {Kind: "Memory", RequiredCount: 2, SatisfiedCount: 1}}
		Expect(rep.CountRequirementShortfalls).To(Equal(want))
		Expect(res.Shortfalls).To(Equal(want))
		b, err := json.Marshal(rep)
		Expect(err).NotTo(HaveOccurred())
		var wire struct {
			S []map[string]any `json:"count_requirement_shortfalls"`
		}
		Expect(json.Unmarshal(b, &wire)).To(Succeed())
		Expect(wire.S).To(Equal([]map[string]any{
			{"kind": "ToolOutput", "required_count": 2.0, "satisfied_count": 0.0},
			{"kind": "Memory", "required_count": 2.0, "satisfied_count": 1.0},
		}))
	})

	// The engine's side of the vector
	// optional/pipeline/pipeline-count-constrained-knapsack-count-requirement-shortfalls.
	It("carries count-constrained knapsack shortfalls on the report, in entry order", func() {
		doc, err := slicer.NewCountQuotaEntry("Document", 2, 3)
		Expect(err).NotTo(HaveOccurred())
		mem, err := slicer.NewCountQuotaEntry("Memory", 1, 1)
		Expect(err).NotTo(HaveOccurred())
		ks, err := slicer.NewKnapsack(100)
		Expect(err).NotTo(HaveOccurred())
		sl, err := slicer.NewCountConstrainedKnapsack([]slicer.CountQuotaEntry{doc, mem}, ks, slicer.ScarcityDegrade)
		Expect(err).NotTo(HaveOccurred())
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewReflexive(), Slicer: sl, Placer: placer.NewChronological()})
		Expect(err).NotTo(HaveOccurred())
		mk := func(content string, tokens int, kind cupel.ContextKind, hint float64, day int) *cupel.ContextItem {
			return cupel.MustItem(cupel.ItemSpec{Content: content, Tokens: tokens, Kind: kind, FutureRelevanceHint: cupel.Ptr(hint),
				Timestamp: cupel.Ptr(time.Date(2024, 6, day, 0, 0, 0, 0, time.UTC))})
		}
		d1, m1, m2, m3 := mk("d1", 100, "Document", 0.9, 3), mk("m1", 100, "", 0.8, 1), mk("m2", 200, "", 0.7, 2), mk("m3", 300, "", 0.6, 4)
		res, rep, err := dryRun(p, []*cupel.ContextItem{d1, m1, m2, m3}, stBudget(1000, 500))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Items).To(Equal([]*cupel.ContextItem{m1, m2, d1}))
		Expect(rep.CountRequirementShortfalls).To(Equal([]cupel.CountRequirementShortfall{
			{Kind: "Document", RequiredCount: 2, SatisfiedCount: 1}, {Kind: "Memory", RequiredCount: 1, SatisfiedCount: 0}}))
	})

	// Below the millisecond precision the vectors may rely on (spec chapter
	// 02 allows Unix-millisecond representations): the ends of the int64
	// Unix-nanosecond range, where a nanosecond key could collide with the
	// key of "no timestamp" or overflow.
	Describe("instants at the ends of the int64 Unix-nanosecond range", func() {
		last, first := time.Unix(0, math.MaxInt64).UTC(), time.Unix(0, math.MinInt64).UTC()
		at := func(content string, t *time.Time) *cupel.ContextItem {
			return cupel.MustItem(cupel.ItemSpec{Content: content, Tokens: 1, Timestamp: t})
		}
		It("are placed by instant, before the items without a timestamp", func() {
			items := []*cupel.ContextItem{
				at("none", nil), at("last", &last), at("last+1ns", cupel.Ptr(last.Add(1))), at("last-1ns", cupel.Ptr(last.Add(-1))),
				at("first", &first), at("first-1ns", cupel.Ptr(first.Add(-1))), at("none2", nil),
			}
			in := make([]cupel.ScoredItem, len(items))
			for i, it := range items {
				in[i] = cupel.ScoredItem{Item: it, Score: 0.5}
			}
			var got []string
			for _, it := range placer.NewChronological().Place(in) {
				got = append(got, it.Content())
			}
			Expect(got).To(Equal([]string{"first-1ns", "first", "last-1ns", "last", "last+1ns", "none", "none2"}))
		})

		It("are ranked by instant", func() {
			items := []*cupel.ContextItem{at("last", &last), at("last+1ns", cupel.Ptr(last.Add(1))), at("first", &first),
				at("first-1ns", cupel.Ptr(first.Add(-1))), at("none", nil)}
			out := cupel.ScoreBatch(scorer.NewRecency(), items, nil)
			Expect(out).To(Equal([]float64{2.0 / 3, 1, 1.0 / 3, 0, 0}))
			for i, it := range items {
				Expect(scorer.NewRecency().Score(it, items)).To(Equal(out[i]), it.Content())
			}
		})
	})

	Describe("ScoreBatch with a custom scorer (no ScoreAll)", func() {
		It("scores each item against all, gives nil items 0 without calling the scorer, and sizes out", func() {
			var calls []string
			s := stCountingScorer{calls: &calls}
			a, b := stItem("a", 10, 0.25), stItem("b", 10, 0.75)
			items := []*cupel.ContextItem{a, nil, b}
			out := cupel.ScoreBatch(s, items, []float64{9, 9, 9, 9, 9})
			Expect(out).To(Equal([]float64{0.25, 0, 0.75}))
			Expect(calls).To(Equal([]string{"a/3", "b/3"}))
			short := make([]float64, 1)
			out = cupel.ScoreBatch(s, items, short)
			Expect(out).To(Equal([]float64{0.25, 0, 0.75}))
			Expect(cupel.ScoreBatch(s, nil, nil)).To(BeEmpty())
		})
	})

	Describe("a custom placer (no PlacePositions)", func() {
		build := func(pl cupel.Placer) *cupel.Pipeline {
			p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewReflexive(), Slicer: slicer.NewGreedy(), Placer: pl, DisableDeduplication: true})
			Expect(err).NotTo(HaveOccurred())
			return p
		}

		It("receives the merged list and its output order is kept, with each item's score", func() {
			pl := &stReversePlacer{}
			p := build(pl)
			pin := cupel.MustItem(cupel.ItemSpec{Content: "pin", Tokens: 5, Pinned: true})
			a, b, c := stItem("a", 10, 0.3), stItem("b", 10, 0.9), stItem("c", 10, 0.6)
			res, rep, err := dryRun(p, []*cupel.ContextItem{a, pin, b, c}, stBudget(100, 100))
			Expect(err).NotTo(HaveOccurred())
			// Merged: pinned first, then Sort order (ruling 13).
			Expect(pl.got).To(Equal([]cupel.ScoredItem{{Item: pin, Score: 1}, {Item: b, Score: 0.9}, {Item: c, Score: 0.6}, {Item: a, Score: 0.3}}))
			Expect(res.Items).To(Equal([]*cupel.ContextItem{a, c, b, pin}))
			Expect(res.Scores).To(Equal([]float64{0.3, 0.6, 0.9, 1}))
			Expect(res.TotalTokens).To(Equal(35))
			Expect(rep.Included).To(HaveLen(4))
			Expect(rep.Included[0].Item).To(BeIdenticalTo(a))
			Expect(rep.Included[0].Score).To(Equal(0.3))
			Expect(rep.Included[3].Reason).To(Equal(cupel.InclusionPinned))
		})

		It("matches a pointer given twice to both of its positions", func() {
			pl := &stReversePlacer{}
			p := build(pl)
			a, b := stItem("a", 10, 0.4), stItem("b", 10, 0.8)
			res, err := p.Run([]*cupel.ContextItem{a, b, a}, stBudget(100, 100))
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Items).To(Equal([]*cupel.ContextItem{a, a, b}))
			Expect(res.Scores).To(Equal([]float64{0.4, 0.4, 0.8}))
		})

		DescribeTable("is rejected when its output is not a permutation of its input",
			func(bad func([]cupel.ScoredItem) []*cupel.ContextItem) {
				p := build(&stReversePlacer{bad: bad})
				a, b := stItem("a", 10, 0.4), stItem("b", 10, 0.8)
				_, err := p.Run([]*cupel.ContextItem{a, b}, stBudget(100, 100))
				Expect(errors.Is(err, cupel.ErrInvalidConfig)).To(BeTrue())
				Expect(err.Error()).To(ContainSubstring("permutation"))
			},
			Entry("too short", func(in []cupel.ScoredItem) []*cupel.ContextItem { return []*cupel.ContextItem{in[0].Item} }),
			Entry("too long", func(in []cupel.ScoredItem) []*cupel.ContextItem {
				return []*cupel.ContextItem{in[0].Item, in[1].Item, in[0].Item}
			}),
			Entry("an item twice", func(in []cupel.ScoredItem) []*cupel.ContextItem {
				return []*cupel.ContextItem{in[1].Item, in[1].Item}
			}),
			Entry("an item not in the input", func(in []cupel.ScoredItem) []*cupel.ContextItem {
				return []*cupel.ContextItem{in[0].Item, stItem("x", 1, 0)}
			}),
			Entry("nil", func(in []cupel.ScoredItem) []*cupel.ContextItem { return []*cupel.ContextItem{in[0].Item, nil} }),
		)
	})
})
