package cupel_test

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

func advSum(items []*cupel.ContextItem) int {
	s := 0
	for _, it := range items {
		s += it.Tokens()
	}
	return s
}

var _ = Describe("adversarial input", func() {
	Describe("QuotaSlice with percentages whose float64 floors overshoot", func() {
		// Regression: requires 50 and 50.000000000000007 pass the float64
		// sum check (their sum rounds to 100), but over a target of 2^62
		// their requireTokens sum to 2^62 + 512, and the slicer selected
		// 512 tokens more than its budget. (Where int has 32 bits the
		// target is 2^30 and the floors are exact; the bound still holds.)
		It("never selects more than the target", func() {
			set, err := slicer.NewQuotaSet(slicer.Require("A", 50), slicer.Require("B", 50.000000000000007))
			Expect(err).NotTo(HaveOccurred())
			q, err := slicer.NewQuota(set, slicer.NewGreedy())
			Expect(err).NotTo(HaveOccurred())
			const target = math.MaxInt/2 + 1 // 2^62 on 64-bit platforms
			a := cupel.MustItem(cupel.ItemSpec{Content: "a", Tokens: target / 2, Kind: "A"})
			b := cupel.MustItem(cupel.ItemSpec{Content: "b", Tokens: target/2 + 512, Kind: "B"})
			bud, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: target, TargetTokens: target})
			Expect(err).NotTo(HaveOccurred())
			out, err := q.Slice([]cupel.ScoredItem{{Item: a, Score: 1}, {Item: b, Score: 1}}, bud)
			Expect(err).NotTo(HaveOccurred())
			Expect(advSum(out)).To(BeNumerically("<=", target))
			Expect(out).To(Equal([]*cupel.ContextItem{a}))

			p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewReflexive(), Slicer: q, Placer: placer.NewChronological()})
			Expect(err).NotTo(HaveOccurred())
			res, err := p.Run([]*cupel.ContextItem{a, b}, bud)
			Expect(err).NotTo(HaveOccurred(), "the selection fits, so Throw does not fire")
			Expect(res.TotalTokens).To(BeNumerically("<=", target))
		})
	})

	Describe("token counts at the int limits", func() {
		greedyPipe := func(ov cupel.OverflowStrategy) *cupel.Pipeline {
			p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewReflexive(), Slicer: slicer.NewGreedy(), Placer: placer.NewChronological(), Overflow: ov})
			Expect(err).NotTo(HaveOccurred())
			return p
		}
		huge, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: math.MaxInt, TargetTokens: math.MaxInt})
		Expect(err).NotTo(HaveOccurred())
		tok := func(content string, tokens int, pinned bool) *cupel.ContextItem {
			return cupel.MustItem(cupel.ItemSpec{Content: content, Tokens: tokens, Pinned: pinned})
		}

		It("selects one item of math.MaxInt tokens under a math.MaxInt budget", func() {
			a := tok("a", math.MaxInt, false)
			res, rep, err := dryRun(greedyPipe(cupel.OverflowThrow), []*cupel.ContextItem{a, tok("z", 0, false)}, huge)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.TotalTokens).To(Equal(math.MaxInt))
			Expect(res.Items).To(ContainElement(a))
			Expect(rep.TotalTokensConsidered).To(Equal(math.MaxInt))
		})
		It("reports ErrTokenOverflow when non-negative tokens do not sum within an int", func() {
			for _, ov := range []cupel.OverflowStrategy{cupel.OverflowThrow, cupel.OverflowTruncate, cupel.OverflowProceed} {
				_, err := greedyPipe(ov).Run([]*cupel.ContextItem{tok("a", math.MaxInt, false), tok("b", 1, false)}, huge)
				Expect(err).To(MatchError(cupel.ErrTokenOverflow))
				_, err = greedyPipe(ov).Run([]*cupel.ContextItem{tok("a", math.MaxInt/2+1, true), tok("b", math.MaxInt/2+1, true)}, huge)
				Expect(err).To(MatchError(cupel.ErrTokenOverflow))
			}
		})
		It("reports ErrTokenOverflow when negative tokens do not sum within an int", func() {
			_, err := greedyPipe(cupel.OverflowThrow).Run([]*cupel.ContextItem{tok("a", math.MinInt, false), tok("b", -1, false)}, huge)
			Expect(err).To(MatchError(cupel.ErrTokenOverflow))
		})
		It("excludes a math.MinInt item and sums the considered tokens exactly", func() {
			items := []*cupel.ContextItem{tok("a", math.MinInt, false), tok("b", math.MaxInt, false)}
			res, rep, err := dryRun(greedyPipe(cupel.OverflowThrow), items, huge)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Items).To(Equal([]*cupel.ContextItem{items[1]}))
			Expect(rep.TotalTokensConsidered).To(Equal(-1))
			Expect(rep.Excluded).To(HaveLen(1))
			Expect(rep.Excluded[0].Reason).To(Equal(cupel.NegativeTokens(math.MinInt)))
		})
		It("rejects pinned items one token over maxTokens - outputReserve at the limit", func() {
			b, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: math.MaxInt, TargetTokens: math.MaxInt, OutputReserve: 1})
			Expect(err).NotTo(HaveOccurred())
			_, err = greedyPipe(cupel.OverflowProceed).Run([]*cupel.ContextItem{tok("p", math.MaxInt, true)}, b)
			var pe *cupel.PinnedExceedsBudgetError
			Expect(errors.As(err, &pe)).To(BeTrue())
			Expect(pe.PinnedTokens).To(Equal(math.MaxInt))
			Expect(pe.Available).To(Equal(math.MaxInt - 1))
		})
		It("reports reserved slots that do not sum within an int", func() {
			_, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 10, ReservedSlots: map[cupel.ContextKind]int{"A": math.MaxInt, "B": 1}})
			Expect(err).To(MatchError(cupel.ErrTokenOverflow))
		})
		It("computes the effective budget without wrapping", func() {
			b, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: math.MaxInt, TargetTokens: math.MaxInt - 1, OutputReserve: 5, ReservedSlots: map[cupel.ContextKind]int{"A": math.MaxInt}, EstimationSafetyMarginPercent: 0.0001})
			Expect(err).NotTo(HaveOccurred())
			for _, pinned := range []int{0, 1, math.MaxInt} {
				e := b.Effective(pinned)
				Expect(e.MaxTokens()).To(BeNumerically(">=", 0))
				Expect(e.TargetTokens()).To(BeNumerically(">=", 0))
				Expect(e.TargetTokens()).To(BeNumerically("<=", e.MaxTokens()))
			}
			b, err = cupel.NewBudget(cupel.BudgetSpec{MaxTokens: math.MaxInt, TargetTokens: math.MaxInt, EstimationSafetyMarginPercent: 1e-12})
			Expect(err).NotTo(HaveOccurred())
			Expect(b.Effective(0).TargetTokens()).To(BeNumerically("<=", math.MaxInt))
			Expect(b.Effective(0).TargetTokens()).To(BeNumerically(">", math.MaxInt/2))
		})
		It("lets the slicers report, not wrap, token sums of direct calls", func() {
			a := cupel.MustItem(cupel.ItemSpec{Content: "a", Tokens: math.MaxInt, Kind: "A"})
			b := cupel.MustItem(cupel.ItemSpec{Content: "b", Tokens: math.MaxInt, Kind: "A"})
			in := []cupel.ScoredItem{{Item: a, Score: 1}, {Item: b, Score: 0.5}}
			set, err := slicer.NewQuotaSet(slicer.Require("A", 10))
			Expect(err).NotTo(HaveOccurred())
			q, err := slicer.NewQuota(set, slicer.NewGreedy())
			Expect(err).NotTo(HaveOccurred())
			_, err = q.Slice(in, huge)
			Expect(err).To(MatchError(cupel.ErrTokenOverflow))
			e, err := slicer.NewCountQuotaEntry("A", 2, 2)
			Expect(err).NotTo(HaveOccurred())
			cq, err := slicer.NewCountQuota([]slicer.CountQuotaEntry{e}, slicer.NewGreedy(), slicer.ScarcityDegrade)
			Expect(err).NotTo(HaveOccurred())
			_, err = cq.Slice(in, huge)
			Expect(err).To(MatchError(cupel.ErrTokenOverflow))
			out, err := slicer.NewGreedy().Slice(in, huge)
			Expect(err).NotTo(HaveOccurred())
			Expect(out).To(Equal([]*cupel.ContextItem{a}))
			k, err := slicer.NewKnapsack(1)
			Expect(err).NotTo(HaveOccurred())
			_, err = k.Slice(in, huge)
			var tl *slicer.TableTooLargeError
			Expect(errors.As(err, &tl)).To(BeTrue())
			Expect(tl.Cells).To(BeNumerically(">", tl.Limit))
		})
	})

	Describe("a million items", func() {
		It("go through a Greedy pipeline", func() {
			n := 1_000_000
			if raceEnabled {
				n = 100_000 // the race detector slows the run about tenfold
			}
			items := make([]*cupel.ContextItem, n)
			base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
			for i := range items {
				ts := base.Add(time.Duration(i%5000) * time.Minute)
				items[i] = cupel.MustItem(cupel.ItemSpec{Content: "item " + strconv.Itoa(i%(n/2)), Tokens: 1 + i%97, Timestamp: &ts, Kind: []cupel.ContextKind{"Message", "Document", kelvin}[i%3]})
			}
			sc, err := scorer.NewComposite(scorer.Weighted{Scorer: scorer.NewRecency(), Weight: 2}, scorer.Weighted{Scorer: scorer.NewDefaultKind(), Weight: 1})
			Expect(err).NotTo(HaveOccurred())
			p, err := cupel.NewPipeline(cupel.Policy{Scorer: sc, Slicer: slicer.NewGreedy(), Placer: placer.NewChronological()})
			Expect(err).NotTo(HaveOccurred())
			b, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 2_000_000, TargetTokens: 1_000_000})
			Expect(err).NotTo(HaveOccurred())
			// No wall-clock bound (the machine may be loaded): a quadratic
			// stage would take hours here and trip go test's -timeout;
			// speed is measured by the benchmarks.
			res, err := p.Run(items, b)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.TotalTokens).To(BeNumerically("<=", 1_000_000))
			Expect(res.TotalTokens).To(BeNumerically(">", 900_000))
			seen := make(map[string]bool, len(res.Items))
			for _, it := range res.Items {
				Expect(seen[it.Content()]).To(BeFalse())
				seen[it.Content()] = true
			}
		})
	})

	Describe("composites nested 1,000 deep", func() {
		items := []*cupel.ContextItem{
			cupel.MustItem(cupel.ItemSpec{Content: "a", Tokens: 1, FutureRelevanceHint: cupel.Ptr(0.25)}),
			cupel.MustItem(cupel.ItemSpec{Content: "b", Tokens: 1, FutureRelevanceHint: cupel.Ptr(0.75)}),
			cupel.MustItem(cupel.ItemSpec{Content: "c", Tokens: 1, FutureRelevanceHint: cupel.Ptr(0.5)}),
		}
		b, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 10, TargetTokens: 10})
		It("score through composites, per item and in batch", func() {
			var s cupel.Scorer = scorer.NewReflexive()
			for range 1000 {
				c, err := scorer.NewComposite(scorer.Weighted{Scorer: s, Weight: 1}, scorer.Weighted{Scorer: scorer.NewReflexive(), Weight: 1e-300})
				Expect(err).NotTo(HaveOccurred())
				s = c
			}
			out := make([]float64, len(items))
			cupel.ScoreBatch(s, items, out)
			for i, it := range items {
				Expect(s.Score(it, items)).To(Equal(out[i]))
				h, _ := it.FutureRelevanceHint()
				Expect(out[i]).To(BeNumerically("~", h, 1e-12))
			}
			p, err := cupel.NewPipeline(cupel.Policy{Scorer: s, Slicer: slicer.NewGreedy(), Placer: placer.NewUShaped()})
			Expect(err).NotTo(HaveOccurred())
			res, err := p.Run(items, b)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Items).To(HaveLen(3))
		})
		It("score through scaled scorers in batch, and per item on a single item", func() {
			var s cupel.Scorer = scorer.NewReflexive()
			for range 1000 {
				sc, err := scorer.NewScaled(s)
				Expect(err).NotTo(HaveOccurred())
				s = sc
			}
			out := make([]float64, len(items))
			cupel.ScoreBatch(s, items, out)
			Expect(out).To(Equal([]float64{0, 1, 0.5}))
			Expect(s.Score(items[0], items[:1])).To(Equal(0.5))
			p, err := cupel.NewPipeline(cupel.Policy{Scorer: s, Slicer: slicer.NewGreedy(), Placer: placer.NewUShaped()})
			Expect(err).NotTo(HaveOccurred())
			res, err := p.Run(items, b)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Items).To(HaveLen(3))
		})
	})

	Describe("NaN and infinite values", func() {
		nan, inf := math.NaN(), math.Inf(1)
		It("map NaN and infinite hints to 0", func() {
			for _, h := range []float64{nan, inf, -inf} {
				it := cupel.MustItem(cupel.ItemSpec{Content: "x", Tokens: 1, FutureRelevanceHint: cupel.Ptr(h)})
				Expect(scorer.NewReflexive().Score(it, []*cupel.ContextItem{it})).To(Equal(0.0))
			}
		})
		It("reject NaN and infinite weights at construction", func() {
			for _, w := range []float64{nan, inf, -inf, 0, -1} {
				_, err := scorer.NewComposite(scorer.Weighted{Scorer: scorer.NewReflexive(), Weight: w})
				Expect(err).To(MatchError(cupel.ErrInvalidConfig), fmt.Sprint(w))
			}
			for _, w := range []float64{nan, inf, -inf, -1} {
				_, err := scorer.NewKind(map[cupel.ContextKind]float64{"A": w})
				Expect(err).To(MatchError(cupel.ErrInvalidConfig))
				_, err = scorer.NewTag(map[string]float64{"a": w})
				Expect(err).To(MatchError(cupel.ErrInvalidConfig))
				_, err = scorer.NewMetadataKey("k", "v", w)
				Expect(err).To(MatchError(cupel.ErrInvalidConfig))
				_, err = scorer.NewMetadataTrust(w)
				Expect(err).To(MatchError(cupel.ErrInvalidConfig))
				_, err = slicer.NewQuotaSet(slicer.Require("A", w))
				Expect(err).To(MatchError(cupel.ErrInvalidConfig))
				_, err = cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 10, EstimationSafetyMarginPercent: w})
				Expect(err).To(MatchError(cupel.ErrInvalidBudget))
			}
			_, err := scorer.NewComposite(scorer.Weighted{Scorer: scorer.NewReflexive(), Weight: math.MaxFloat64}, scorer.Weighted{Scorer: scorer.NewReflexive(), Weight: math.MaxFloat64})
			Expect(err).To(MatchError(cupel.ErrInvalidConfig), "weights whose sum overflows")
		})
		It("give the default score for NaN and infinite trust values, stored or parsed", func() {
			s, err := scorer.NewMetadataTrust(0.3)
			Expect(err).NotTo(HaveOccurred())
			for _, v := range []any{nan, inf, -inf, "NaN", "nan", "Inf", "-Infinity", "1e400", "+inf"} {
				it := cupel.MustItem(cupel.ItemSpec{Content: "x", Tokens: 1, Metadata: map[string]any{scorer.MetadataKeyTrust: v}})
				Expect(s.Score(it, []*cupel.ContextItem{it})).To(Equal(0.3), fmt.Sprint(v))
			}
		})
		It("survive a custom scorer returning NaN or an infinity for every item", func() {
			items := make([]*cupel.ContextItem, 20)
			for i := range items {
				items[i] = cupel.MustItem(cupel.ItemSpec{Content: "i" + strconv.Itoa(i%15), Tokens: i % 7})
			}
			b, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 30, TargetTokens: 20})
			for _, v := range []float64{nan, inf, -inf} {
				for _, sl := range []cupel.Slicer{slicer.NewGreedy(), mustKnapsack(1), mustCountQuota("Message", 2)} {
					for _, pl := range []cupel.Placer{placer.NewUShaped(), placer.NewChronological()} {
						p, err := cupel.NewPipeline(cupel.Policy{Scorer: advConst(v), Slicer: sl, Placer: pl, Overflow: cupel.OverflowTruncate})
						Expect(err).NotTo(HaveOccurred())
						res, rep, err := dryRun(p, items, b)
						Expect(err).NotTo(HaveOccurred())
						Expect(res.TotalTokens).To(BeNumerically("<=", 20))
						Expect(len(rep.Included) + len(rep.Excluded)).To(Equal(len(items)))
						again, err := p.Run(items, b)
						Expect(err).NotTo(HaveOccurred())
						Expect(again.Items).To(Equal(res.Items))
					}
				}
			}
		})
	})

	Describe("non-ASCII kinds and tags", func() {
		It("keep the Kelvin sign apart from K everywhere", func() {
			k := cupel.MustItem(cupel.ItemSpec{Content: "k", Tokens: 10, Kind: "K", Tags: []string{"K"}})
			kv := cupel.MustItem(cupel.ItemSpec{Content: "kelvin", Tokens: 10, Kind: kelvin, Tags: []string{kelvin}})
			all := []*cupel.ContextItem{k, kv}
			Expect(cupel.ContextKind("K").Equal(kelvin)).To(BeFalse())
			Expect(cupel.ContextKind("k").Equal("K")).To(BeTrue())
			ks, err := scorer.NewKind(map[cupel.ContextKind]float64{"k": 1})
			Expect(err).NotTo(HaveOccurred())
			Expect(ks.Score(k, all)).To(Equal(1.0))
			Expect(ks.Score(kv, all)).To(Equal(0.0))
			Expect(scorer.NewFrequency().Score(k, all)).To(Equal(0.0))
			_, err = scorer.NewKind(map[cupel.ContextKind]float64{"K": 1, kelvin: 2})
			Expect(err).NotTo(HaveOccurred(), "K and the Kelvin sign are two kinds")
			_, err = cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 10, ReservedSlots: map[cupel.ContextKind]int{"K": 1, kelvin: 2}})
			Expect(err).NotTo(HaveOccurred())
			e, err := slicer.NewCountQuotaEntry(kelvin, 1, 1)
			Expect(err).NotTo(HaveOccurred())
			cq, err := slicer.NewCountQuota([]slicer.CountQuotaEntry{e}, slicer.NewGreedy(), slicer.ScarcityThrow)
			Expect(err).NotTo(HaveOccurred())
			b, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 10, TargetTokens: 10})
			out, err := cq.Slice([]cupel.ScoredItem{{Item: k, Score: 1}, {Item: kv, Score: 0}}, b)
			Expect(err).NotTo(HaveOccurred())
			Expect(out).To(Equal([]*cupel.ContextItem{kv}), "the Kelvin item is committed, K no longer fits")
			set, err := slicer.NewQuotaSet(slicer.Cap("K", 0))
			Expect(err).NotTo(HaveOccurred())
			q, err := slicer.NewQuota(set, slicer.NewGreedy())
			Expect(err).NotTo(HaveOccurred())
			out, err = q.Slice([]cupel.ScoredItem{{Item: k, Score: 1}, {Item: kv, Score: 0}}, b)
			Expect(err).NotTo(HaveOccurred())
			Expect(out).To(Equal([]*cupel.ContextItem{kv}))
		})
	})

	Describe("duplicates and empty strings", func() {
		b, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 100, TargetTokens: 100})
		It("keeps duplicate content, and a pointer passed twice, with deduplication off", func() {
			a1 := cupel.MustItem(cupel.ItemSpec{Content: "same", Tokens: 1})
			a2 := cupel.MustItem(cupel.ItemSpec{Content: "same", Tokens: 2})
			items := []*cupel.ContextItem{a1, a2, a1}
			p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewReflexive(), Slicer: slicer.NewGreedy(), Placer: placer.NewChronological(), DisableDeduplication: true})
			Expect(err).NotTo(HaveOccurred())
			res, err := p.Run(items, b)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Items).To(ConsistOf(a1, a2, a1))
			Expect(res.TotalTokens).To(Equal(4))
			on, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewReflexive(), Slicer: slicer.NewGreedy(), Placer: placer.NewChronological()})
			Expect(err).NotTo(HaveOccurred())
			res, err = on.Run(items, b)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Items).To(Equal([]*cupel.ContextItem{a1}))
		})
		It("accepts empty tags, metadata keys and values, and defaults empty kinds and sources", func() {
			it, err := cupel.NewItem(cupel.ItemSpec{Content: " ", Tokens: 1, Tags: []string{"", ""}, Metadata: map[string]any{"": ""}})
			Expect(err).NotTo(HaveOccurred())
			Expect(it.Kind()).To(Equal(cupel.KindMessage))
			Expect(it.Source()).To(Equal(cupel.SourceChat))
			mk, err := scorer.NewMetadataKey("", "", 2)
			Expect(err).NotTo(HaveOccurred())
			Expect(mk.Score(it, nil)).To(Equal(2.0))
			ts, err := scorer.NewTag(map[string]float64{"": 1})
			Expect(err).NotTo(HaveOccurred())
			Expect(ts.Score(it, nil)).To(Equal(1.0))
			other := cupel.MustItem(cupel.ItemSpec{Content: "o", Tokens: 1, Tags: []string{""}})
			Expect(scorer.NewFrequency().Score(it, []*cupel.ContextItem{it, other})).To(Equal(1.0))
			_, err = cupel.NewItem(cupel.ItemSpec{Content: "", Tokens: 1})
			Expect(err).To(MatchError(cupel.ErrInvalidItem))
			_, err = cupel.NewItem(cupel.ItemSpec{Content: "x", Kind: " \t"})
			Expect(err).To(MatchError(cupel.ErrInvalidItem))
		})
	})

	Describe("huge metadata", func() {
		It("is preserved and untouched by a run", func() {
			meta := make(map[string]any, 100_000)
			for i := range 100_000 {
				meta["key-"+strconv.Itoa(i)] = i
			}
			meta[scorer.MetadataKeyTrust] = "0.9"
			meta["cupel:priority"] = "high"
			it := cupel.MustItem(cupel.ItemSpec{Content: "m", Tokens: 5, Metadata: meta})
			meta["key-0"] = "changed by the caller after NewItem"
			other := cupel.MustItem(cupel.ItemSpec{Content: "o", Tokens: 5})
			trust, err := scorer.NewMetadataTrust(0.1)
			Expect(err).NotTo(HaveOccurred())
			mk, err := scorer.NewMetadataKey("cupel:priority", "high", 1.5)
			Expect(err).NotTo(HaveOccurred())
			sc, err := scorer.NewComposite(scorer.Weighted{Scorer: trust, Weight: 1}, scorer.Weighted{Scorer: mk, Weight: 1})
			Expect(err).NotTo(HaveOccurred())
			p, err := cupel.NewPipeline(cupel.Policy{Scorer: sc, Slicer: slicer.NewGreedy(), Placer: placer.NewUShaped()})
			Expect(err).NotTo(HaveOccurred())
			b, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 5, TargetTokens: 5})
			res, rep, err := dryRun(p, []*cupel.ContextItem{other, it}, b)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Items).To(Equal([]*cupel.ContextItem{it}))
			Expect(res.Scores[0]).To(Equal(0.5*0.9 + 0.5*1.5))
			got := rep.Included[0].Item.Metadata()
			Expect(got).To(HaveLen(100_002))
			Expect(got["key-0"]).To(Equal(0))
			Expect(got["key-99999"]).To(Equal(99_999))
			got["key-1"] = "changed through a copy"
			v, _ := it.MetadataValue("key-1")
			Expect(v).To(Equal(1))
		})
	})

	Describe("knapsack tables at and over the guard", func() {
		items := make([]cupel.ScoredItem, 10)
		for i := range items {
			items[i] = cupel.ScoredItem{Item: cupel.MustItem(cupel.ItemSpec{Content: "i" + strconv.Itoa(i), Tokens: 1 + i}), Score: 0.5}
		}
		b, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 20, TargetTokens: 20})
		It("builds a table of exactly the limit and refuses one cell more", func() {
			at, err := slicer.NewKnapsack(2, slicer.WithTableLimit(100)) // 10 candidates x capacity 10
			Expect(err).NotTo(HaveOccurred())
			out, err := at.Slice(items, b)
			Expect(err).NotTo(HaveOccurred())
			Expect(out).NotTo(BeEmpty())
			over, err := slicer.NewKnapsack(2, slicer.WithTableLimit(99))
			Expect(err).NotTo(HaveOccurred())
			_, err = over.Slice(items, b)
			var tl *slicer.TableTooLargeError
			Expect(errors.As(err, &tl)).To(BeTrue())
			Expect(*tl).To(Equal(slicer.TableTooLargeError{Candidates: 10, Capacity: 10, Cells: 100, Limit: 99}))
			Expect(err.Error()).To(ContainSubstring("10 candidates x 10 capacity = 100 cells"))

			cck, err := slicer.NewCountConstrainedKnapsack(nil, over, slicer.ScarcityDegrade)
			Expect(err).NotTo(HaveOccurred())
			_, err = cck.Slice(items, b)
			Expect(err).To(MatchError(cupel.ErrTableTooLarge))
			p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewReflexive(), Slicer: over, Placer: placer.NewUShaped()})
			Expect(err).NotTo(HaveOccurred())
			plain := make([]*cupel.ContextItem, len(items))
			for i, si := range items {
				plain[i] = si.Item
			}
			_, err = p.Run(plain, b)
			Expect(err).To(MatchError(cupel.ErrTableTooLarge))
			_, err = slicer.NewKnapsack(2, slicer.WithTableLimit(0))
			Expect(err).To(MatchError(cupel.ErrInvalidConfig))
		})
		It("guards the default limit without building the table", func() {
			huge, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: math.MaxInt, TargetTokens: math.MaxInt})
			k, err := slicer.NewKnapsack(1)
			Expect(err).NotTo(HaveOccurred())
			_, err = k.Slice(items, huge)
			Expect(err).To(MatchError(cupel.ErrTableTooLarge))
		})
	})

	Describe("misbehaving custom components", func() {
		a := cupel.MustItem(cupel.ItemSpec{Content: "a", Tokens: 1})
		bItem := cupel.MustItem(cupel.ItemSpec{Content: "b", Tokens: 1})
		stranger := cupel.MustItem(cupel.ItemSpec{Content: "a", Tokens: 1})
		b, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 10, TargetTokens: 10})
		run := func(sl cupel.Slicer, pl cupel.Placer, dedupOff bool, items ...*cupel.ContextItem) (cupel.Result, error) {
			p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewReflexive(), Slicer: sl, Placer: pl, DisableDeduplication: dedupOff})
			Expect(err).NotTo(HaveOccurred())
			return p.Run(items, b)
		}
		selecting := func(f func([]cupel.ScoredItem) []*cupel.ContextItem) cupel.Slicer {
			return slicerFunc(func(s []cupel.ScoredItem, _ cupel.ContextBudget) ([]*cupel.ContextItem, error) { return f(s), nil })
		}
		It("rejects a slicer returning an item not in its input, even one of equal content", func() {
			_, err := run(selecting(func([]cupel.ScoredItem) []*cupel.ContextItem { return []*cupel.ContextItem{stranger} }), placer.NewUShaped(), false, a, bItem)
			Expect(err).To(MatchError(cupel.ErrInvalidConfig))
			_, err = run(selecting(func([]cupel.ScoredItem) []*cupel.ContextItem { return []*cupel.ContextItem{nil} }), placer.NewUShaped(), false, a)
			Expect(err).To(MatchError(cupel.ErrInvalidConfig))
		})
		It("rejects a slicer returning an item more often than its input holds it", func() {
			_, err := run(selecting(func([]cupel.ScoredItem) []*cupel.ContextItem { return []*cupel.ContextItem{a, a} }), placer.NewUShaped(), false, a, bItem)
			Expect(err).To(MatchError(cupel.ErrInvalidConfig))
			res, err := run(selecting(func([]cupel.ScoredItem) []*cupel.ContextItem { return []*cupel.ContextItem{a, a} }), placer.NewUShaped(), true, a, bItem, a)
			Expect(err).NotTo(HaveOccurred(), "a pointer passed twice may be selected twice")
			Expect(res.Items).To(Equal([]*cupel.ContextItem{a, a}))
		})
		It("rejects a placer dropping, adding or swapping items", func() {
			placers := []func([]cupel.ScoredItem) []*cupel.ContextItem{
				func(s []cupel.ScoredItem) []*cupel.ContextItem { return nil },
				func(s []cupel.ScoredItem) []*cupel.ContextItem {
					out := []*cupel.ContextItem{stranger}
					for _, si := range s {
						out = append(out, si.Item)
					}
					return out
				},
				func(s []cupel.ScoredItem) []*cupel.ContextItem { return []*cupel.ContextItem{s[0].Item, s[0].Item} },
				func(s []cupel.ScoredItem) []*cupel.ContextItem { return []*cupel.ContextItem{s[0].Item, stranger} },
			}
			for i, f := range placers {
				_, err := run(slicer.NewGreedy(), advPlacer(f), false, a, bItem)
				Expect(err).To(MatchError(cupel.ErrInvalidConfig), strconv.Itoa(i))
			}
		})
	})
})

// advConst scores every item v.
type advConst float64

func (c advConst) Score(*cupel.ContextItem, []*cupel.ContextItem) float64 { return float64(c) }

// advPlacer adapts a function to a Placer.
type advPlacer func([]cupel.ScoredItem) []*cupel.ContextItem

func (f advPlacer) Place(s []cupel.ScoredItem) []*cupel.ContextItem { return f(s) }

func mustCountQuota(kind cupel.ContextKind, require int) cupel.Slicer {
	e, err := slicer.NewCountQuotaEntry(kind, require, require+1)
	if err != nil {
		panic(err)
	}
	s, err := slicer.NewCountQuota([]slicer.CountQuotaEntry{e}, slicer.NewGreedy(), slicer.ScarcityDegrade)
	if err != nil {
		panic(err)
	}
	return s
}

func mustKnapsack(bucket int) *slicer.Knapsack {
	s, err := slicer.NewKnapsack(bucket)
	if err != nil {
		panic(err)
	}
	return s
}
