package cupel_test

import (
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/internal/testtool"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// wrappedGreedy is GreedySlice behind a type of its own, so that the
// pipeline runs the Sort stage and the slicer separately, as for any
// custom slicer.
type wrappedGreedy struct{ g *cupel.GreedySlice }

func (w wrappedGreedy) Slice(sorted []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	return w.g.Slice(sorted, b)
}

// wrappedPlacer is a built-in placer behind a type of its own, so that the
// pipeline calls its Place and matches the items back, taking none of the
// built-in placers' fast paths.
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

var _ = Describe("a plain run with GreedySlice (Sort and Slice stages fused)", func() {
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
			for _, placer := range []cupel.Placer{cupel.NewUShapedPlacer(), cupel.NewChronologicalPlacer()} {
				policy := cupel.Policy{Scorer: contentScorer{}, Slicer: cupel.NewGreedySlice(), Placer: placer, Overflow: cupel.OverflowProceed, DisableDeduplication: trial%4 == 3}
				fused, err := cupel.NewPipeline(policy)
				Expect(err).NotTo(HaveOccurred())
				policy.Slicer = wrappedGreedy{cupel.NewGreedySlice()}
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
