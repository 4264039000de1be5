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

var _ = Describe("the Classify stage of a plain run (one pass)", func() {
	It("returns the traced run's selection, order and errors: nil items, overflowing sums, negative tokens, pinned items over the budget", func() {
		r := rand.New(rand.NewPCG(25, 5))
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: cupel.NewPriorityScorer(), Slicer: cupel.NewGreedySlice(), Placer: cupel.NewChronologicalPlacer(), Overflow: cupel.OverflowProceed})
		Expect(err).NotTo(HaveOccurred())
		for trial := range testtool.Iterations(500, 100) {
			items := make([]*cupel.ContextItem, r.IntN(40))
			for i := range items {
				spec := cupel.ItemSpec{Content: "c" + strconv.Itoa(r.IntN(30)), Tokens: r.IntN(50), Priority: cupel.Ptr(r.IntN(5))}
				switch r.IntN(80) {
				case 0:
					continue // a nil item
				case 1:
					spec.Tokens = math.MaxInt - r.IntN(2) // the sum overflows
				case 2:
					spec.Tokens = math.MinInt + r.IntN(2)
				}
				switch r.IntN(6) {
				case 0:
					spec.Tokens = -1 - r.IntN(5)
				case 1:
					spec.Pinned = true
				}
				items[i] = cupel.MustItem(spec)
			}
			budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 100 + r.IntN(200), TargetTokens: 50 + r.IntN(50)})
			Expect(err).NotTo(HaveOccurred())
			got, err1 := p.Run(items, budget)
			var rep cupel.SelectionReport
			want, err2 := p.Run(items, budget, cupel.WithReport(&rep))
			if err2 != nil {
				Expect(err1).To(MatchError(err2.Error()), "trial %d", trial)
				continue
			}
			Expect(err1).NotTo(HaveOccurred(), "trial %d", trial)
			Expect(got.Items).To(HaveLen(len(want.Items)), "trial %d", trial)
			for i := range want.Items {
				Expect(got.Items[i]).To(BeIdenticalTo(want.Items[i]), "trial %d item %d", trial, i)
				Expect(math.Float64bits(got.Scores[i])).To(Equal(math.Float64bits(want.Scores[i])), "trial %d score %d", trial, i)
			}
		}
	})
})
