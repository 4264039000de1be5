package cupel_test

import (
	"encoding/json"
	"errors"
	"math"

	"github.com/cupel-go/go-cupel/cupel"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Test doubles: a scorer reading scores from a table, a slicer that takes
// items in the order given while they fit, and a placer keeping merged order.

type tableScorer map[string]float64

func (t tableScorer) Score(it *cupel.ContextItem, _ []*cupel.ContextItem) float64 {
	return t[it.Content()]
}

type inOrderSlicer struct {
	got     []cupel.ScoredItem
	budget  cupel.ContextBudget
	reverse bool
}

func (s *inOrderSlicer) Slice(sorted []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	s.got, s.budget = append([]cupel.ScoredItem(nil), sorted...), b
	var out []*cupel.ContextItem
	left := b.TargetTokens()
	for _, si := range sorted {
		if si.Item.Tokens() <= left {
			out = append(out, si.Item)
			left -= si.Item.Tokens()
		}
	}
	if s.reverse {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return out, nil
}

type keepOrderPlacer struct{ got []cupel.ScoredItem }

func (p *keepOrderPlacer) Place(items []cupel.ScoredItem) []*cupel.ContextItem {
	p.got = append([]cupel.ScoredItem(nil), items...)
	out := make([]*cupel.ContextItem, len(items))
	for i, si := range items {
		out[i] = si.Item
	}
	return out
}

type errSlicer struct{ err error }

func (s errSlicer) Slice([]cupel.ScoredItem, cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	return nil, s.err
}

type foreignSlicer struct{}

func (foreignSlicer) Slice([]cupel.ScoredItem, cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	return []*cupel.ContextItem{cupel.MustItem(cupel.ItemSpec{Content: "stranger", Tokens: 1})}, nil
}

// countingScorer scores every item 0.5 and records each call: the item
// scored and the list it was scored against.
type countingScorer struct {
	items []*cupel.ContextItem
	peers [][]*cupel.ContextItem
}

func (c *countingScorer) Score(it *cupel.ContextItem, all []*cupel.ContextItem) float64 {
	c.items = append(c.items, it)
	c.peers = append(c.peers, append([]*cupel.ContextItem(nil), all...))
	return 0.5
}

type dropPlacer struct{}

func (dropPlacer) Place(items []cupel.ScoredItem) []*cupel.ContextItem { return nil }

func item(content string, tokens int) *cupel.ContextItem {
	return cupel.MustItem(cupel.ItemSpec{Content: content, Tokens: tokens})
}

func pinnedItem(content string, tokens int) *cupel.ContextItem {
	return cupel.MustItem(cupel.ItemSpec{Content: content, Tokens: tokens, Pinned: true})
}

func budget(maxT, target int) cupel.ContextBudget {
	b, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: maxT, TargetTokens: target})
	Expect(err).NotTo(HaveOccurred())
	return b
}

func contents(items []*cupel.ContextItem) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.Content()
	}
	return out
}

type excl struct {
	Content string
	Score   float64
	Reason  cupel.ExclusionReason
}

func excludedOf(r *cupel.SelectionReport) []excl {
	out := make([]excl, len(r.Excluded))
	for i, e := range r.Excluded {
		out[i] = excl{e.Item.Content(), e.Score, e.Reason}
	}
	return out
}

