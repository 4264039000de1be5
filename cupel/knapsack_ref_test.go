package cupel_test

import (
	"math"
	"math/rand/v2"

	"github.com/cupel-go/go-cupel/cupel"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// slRefKnapsack is a literal transcription of the spec's KNAPSACK-SLICE
// pseudocode (2-D boolean keep table, no pruning), used to check that the
// optimised implementation returns exactly the same list.
func slRefKnapsack(scored []cupel.ScoredItem, target, bucket int) []*cupel.ContextItem {
	if len(scored) == 0 || target <= 0 {
		return []*cupel.ContextItem{}
	}
	var zero []*cupel.ContextItem
	var cands []cupel.ScoredItem
	for _, si := range scored {
		if si.Item.Tokens() == 0 {
			zero = append(zero, si.Item)
		} else if si.Item.Tokens() > 0 {
			cands = append(cands, si)
		}
	}
	if len(cands) == 0 {
		return append([]*cupel.ContextItem{}, zero...)
	}
	n := len(cands)
	weights, values := make([]int, n), make([]int64, n)
	for i, c := range cands {
		weights[i] = c.Item.Tokens()
		values[i] = max(0, int64(math.Floor(c.Score*10000)))
	}
	capacity := target / bucket
	if capacity == 0 {
		return append([]*cupel.ContextItem{}, zero...)
	}
	dws := make([]int, n)
	for i := range dws {
		dws[i] = int(math.Ceil(float64(weights[i]) / float64(bucket)))
	}
	dp := make([]int64, capacity+1)
	keep := make([][]bool, n)
	for i := range keep {
		keep[i] = make([]bool, capacity+1)
	}
	for i := 0; i < n; i++ {
		dw, dv := dws[i], values[i]
		for w := capacity; w >= dw; w-- {
			if with := dp[w-dw] + dv; with > dp[w] {
				dp[w] = with
				keep[i][w] = true
			}
		}
	}
	var sel []*cupel.ContextItem
	rem := capacity
	for i := n - 1; i >= 0; i-- {
		if keep[i][rem] {
			sel = append(sel, cands[i].Item)
			rem -= dws[i]
		}
	}
	return append(append([]*cupel.ContextItem{}, zero...), sel...)
}

var _ = Describe("KnapsackSlice against the literal spec pseudocode", func() {
	It("returns exactly the reference list (same items, same order) on random instances with ties", func() {
		r := rand.New(rand.NewPCG(3, 5))
		scores := []float64{0, 0.00005, 0.1, 0.25, 0.25, 0.5, 0.5, 0.75, 1, math.NaN(), -0.3}
		for trial := 0; trial < 2000; trial++ {
			n := r.IntN(25)
			in := make([]cupel.ScoredItem, n)
			for i := range in {
				tok := r.IntN(300) - 10
				if r.IntN(5) == 0 {
					tok = 100 * r.IntN(4) // bucket-aligned and zero weights
				}
				in[i] = slS(slItem("i", tok), scores[r.IntN(len(scores))])
			}
			bucket := []int{1, 7, 50, 100}[r.IntN(4)]
			target := r.IntN(1500)
			ks := slKnapsack(bucket)
			got, err := ks.Slice(in, slTarget(target))
			Expect(err).NotTo(HaveOccurred())
			want := slRefKnapsack(in, target, bucket)
			Expect(got).To(HaveLen(len(want)), "trial %d", trial)
			for i := range want {
				Expect(got[i] == want[i]).To(BeTrue(), "trial %d position %d", trial, i)
			}
		}
	})
})
