package vectors_test

import (
	"io/fs"
	"math"
	"regexp"
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel/policy"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/vectors"
)

// The checks of ruling 29 that a program can make over the suite: a
// knapsack case states its bucket size, a knapsack slicing case selects the
// same items at any score scale, and no duration or timestamp is finer than
// 100 ns. (Whether a vector asks more than the spec's keyword is a reading
// of the chapters: vectors/README.md, "What the suite does not demand".)

func suite() *casefile.Suite {
	GinkgoHelper()
	s, err := casefile.LoadSuite(nil)
	Expect(err).NotTo(HaveOccurred())
	Expect(s.Errors).To(BeEmpty())
	return s
}

// usesKnapsack reports whether the case's slicer, or its inner slicer, runs
// the knapsack DP.
func usesKnapsack(p policy.Spec) bool {
	k := func(s string) bool { return s == "knapsack" || s == "count_constrained_knapsack" }
	return k(p.Slicer) || ((p.Slicer == "quota" || p.Slicer == "count_quota") && k(p.InnerSlicer))
}

var bucketKey = regexp.MustCompile(`(?m)^\s*bucket_size\s*=`)

// knapsack is KNAPSACK-SLICE of spec chapter 27 with the score scale as a
// parameter: it returns the indices of the selected items.
func knapsack(items []casefile.Item, target int64, bucket int64, scale float64) []int {
	var sel []int
	type cand struct {
		index     int
		dw, value int64
	}
	var cands []cand
	for _, it := range items {
		switch {
		case it.Tokens == 0:
			sel = append(sel, it.Index)
		case it.Tokens > 0:
			cands = append(cands, cand{it.Index, (it.Tokens + bucket - 1) / bucket, max(0, int64(math.Floor(float64(*it.Score)*scale)))})
		}
	}
	capacity := target / bucket
	if target <= 0 || capacity == 0 || len(cands) == 0 {
		return sel
	}
	dp := make([]int64, capacity+1)
	keep := make([][]bool, len(cands))
	for i, c := range cands {
		keep[i] = make([]bool, capacity+1)
		for w := capacity; w >= c.dw; w-- {
			if with := dp[w-c.dw] + c.value; with > dp[w] {
				dp[w], keep[i][w] = with, true
			}
		}
	}
	for i, w := len(cands)-1, capacity; i >= 0; i-- {
		if keep[i][w] {
			sel = append(sel, cands[i].index)
			w -= cands[i].dw
		}
	}
	slices.Sort(sel)
	return sel
}

var _ = Describe("ruling 29", func() {
	It("(a) every case whose slicer runs the knapsack states its bucket_size", func() {
		n := 0
		for _, c := range suite().Cases {
			if !usesKnapsack(c.Input.Spec) {
				continue
			}
			n++
			data, err := fs.ReadFile(vectors.FS, c.File)
			Expect(err).NotTo(HaveOccurred())
			Expect(bucketKey.Match(data)).To(BeTrue(), "%s: a knapsack case must state bucket_size (the default is the implementation's)", c.ID)
		}
		Expect(n).To(BeNumerically(">", 30))
	})

	It("(a) every knapsack slicing case selects the same items at any score scale", func() {
		n := 0
		for _, c := range suite().Cases {
			p := c.Input.Spec
			if c.Stage != casefile.StageSlicing || p.Slicer != "knapsack" || c.Expect.Error != "" || c.Expect.ConstructionError {
				continue
			}
			bucket := int64(*p.BucketSize)
			if int64(len(c.Input.Items))*(c.Input.Budget.TargetTokens/bucket) > 1_000_000 {
				continue // knapsack-table-at-limit: one item fits, by weight alone
			}
			n++
			want := knapsack(c.Input.Items, c.Input.Budget.TargetTokens, bucket, 10000)
			for _, scale := range []float64{1000, 4099, 100_000, 1_000_000} {
				Expect(knapsack(c.Input.Items, c.Input.Budget.TargetTokens, bucket, scale)).To(Equal(want),
					"%s: the selection at scale %g differs from the one at 10,000", c.ID, scale)
			}
		}
		Expect(n).To(BeNumerically(">", 10))
	})

	It("(c) no duration or timestamp is finer than 100 ns", func() {
		const tick = 100 * time.Nanosecond
		whole := func(secs float64) bool {
			ticks := secs * float64(time.Second/tick)
			return math.Abs(ticks-math.Round(ticks)) < 1e-6 && (secs == 0 || math.Round(ticks) != 0)
		}
		var curves func(id string, s policy.ScorerSpec)
		curves = func(id string, s policy.ScorerSpec) {
			if s.ReferenceTime != nil {
				Expect(s.ReferenceTime.Nanosecond()%int(tick)).To(BeZero(), "%s: reference_time", id)
			}
			if cv := s.Curve; cv != nil {
				for _, d := range []*policy.Float{cv.HalfLifeSecs, cv.MaxAgeSecs} {
					if d != nil {
						Expect(whole(float64(*d))).To(BeTrue(), "%s: a curve duration of %v s", id, *d)
					}
				}
				for _, w := range cv.Windows {
					Expect(whole(float64(w.MaxAgeSecs))).To(BeTrue(), "%s: a window of %v s", id, w.MaxAgeSecs)
				}
			}
			for _, ch := range s.Children {
				curves(id, ch)
			}
			if s.Inner != nil {
				curves(id, *s.Inner)
			}
		}
		for _, c := range suite().Cases {
			for _, s := range c.Input.Scorers {
				curves(c.ID, s)
			}
			for _, it := range c.Input.Items {
				if it.Timestamp != nil {
					Expect(it.Timestamp.Nanosecond()%int(tick)).To(BeZero(), "%s: timestamp of item %d", c.ID, it.Index)
				}
			}
		}
	})
})
