package cupel_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/slicer"
	"github.com/cupel-go/go-cupel/internal/testtool"
)

// classifyScorer records the list the Score stage receives.
type classifyScorer struct{ got *[]*cupel.ContextItem }

func (s classifyScorer) Score(_ *cupel.ContextItem, all []*cupel.ContextItem) float64 {
	*s.got = append((*s.got)[:0], all...)
	return 0.5
}

// classifyPlacer records the merged list the Place stage receives (pinned
// items first) and keeps its order.
type classifyPlacer struct{ got *[]*cupel.ContextItem }

func (p classifyPlacer) Place(items []cupel.ScoredItem) []*cupel.ContextItem {
	*p.got = (*p.got)[:0]
	for _, si := range items {
		*p.got = append(*p.got, si.Item)
	}
	return append([]*cupel.ContextItem(nil), *p.got...)
}

var _ = Describe("the Classify stage", func() {
	It("hands the Score stage the unpinned items and the Place stage the pinned ones, each in input order, and fails on the first nil item or overflowing sum, or on pinned items over the budget, with and without a report", func() {
		r := rand.New(rand.NewPCG(25, 5))
		var scored, placed []*cupel.ContextItem
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: classifyScorer{&scored}, Slicer: slicer.NewGreedy(), Placer: classifyPlacer{&placed}, Overflow: cupel.OverflowProceed, DisableDeduplication: true})
		Expect(err).NotTo(HaveOccurred())
		for trial := range testtool.Iterations(500, 100) {
			items := make([]*cupel.ContextItem, r.IntN(40))
			for i := range items {
				spec := cupel.ItemSpec{Content: "c" + strconv.Itoa(i), Tokens: r.IntN(50)}
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
			maxTokens := 100 + r.IntN(200)
			budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: maxTokens, TargetTokens: maxTokens})
			Expect(err).NotTo(HaveOccurred())

			// The reference: the first nil item or overflow, else the
			// pinned and unpinned items with non-negative tokens.
			var wantErr error
			var pinned, unpinned []*cupel.ContextItem
			pos, neg, pinnedTokens := 0, 0, 0
			for i, it := range items {
				if it == nil {
					wantErr = errors.New("items[" + strconv.Itoa(i) + "]")
					break
				}
				t := it.Tokens()
				sum := &pos
				if t < 0 {
					sum = &neg
				}
				if (t > 0 && *sum > math.MaxInt-t) || (t < 0 && *sum < math.MinInt-t) {
					wantErr = &cupel.TokenOverflowError{}
					break
				}
				*sum += t
				switch {
				case t < 0:
				case it.Pinned():
					pinned = append(pinned, it)
					pinnedTokens += t
				default:
					unpinned = append(unpinned, it)
				}
			}
			if wantErr == nil && pinnedTokens > maxTokens {
				wantErr = &cupel.PinnedExceedsBudgetError{}
			}
			for _, report := range []bool{false, true} {
				scored, placed = nil, nil
				var opts []cupel.RunOption
				if report {
					opts = append(opts, cupel.WithReport(new(cupel.SelectionReport)))
				}
				_, err := p.Run(items, budget, opts...)
				what := "trial " + strconv.Itoa(trial) + ", report " + strconv.FormatBool(report)
				switch want := wantErr.(type) {
				case nil:
					Expect(err).NotTo(HaveOccurred(), what)
					if len(unpinned) > 0 {
						Expect(scored).To(HaveExactElements(identicalTo(unpinned)...), what)
					}
					Expect(len(placed)).To(BeNumerically(">=", len(pinned)), what)
					Expect(placed[:len(pinned)]).To(HaveExactElements(identicalTo(pinned)...), what)
				case *cupel.TokenOverflowError:
					Expect(errors.As(err, &want)).To(BeTrue(), "%s: %v", what, err)
				case *cupel.PinnedExceedsBudgetError:
					Expect(errors.As(err, &want)).To(BeTrue(), "%s: %v", what, err)
					Expect(want.PinnedTokens).To(Equal(pinnedTokens), what)
				default:
					Expect(err).To(MatchError(ContainSubstring(wantErr.Error())), what)
				}
			}
		}
	})
})

// identicalTo matches each of items by identity, in order.
func identicalTo(items []*cupel.ContextItem) []any {
	m := make([]any, len(items))
	for i, it := range items {
		m[i] = BeIdenticalTo(it)
	}
	return m
}
