package cupel_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
	"github.com/cupel-go/go-cupel/internal/testtool"
)

// sbScorer scores each item with a fixed number of its own: an absolute
// scorer, so a batch and the whole stream give an item the same score.
type sbScorer map[*cupel.ContextItem]float64

func (s sbScorer) Score(it *cupel.ContextItem, _ []*cupel.ContextItem) float64 { return s[it] }

// sbBudgets wraps GreedySlice and records the budget of each call.
type sbBudgets struct {
	got []cupel.ContextBudget
}

func (s *sbBudgets) Slice(sorted []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	s.got = append(s.got, b)
	return slicer.NewGreedy().Slice(sorted, b)
}

// sbDensityOrdered builds n unpinned items of 1 to 300 tokens with scores
// whose densities (score per token) strictly decrease in slice order: fed
// in that order, a streamed greedy selection meets the items in the order
// GreedySlice ranks them, so the two must select the same items whatever
// the batch size.
func sbDensityOrdered(r *rand.Rand, n int) ([]*cupel.ContextItem, sbScorer) {
	items := make([]*cupel.ContextItem, n)
	scores := sbScorer{}
	for i := range items {
		tokens := 1 + r.IntN(300)
		items[i] = cupel.MustItem(cupel.ItemSpec{Content: "d" + strconv.Itoa(i), Tokens: tokens})
		scores[items[i]] = float64(n-i) / float64(n+1) * float64(tokens) / 300
	}
	return items, scores
}

