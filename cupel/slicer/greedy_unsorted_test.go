package slicer_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/internal/keysort"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
	"github.com/cupel-go/go-cupel/internal/testtool"
)

// wrappedGreedy is GreedySlice behind a type of its own with only Slice, so
// that the pipeline runs the Sort stage and then Slice.
type wrappedGreedy struct{ g *slicer.Greedy }

func (w wrappedGreedy) Slice(sorted []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	return w.g.Slice(sorted, b)
}

// wrappedPlacer is a built-in placer behind a type of its own with only
// Place, so that the pipeline calls Place and matches the items back.
type wrappedPlacer struct{ p cupel.Placer }

func (w wrappedPlacer) Place(items []cupel.ScoredItem) []*cupel.ContextItem {
	return w.p.Place(items)
}

// contentScorer scores an item by a number in its content, so that inputs
// can set equal scores, equal densities, NaN and negative scores at will.
type contentScorer struct{}

func (contentScorer) Score(it *cupel.ContextItem, _ []*cupel.ContextItem) float64 {
	v, _ := strconv.ParseFloat(it.Content()[:len(it.Content())-5], 64)
	return v
}

// fusedCase builds n items rich in ties of score and of density (equal
// scores over equal tokens, and proportional score and tokens), with zero,
// negative and large tokens, pinned items and repeated content.
func fusedCase(r *rand.Rand, n int) []*cupel.ContextItem {
	scores := []string{"0", "0.5", "1", "2", "-1", "NaN", "-0", "+Inf"}
	items := make([]*cupel.ContextItem, n)
	for i := range items {
		tok := 1 + r.IntN(2000)
		switch r.IntN(12) {
		case 0:
			tok = 0
		case 1:
			tok = -1
		case 2:
			tok = 10 * (1 + r.IntN(4))
		}
		score := strconv.FormatFloat(float64(r.IntN(1000))/1000, 'g', -1, 64)
		switch r.IntN(3) {
		case 0:
			score = scores[r.IntN(len(scores))]
		case 1:
			score = strconv.Itoa(tok / 10) // density 0.1 for many tokens
		}
		id := r.IntN(100000)
		if r.IntN(10) == 0 {
			id = 0 // repeated content: the duplicates with lower scores go
		}
		items[i] = cupel.MustItem(cupel.ItemSpec{
			Content: score + "|" + strconv.Itoa(id%1000+1000),
			Tokens:  tok,
			Pinned:  r.IntN(50) == 0 && tok >= 0 && tok < 40,
		})
	}
	return items
}

var _ = Describe("GreedySlice.SliceUnsorted", func() {
	It("selects exactly what Slice selects from the items in the Sort stage's order, on both sides of the all-fit fork", func() {
		r := rand.New(rand.NewPCG(35, 3))
		g := slicer.NewGreedy()
		allFit, fill := 0, 0
		for trial := range testtool.Iterations(600, 120) {
			n := []int{0, 1, 2, 5, 17, 100, 300, 1025}[trial%8]
			in := make([]cupel.ScoredItem, n)
			total := 0
			for i, it := range fusedCase(r, n) {
				in[i] = cupel.ScoredItem{Item: it, Score: contentScorer{}.Score(it, nil)}
				if r.IntN(40) == 0 {
					in[i].Item = nil
				} else {
					total += max(it.Tokens(), 0)
				}
			}
			target := []int{0, 1, 100, total / 10, total / 3, max(0, total-1), total, total + 1}[r.IntN(8)]
			b := slTarget(target)
			if target > 0 && n > 0 {
				if total <= target {
					allFit++
				} else {
					fill++
				}
			}
			sorted := slices.Clone(in)
			slices.SortStableFunc(sorted, func(a, b cupel.ScoredItem) int { return keysort.CompareScoreDesc(a.Score, b.Score) })
			want, err := g.Slice(sorted, b)
			Expect(err).NotTo(HaveOccurred())
			pos, err := g.SliceUnsorted(slices.Clone(in), b, []int{-7, -7})
			Expect(err).NotTo(HaveOccurred())
			// The same items as many times each, in any order.
			count := map[*cupel.ContextItem]int{}
			for _, it := range want {
				count[it]++
			}
			seen := map[int]bool{}
			for _, p := range pos {
				Expect(p >= 0 && p < n).To(BeTrue(), "trial %d: position %d outside [0, %d)", trial, p, n)
				Expect(seen[p]).To(BeFalse(), "trial %d: position %d twice", trial, p)
				seen[p] = true
				count[in[p].Item]--
			}
			Expect(pos).To(HaveLen(len(want)), "trial %d (n=%d, target=%d)", trial, n, target)
			for it, c := range count {
				Expect(c).To(BeZero(), "trial %d (n=%d, target=%d): %v", trial, n, target, it)
			}
		}
		Expect(allFit).To(BeNumerically(">", 0))
		Expect(fill).To(BeNumerically(">", 0))
	})
})

var _ = Describe("a plain run with GreedySlice (SliceUnsorted: no Sort stage)", func() {
	It("selects, orders and scores exactly as the separate Sort and Slice stages and a placer without fast paths do", func() {
		r := rand.New(rand.NewPCG(25, 4))
		// Fewer under -race: 72 trials meet every size with and without
		// deduplication twice.
		for trial := range testtool.Iterations(400, 72) {
			n := []int{0, 1, 2, 17, 100, 300, 1023, 1025, 3000}[trial%9]
			items := fusedCase(r, n)
			total := 0
			for _, it := range items {
				total += max(it.Tokens(), 0)
			}
			target := []int{0, 1, 100, total / 10, total / 3, total, total + 1, max(1, total-1)}[r.IntN(8)]
			budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: max(target, 2000) + 100000, TargetTokens: target})
			Expect(err).NotTo(HaveOccurred())
			for _, placer := range []cupel.Placer{placer.NewUShaped(), placer.NewChronological()} {
				policy := cupel.Policy{Scorer: contentScorer{}, Slicer: slicer.NewGreedy(), Placer: placer, Overflow: cupel.OverflowProceed, DisableDeduplication: trial%4 == 3}
				fused, err := cupel.NewPipeline(policy)
				Expect(err).NotTo(HaveOccurred())
				policy.Slicer = wrappedGreedy{slicer.NewGreedy()}
				policy.Placer = wrappedPlacer{placer}
				separate, err := cupel.NewPipeline(policy)
				Expect(err).NotTo(HaveOccurred())

				got, err1 := fused.Run(items, budget)
				want, err2 := separate.Run(items, budget)
				var rep cupel.SelectionReport
				traced, err3 := fused.Run(items, budget, cupel.WithReport(&rep))
				if err2 != nil {
					Expect(err1).To(MatchError(err2.Error()), "trial %d", trial)
					Expect(err3).To(MatchError(err2.Error()), "trial %d", trial)
					continue
				}
				Expect(err1).NotTo(HaveOccurred(), "trial %d", trial)
				Expect(err3).NotTo(HaveOccurred(), "trial %d", trial)
				for _, other := range []cupel.Result{got, traced} {
					Expect(other.Items).To(HaveLen(len(want.Items)), "trial %d", trial)
					for i := range want.Items {
						Expect(other.Items[i]).To(BeIdenticalTo(want.Items[i]), "trial %d item %d", trial, i)
						Expect(math.Float64bits(other.Scores[i])).To(Equal(math.Float64bits(want.Scores[i])), "trial %d score %d", trial, i)
					}
					Expect(other.TotalTokens).To(Equal(want.TotalTokens))
				}
			}
		}
	})
})