var _ = Describe("Pipeline", func() {
	var (
		scores tableScorer
		slicer *inOrderSlicer
		placer *keepOrderPlacer
		cfg    cupel.Policy
	)
	BeforeEach(func() {
		scores = tableScorer{}
		slicer = &inOrderSlicer{}
		placer = &keepOrderPlacer{}
		cfg = cupel.Policy{Scorer: scores, Slicer: slicer, Placer: placer}
	})
	build := func() *cupel.Pipeline {
		p, err := cupel.NewPipeline(cfg)
		Expect(err).NotTo(HaveOccurred())
		return p
	}

	Describe("construction", func() {
		It("requires a scorer, slicer and placer, typed nils included", func() {
			var nilSlicer *inOrderSlicer
			for _, c := range []cupel.Policy{
				{Slicer: slicer, Placer: placer},
				{Scorer: scores, Placer: placer},
				{Scorer: scores, Slicer: slicer},
				{Scorer: scores, Slicer: nilSlicer, Placer: placer},
				{Scorer: scores, Slicer: slicer, Placer: placer, Overflow: cupel.OverflowStrategy(7)},
			} {
				_, err := cupel.NewPipeline(c)
				Expect(err).To(MatchError(cupel.ErrInvalidConfig))
			}
		})
		It("deduplicates and throws by default", func() {
			c := build().Config()
			Expect(c.DisableDeduplication).To(BeFalse())
			Expect(c.Overflow).To(Equal(cupel.OverflowThrow))
		})
	})

	Describe("Classify", func() {
		It("excludes negative-token items before the pinned check and keeps input order", func() {
			scores["a"], scores["b"], scores["c"] = 0.1, 0.2, 0.3
			items := []*cupel.ContextItem{item("a", 1), pinnedItem("neg", -1), item("b", 2), pinnedItem("p", 3), item("c", -7), item("d", 0)}
			res, rep, err := dryRun(build(), items, budget(100, 100))
			Expect(err).NotTo(HaveOccurred())
			Expect(contents(res.Items)).To(Equal([]string{"p", "b", "a", "d"}))
			Expect(rep.TotalCandidates).To(Equal(6))
			Expect(rep.TotalTokensConsidered).To(Equal(1 + (-1) + 2 + 3 + (-7) + 0))
			Expect(excludedOf(rep)).To(Equal([]excl{
				{"neg", 0, cupel.NegativeTokens(-1)},
				{"c", 0, cupel.NegativeTokens(-7)},
			}))
		})
		It("fails when pinned tokens exceed maxTokens - outputReserve", func() {
			b, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 100, TargetTokens: 50, OutputReserve: 40})
			_, err := build().Run([]*cupel.ContextItem{pinnedItem("p1", 30), pinnedItem("p2", 31)}, b)
			Expect(err).To(MatchError(cupel.ErrPinnedExceedsBudget))
			var pe *cupel.PinnedExceedsBudgetError
			Expect(errors.As(err, &pe)).To(BeTrue())
			Expect(*pe).To(Equal(cupel.PinnedExceedsBudgetError{PinnedTokens: 61, Available: 60}))
			Expect(err.Error()).To(ContainSubstring("pinned items require 61 tokens, but only 60 are available"))
		})
		It("does not subtract reserved slots in the pinned check (ruling 11)", func() {
			b, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 100, TargetTokens: 100, ReservedSlots: map[cupel.ContextKind]int{"Document": 50}})
			res, err := build().Run([]*cupel.ContextItem{pinnedItem("p", 100)}, b)
			Expect(err).NotTo(HaveOccurred())
			Expect(contents(res.Items)).To(Equal([]string{"p"}))
		})
		It("rejects a nil item, naming its index", func() {
			_, err := build().Run([]*cupel.ContextItem{item("a", 1), nil}, budget(10, 10))
			Expect(err).To(MatchError(cupel.ErrInvalidItem))
			Expect(validationField(err)).To(Equal("items[1]"))
		})
		It("reports token sums that overflow int instead of wrapping", func() {
			_, err := build().Run([]*cupel.ContextItem{item("a", math.MaxInt), item("b", 1)}, budget(10, 10))
			Expect(err).To(MatchError(cupel.ErrTokenOverflow))
			_, err = build().Run([]*cupel.ContextItem{item("a", math.MinInt), item("b", -1)}, budget(10, 10))
			Expect(err).To(MatchError(cupel.ErrTokenOverflow))
		})
		It("handles empty input", func() {
			res, rep, err := dryRun(build(), nil, budget(10, 10))
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Items).To(BeEmpty())
			Expect(rep.TotalCandidates).To(BeZero())
			Expect(rep.Events).To(HaveLen(5))
		})
	})

	Describe("Deduplicate", func() {
		It("keeps the highest score, the lowest index on ties, byte-exact", func() {
			a1, a2, a3 := item("same", 1), item("same", 2), item("same", 3)
			b1, b2 := item("Same", 1), item("same ", 1)
			scorer := &identityScorer{scores: map[*cupel.ContextItem]float64{a1: 0.5, a2: 0.9, a3: 0.9, b1: 0.1, b2: 0.1}}
			cfg.Scorer = scorer
			res, rep, err := dryRun(build(), []*cupel.ContextItem{a1, a2, a3, b1, b2}, budget(100, 100))
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Items).To(Equal([]*cupel.ContextItem{a2, b1, b2}))
			Expect(excludedOf(rep)).To(Equal([]excl{
				{"same", 0.9, cupel.Deduplicated("same")},
				{"same", 0.5, cupel.Deduplicated("same")},
			}))
			Expect(rep.Excluded[0].Item).To(BeIdenticalTo(a3))
			Expect(rep.Excluded[1].Item).To(BeIdenticalTo(a1))
		})
		It("lets any number beat NaN", func() {
			a1, a2 := item("x", 1), item("x", 1)
			cfg.Scorer = &identityScorer{scores: map[*cupel.ContextItem]float64{a1: math.NaN(), a2: 0.0}}
			res, err := build().Run([]*cupel.ContextItem{a1, a2}, budget(10, 10))
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Items).To(Equal([]*cupel.ContextItem{a2}))
		})
		It("can be disabled", func() {
			cfg.DisableDeduplication = true
			res, err := build().Run([]*cupel.ContextItem{item("x", 1), item("x", 1)}, budget(10, 10))
			Expect(err).NotTo(HaveOccurred())
			Expect(contents(res.Items)).To(Equal([]string{"x", "x"}))
		})
	})

	Describe("Score", func() {
		It("calls the scorer once per scoreable item, against the whole scoreable list only (spec chapter 08)", func() {
			counter := &countingScorer{}
			cfg.Scorer = counter
			a, b, c := item("a", 1), item("b", 1), item("c", 1)
			items := []*cupel.ContextItem{a, pinnedItem("p", 1), b, item("neg", -1), c}
			_, err := build().Run(items, budget(100, 100))
			Expect(err).NotTo(HaveOccurred())
			Expect(counter.items).To(HaveExactElements(identicalTo([]*cupel.ContextItem{a, b, c})...))
			for _, peers := range counter.peers {
				Expect(peers).To(HaveExactElements(identicalTo([]*cupel.ContextItem{a, b, c})...))
			}
		})
		It("does not call the scorer when nothing is scoreable", func() {
			counter := &countingScorer{}
			cfg.Scorer = counter
			res, err := build().Run([]*cupel.ContextItem{pinnedItem("p", 1), item("neg", -1)}, budget(100, 100))
			Expect(err).NotTo(HaveOccurred())
			Expect(contents(res.Items)).To(Equal([]string{"p"}))
			Expect(counter.items).To(BeEmpty())
		})
		It("returns the caller's items, metadata intact, and ignores originalTokens (spec chapter 02)", func() {
			scores["a"], scores["b"] = 0.9, 0.1
			md := map[string]any{"k": "v", "cupel:trust": "0.2"}
			a := cupel.MustItem(cupel.ItemSpec{Content: "a", Tokens: 60, Metadata: md, OriginalTokens: cupel.Ptr(1)})
			b := cupel.MustItem(cupel.ItemSpec{Content: "b", Tokens: 40, Metadata: md, OriginalTokens: cupel.Ptr(1)})
			res, err := build().Run([]*cupel.ContextItem{a, b}, budget(100, 70))
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Items).To(HaveExactElements(BeIdenticalTo(a)))
			Expect(res.Items[0].Metadata()).To(Equal(md))
			plain := []*cupel.ContextItem{item("a", 60), item("b", 40)}
			res2, err := build().Run(plain, budget(100, 70))
			Expect(err).NotTo(HaveOccurred())
			Expect(contents(res2.Items)).To(Equal(contents(res.Items)))
		})
	})

	Describe("Sort and Slice", func() {
		It("hands the slicer a stable score-descending list (NaN last) and the effective budget", func() {
			scores["a"], scores["b"], scores["c"], scores["d"], scores["e"] = 0.5, 0.9, 0.5, math.NaN(), 0.9
			items := []*cupel.ContextItem{item("a", 1), item("b", 1), item("c", 1), item("d", 1), item("e", 1), pinnedItem("p", 10)}
			b, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 1000, TargetTokens: 800, OutputReserve: 100, ReservedSlots: map[cupel.ContextKind]int{"Memory": 50}, EstimationSafetyMarginPercent: 10})
			_, err := build().Run(items, b)
			Expect(err).NotTo(HaveOccurred())
			var got []string
			for _, si := range slicer.got {
				got = append(got, si.Item.Content())
			}
			Expect(got).To(Equal([]string{"b", "e", "a", "c", "d"}))
			// max = 1000-100-10-50 = 840 -> floor(756.0) = 756; target = 800-10-50 = 740 -> floor(666.0) = 666.
			Expect(slicer.budget.MaxTokens()).To(Equal(756))
			Expect(slicer.budget.TargetTokens()).To(Equal(666))
			// Only maxTokens and targetTokens are passed on (spec chapter 11).
			Expect(slicer.budget.OutputReserve()).To(BeZero())
			Expect(slicer.budget.ReservedSlots()).To(BeEmpty())
			Expect(slicer.budget.EstimationSafetyMarginPercent()).To(BeZero())
		})
		It("merges pinned items first (score 1.0) and sliced items in Sort-stage order whatever the slicer's order (ruling 13)", func() {
			slicer.reverse = true
			scores["a"], scores["b"], scores["c"] = 0.2, 0.9, 0.5
			items := []*cupel.ContextItem{item("a", 1), pinnedItem("p1", 1), item("b", 1), pinnedItem("p2", 1), item("c", 1)}
			_, err := build().Run(items, budget(100, 100))
			Expect(err).NotTo(HaveOccurred())
			var got []string
			var gotScores []float64
			for _, si := range placer.got {
				got = append(got, si.Item.Content())
				gotScores = append(gotScores, si.Score)
			}
			Expect(got).To(Equal([]string{"p1", "p2", "b", "c", "a"}))
			Expect(gotScores).To(Equal([]float64{1, 1, 0.9, 0.5, 0.2}))
		})
		It("propagates slicer errors and rejects items the slicer invented", func() {
			boom := errors.New("boom")
			cfg.Slicer = errSlicer{boom}
			_, err := build().Run([]*cupel.ContextItem{item("a", 1)}, budget(10, 10))
			Expect(err).To(MatchError(boom))
			cfg.Slicer = foreignSlicer{}
			_, err = build().Run([]*cupel.ContextItem{item("a", 1)}, budget(10, 10))
			Expect(err).To(MatchError(cupel.ErrInvalidConfig))
		})
		It("explains slice exclusions as BudgetExceeded or PinnedOverride (rulings 2 and 3)", func() {
			scores["big"], scores["mid"], scores["small"], scores["fit"] = 0.9, 0.8, 0.7, 0.6
			items := []*cupel.ContextItem{pinnedItem("sys", 40), pinnedItem("sys2", 10), item("big", 70), item("mid", 45), item("small", 5), item("fit", 20)}
			// effective target = 100 - 50 = 50; without pinned it would be 100.
			// Slicer (in order): big 70 > 50 no; mid 45 <= 50 yes (left 5); small 5 yes (left 0); fit 20 no.
			_, rep, err := dryRun(build(), items, budget(200, 100))
			Expect(err).NotTo(HaveOccurred())
			Expect(excludedOf(rep)).To(Equal([]excl{
				{"big", 0.9, cupel.PinnedOverride("sys")},
				{"fit", 0.6, cupel.BudgetExceeded(20, 0)},
			}))
		})
	})

	Describe("Place and overflow", func() {
		over := func() []*cupel.ContextItem {
			scores["a"], scores["b"], scores["c"] = 0.9, 0.5, 0.1
			return []*cupel.ContextItem{pinnedItem("p", 60), item("a", 30), item("b", 20), item("c", 10)}
		}
		BeforeEach(func() {
			// A slicer that ignores the budget, to force overflow.
			cfg.Slicer = slicerFunc(func(sorted []cupel.ScoredItem, _ cupel.ContextBudget) ([]*cupel.ContextItem, error) {
				out := make([]*cupel.ContextItem, len(sorted))
				for i, si := range sorted {
					out[i] = si.Item
				}
				return out, nil
			})
		})
		It("throws by default, against the original target", func() {
			_, err := build().Run(over(), budget(200, 100))
			Expect(err).To(MatchError(cupel.ErrOverflow))
			var oe *cupel.OverflowError
			Expect(errors.As(err, &oe)).To(BeTrue())
			Expect(*oe).To(Equal(cupel.OverflowError{MergedTokens: 120, TargetTokens: 100}))
		})
		It("truncates from the tail, never dropping pinned items, explaining each drop", func() {
			cfg.Overflow = cupel.OverflowTruncate
			res, rep, err := dryRun(build(), over(), budget(200, 80))
			Expect(err).NotTo(HaveOccurred())
			// merged p(60) a(30) b(20) c(10); target 80: a 90 > 80 drop; b 80 keep; c 90 drop.
			Expect(contents(res.Items)).To(Equal([]string{"p", "b"}))
			Expect(res.TotalTokens).To(Equal(80))
			// a would fit counting only non-pinned kept (0+30 <= 80): PinnedOverride.
			// c: non-pinned kept = 20, 20+10 <= 80: PinnedOverride too.
			Expect(excludedOf(rep)).To(Equal([]excl{
				{"a", 0.9, cupel.PinnedOverride("p")},
				{"c", 0.1, cupel.PinnedOverride("p")},
			}))
		})
		It("truncation without pinned items reports BudgetExceeded with what is left", func() {
			cfg.Overflow = cupel.OverflowTruncate
			scores["a"], scores["b"], scores["c"] = 0.9, 0.5, 0.1
			res, rep, err := dryRun(build(), []*cupel.ContextItem{item("a", 30), item("b", 50), item("c", 15)}, budget(200, 60))
			Expect(err).NotTo(HaveOccurred())
			Expect(contents(res.Items)).To(Equal([]string{"a", "c"}))
			Expect(excludedOf(rep)).To(Equal([]excl{{"b", 0.5, cupel.BudgetExceeded(50, 15)}}))
		})
		It("proceeds, reporting the overflow to the observer", func() {
			cfg.Overflow = cupel.OverflowProceed
			var seen []cupel.OverflowEvent
			res, err := build().Run(over(), budget(200, 100), cupel.WithOnOverflow(func(e cupel.OverflowEvent) { seen = append(seen, e) }))
			Expect(err).NotTo(HaveOccurred())
			Expect(contents(res.Items)).To(Equal([]string{"p", "a", "b", "c"}))
			Expect(seen).To(HaveLen(1))
			Expect(seen[0].TokensOverBudget).To(Equal(20))
			Expect(contents(seen[0].OverflowingItems)).To(Equal([]string{"p", "a", "b", "c"}))
			Expect(seen[0].Budget.TargetTokens()).To(Equal(100))
			Expect(res.Overflow).NotTo(BeNil())
			Expect(res.Overflow.TokensOverBudget).To(Equal(20))
		})
		It("rejects a placer that does not return a permutation", func() {
			cfg.Placer = dropPlacer{}
			_, err := build().Run([]*cupel.ContextItem{item("a", 1)}, budget(10, 10))
			Expect(err).To(MatchError(cupel.ErrInvalidConfig))
		})
	})

	Describe("the report", func() {
		It("lists inclusions in placed order with their reasons and scores (ruling 1)", func() {
			scores["a"], scores["z"] = 0.4, 0.7
			items := []*cupel.ContextItem{item("a", 5), pinnedItem("p", 0), item("z", 0)}
			res, rep, err := dryRun(build(), items, budget(10, 10))
			Expect(err).NotTo(HaveOccurred())
			Expect(contents(res.Items)).To(Equal([]string{"p", "z", "a"}))
			Expect(res.Scores).To(Equal([]float64{1, 0.7, 0.4}))
			Expect(rep.Included).To(HaveLen(3))
			Expect(rep.Included[0].Reason).To(Equal(cupel.InclusionPinned))
			Expect(rep.Included[0].Score).To(Equal(1.0))
			Expect(rep.Included[1].Reason).To(Equal(cupel.InclusionZeroToken))
			Expect(rep.Included[1].Score).To(Equal(0.7))
			Expect(rep.Included[2].Reason).To(Equal(cupel.InclusionScored))
		})
		It("orders exclusions by score, ties in insertion order Classify -> Dedup -> Slice -> Truncate (ruling 6)", func() {
			cfg.Overflow = cupel.OverflowTruncate
			cfg.Slicer = slicerFunc(func(sorted []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
				var out []*cupel.ContextItem
				for _, si := range sorted {
					if si.Item.Content() != "sliced-out" {
						out = append(out, si.Item)
					}
				}
				return out, nil
			})
			d1, d2 := item("dup", 1), item("dup", 1)
			cfg.Scorer = &identityScorer{scores: map[*cupel.ContextItem]float64{d1: 0, d2: 0}, byContent: map[string]float64{"sliced-out": 0, "kept": 0.5, "trunc": 0, "nan": math.NaN()}}
			items := []*cupel.ContextItem{item("nan", 1), item("trunc", 50), item("sliced-out", 1), d1, d2, item("neg", -1), item("kept", 10)}
			_, rep, err := dryRun(build(), items, budget(100, 12))
			Expect(err).NotTo(HaveOccurred())
			var got []string
			for _, e := range rep.Excluded {
				got = append(got, e.Item.Content()+":"+string(e.Reason.Variant))
			}
			Expect(got).To(Equal([]string{"neg:NegativeTokens", "dup:Deduplicated", "sliced-out:BudgetExceeded", "trunc:BudgetExceeded"}))
			Expect(rep.Included).To(HaveLen(3))
			Expect(rep.Included[2].Item.Content()).To(Equal("nan"))
		})
		It("emits exactly one stage event per named stage, after its item events", func() {
			scores["a"] = 0.5
			c := cupel.NewDiagnosticTraceCollector(cupel.DetailItem, nil)
			_, err := build().Run([]*cupel.ContextItem{item("a", 1), item("n", -1), item("big", 100)}, budget(10, 10), cupel.WithTrace(c))
			Expect(err).NotTo(HaveOccurred())
			var seq []string
			for _, e := range c.Events() {
				if e.Item != nil {
					Expect(e.DurationMs).To(BeZero())
					Expect(e.ItemCount).To(Equal(1))
					seq = append(seq, "item:"+string(e.Stage))
				} else {
					Expect(e.DurationMs).To(BeNumerically(">=", 0))
					seq = append(seq, string(e.Stage))
				}
			}
			Expect(seq).To(Equal([]string{"item:Classify", "Classify", "Score", "Deduplicate", "item:Slice", "Slice", "item:Place", "Place"}))
			counts := map[cupel.PipelineStage]int{}
			for _, e := range c.Events() {
				if e.Item == nil {
					counts[e.Stage] = e.ItemCount
				}
			}
			Expect(counts).To(Equal(map[cupel.PipelineStage]int{"Classify": 3, "Score": 2, "Deduplicate": 2, "Slice": 2, "Place": 1}))
		})
		It("keeps item events out of the event list at Stage detail, but not out of the report", func() {
			scores["a"] = 0.5
			var observed int
			c := cupel.NewDiagnosticTraceCollector(cupel.DetailStage, func(cupel.TraceEvent) { observed++ })
			_, err := build().Run([]*cupel.ContextItem{item("a", 1), item("n", -1)}, budget(10, 10), cupel.WithTrace(c))
			Expect(err).NotTo(HaveOccurred())
			Expect(c.Events()).To(HaveLen(5))
			Expect(observed).To(Equal(5))
			rep := c.Report()
			Expect(rep.Included).To(HaveLen(1))
			Expect(rep.Excluded).To(HaveLen(1))
		})
		It("records nothing through a disabled collector", func() {
			spy := &spyCollector{}
			_, err := build().Run([]*cupel.ContextItem{item("a", 1), item("n", -1)}, budget(10, 10), cupel.WithTrace(spy))
			Expect(err).NotTo(HaveOccurred())
			Expect(spy.calls).To(BeZero())
			_, err = build().Run([]*cupel.ContextItem{item("a", 1)}, budget(10, 10), cupel.WithTrace(cupel.NullTraceCollector{}))
			Expect(err).NotTo(HaveOccurred())
		})
		It("round-trips through the spec's JSON wire format", func() {
			scores["a"], scores["b"] = 0.5, 0.25
			_, rep, err := dryRun(build(), []*cupel.ContextItem{item("a", 1), item("b", 100), item("n", -2), pinnedItem("p", 1)}, budget(10, 10))
			Expect(err).NotTo(HaveOccurred())
			b, err := json.Marshal(rep)
			Expect(err).NotTo(HaveOccurred())
			var back cupel.SelectionReport
			Expect(json.Unmarshal(b, &back)).To(Succeed())
			b2, err := json.Marshal(&back)
			Expect(err).NotTo(HaveOccurred())
			Expect(b2).To(MatchJSON(b))
			var raw map[string]any
			Expect(json.Unmarshal(b, &raw)).To(Succeed())
			Expect(raw).To(HaveKey("events"))
			Expect(raw).NotTo(HaveKey("count_requirement_shortfalls"))
			ex := raw["excluded"].([]any)
			Expect(ex[0].(map[string]any)["reason"]).To(Equal(map[string]any{"reason": "BudgetExceeded", "item_tokens": 100.0, "available_tokens": 8.0}))
			Expect(ex[1].(map[string]any)["reason"]).To(Equal(map[string]any{"reason": "NegativeTokens", "tokens": -2.0}))
		})
	})
})

type identityScorer struct {
	scores    map[*cupel.ContextItem]float64
	byContent map[string]float64
}

func (s *identityScorer) Score(it *cupel.ContextItem, _ []*cupel.ContextItem) float64 {
	if v, ok := s.scores[it]; ok {
		return v
	}
	return s.byContent[it.Content()]
}

type slicerFunc func([]cupel.ScoredItem, cupel.ContextBudget) ([]*cupel.ContextItem, error)

func (f slicerFunc) Slice(s []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	return f(s, b)
}

type spyCollector struct{ calls int }

func (s *spyCollector) Enabled() bool                     { return false }
func (s *spyCollector) RecordStageEvent(cupel.TraceEvent) { s.calls++ }
func (s *spyCollector) RecordItemEvent(cupel.TraceEvent)  { s.calls++ }