var _ = Describe("The streamed selection's budget across several batches", func() {
	It("StreamSlice selects what GreedySlice selects from density-ordered items, never exceeding the target (property)", func() {
		r := rand.New(rand.NewPCG(25, 1))
		for trial := range testtool.Iterations(300, 60) { // fewer under -race
			n := 1 + r.IntN(200)
			items, scores := sbDensityOrdered(r, n)
			sum := 0
			in := make([]cupel.ScoredItem, n)
			for i, it := range items {
				in[i] = cupel.ScoredItem{Item: it, Score: scores[it]}
				sum += it.Tokens()
			}
			target := r.IntN(sum + 1)
			size := 1 + r.IntN(n)
			desc := "trial " + strconv.Itoa(trial) + " n=" + strconv.Itoa(n) + " batch=" + strconv.Itoa(size) + " target=" + strconv.Itoa(target)
			want, err := slicer.NewGreedy().Slice(in, slTarget(target))
			Expect(err).NotTo(HaveOccurred())
			s, err := slicer.NewStream(size)
			Expect(err).NotTo(HaveOccurred())
			got, err := s.Slice(in, slTarget(target))
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(ConsistOf(want), desc)
			total := 0
			for _, it := range got {
				total += it.Tokens()
			}
			Expect(total).To(BeNumerically("<=", target), desc)
		}
	})

	It("RunStream selects what Run selects from density-ordered items, pinned ones first, never exceeding the target (property)", func() {
		r := rand.New(rand.NewPCG(25, 2))
		for trial := range testtool.Iterations(300, 60) { // fewer under -race
			n := 1 + r.IntN(200)
			items, scores := sbDensityOrdered(r, n)
			nPinned := r.IntN(3)
			for i := range nPinned {
				pin := cupel.MustItem(cupel.ItemSpec{Content: "pin" + strconv.Itoa(i), Tokens: r.IntN(50), Pinned: true})
				items = slices.Insert(items, 0, pin)
			}
			sum := 0
			for _, it := range items {
				sum += it.Tokens()
			}
			spec := cupel.BudgetSpec{MaxTokens: sum + 100, TargetTokens: r.IntN(sum + 1)}
			if r.IntN(3) == 0 {
				spec.EstimationSafetyMarginPercent = float64(r.IntN(30))
			}
			budget, err := cupel.NewBudget(spec)
			Expect(err).NotTo(HaveOccurred())
			p, err := cupel.NewPipeline(cupel.Policy{Scorer: scores, Slicer: slicer.NewGreedy(), Placer: placer.NewChronological(), Overflow: cupel.OverflowProceed})
			Expect(err).NotTo(HaveOccurred())
			size := 1 + r.IntN(len(items))
			desc := "trial " + strconv.Itoa(trial) + " n=" + strconv.Itoa(len(items)) + " batch=" + strconv.Itoa(size) + " target=" + strconv.Itoa(spec.TargetTokens)

			want, err := p.Run(items, budget)
			Expect(err).NotTo(HaveOccurred(), desc)
			got, err := p.RunStream(slices.Values(items), budget, cupel.WithBatchSize(size))
			Expect(err).NotTo(HaveOccurred(), desc)
			Expect(got.Items).To(ConsistOf(want.Items), desc)
			Expect(got.TotalTokens).To(Equal(want.TotalTokens), desc)
			Expect(got.Overflow).To(BeNil(), desc)
			Expect(got.TotalTokens).To(BeNumerically("<=", spec.TargetTokens), desc)
		}
	})

	It("hands each batch what is left of the effective budget after the batches before it", func() {
		// 10 items of 10 tokens, one pinned of 5 in the first batch, batches of 3;
		// target 68, so the effective target is 63 and six items fit.
		items := []*cupel.ContextItem{cupel.MustItem(cupel.ItemSpec{Content: "pin", Tokens: 5, Pinned: true})}
		items = append(items, stItems(10, 10)...)
		sl := &sbBudgets{}
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewPriority(), Slicer: sl, Placer: placer.NewChronological()})
		Expect(err).NotTo(HaveOccurred())
		res, err := p.RunStream(slices.Values(items), slBudget(100, 68), cupel.WithBatchSize(3))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.TotalTokens).To(Equal(5 + 60))
		type mt struct{ max, target int }
		var got []mt
		for _, b := range sl.got {
			got = append(got, mt{b.MaxTokens(), b.TargetTokens()})
		}
		// Batch 1 holds the pinned item and two others (both selected), then
		// 3, 3 and 2 items; the effective budget is (95, 63).
		Expect(got).To(Equal([]mt{{95, 63}, {75, 43}, {45, 13}, {35, 3}}))
	})

	It("explains a later batch's exclusions against what is left: PinnedOverride only when the item fits without the pinned tokens", func() {
		pin := cupel.MustItem(cupel.ItemSpec{Content: "pin", Tokens: 30, Pinned: true})
		a := cupel.MustItem(cupel.ItemSpec{Content: "a", Tokens: 40, Priority: cupel.Ptr(9)})
		b := cupel.MustItem(cupel.ItemSpec{Content: "b", Tokens: 50, Priority: cupel.Ptr(5)})
		c := cupel.MustItem(cupel.ItemSpec{Content: "c", Tokens: 65, Priority: cupel.Ptr(1)})
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewPriority(), Slicer: slicer.NewGreedy(), Placer: placer.NewChronological()})
		Expect(err).NotTo(HaveOccurred())
		var rep cupel.SelectionReport
		// Batches [pin a] and [b c]: the second has 100-30-40 = 30 tokens left,
		// and would have 100-40 = 60 without the pinned item.
		res, err := p.RunStream(slices.Values([]*cupel.ContextItem{pin, a, b, c}), slBudget(100, 100), cupel.WithBatchSize(2), cupel.WithReport(&rep))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Items).To(ConsistOf(pin, a))
		reasons := map[string]cupel.ExclusionReason{}
		for x := range rep.ExcludedItems() {
			reasons[x.Item.Content()] = x.Reason
		}
		Expect(reasons).To(Equal(map[string]cupel.ExclusionReason{
			"b": cupel.PinnedOverride("pin"),
			"c": cupel.BudgetExceeded(65, 30),
		}))
	})

	It("accepts pinned items that need exactly maxTokens - outputReserve, streamed or not", func() {
		pin := cupel.MustItem(cupel.ItemSpec{Content: "pin", Tokens: 80, Pinned: true})
		items := append([]*cupel.ContextItem{pin}, stItems(3, 5)...)
		budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 100, TargetTokens: 80, OutputReserve: 20})
		Expect(err).NotTo(HaveOccurred())
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewPriority(), Slicer: slicer.NewGreedy(), Placer: placer.NewChronological()})
		Expect(err).NotTo(HaveOccurred())
		res, err := p.Run(items, budget)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Items).To(Equal([]*cupel.ContextItem{pin}))
		res, err = p.RunStream(slices.Values(items), budget, cupel.WithBatchSize(2))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Items).To(Equal([]*cupel.ContextItem{pin}))
		over := cupel.MustItem(cupel.ItemSpec{Content: "pin2", Tokens: 1, Pinned: true})
		_, err = p.RunStream(slices.Values([]*cupel.ContextItem{pin, over}), budget, cupel.WithBatchSize(2))
		Expect(errors.Is(err, cupel.ErrPinnedExceedsBudget)).To(BeTrue())
	})

	It("StreamSlice selects nothing at targetTokens 0, zero-token items included (spec chapter 25, contract 4)", func() {
		s, err := slicer.NewStream(2)
		Expect(err).NotTo(HaveOccurred())
		in := []cupel.ScoredItem{{Item: stItems(1, 0)[0], Score: 1}, {Item: stItems(2, 0)[1], Score: 0.5}}
		sel, err := s.Slice(in, slBudget(10, 0))
		Expect(err).NotTo(HaveOccurred())
		Expect(sel).To(BeEmpty())
	})
})
