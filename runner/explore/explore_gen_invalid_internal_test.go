package explore

import (
	"context"
	"fmt"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// invalidCount counts generated cases of one stage, and those go-cupel
// rejects as invalid configurations (invalid_configuration or
// invalid_budget).
type invalidCount struct{ cases, invalid int }

func (n invalidCount) String() string {
	return fmt.Sprintf("%d of %d (%.1f%%)", n.invalid, n.cases, 100*float64(n.invalid)/float64(n.cases))
}

// invalidShares generates cases 0 to n-1 of seed 1 and counts them by
// stage, and the count_quota slicing and pipeline cases apart; each is
// passed to check with whether go-cupel rejects it as invalid.
func invalidShares(x *explorer, n int, check func(c *casefile.Case, invalid bool)) map[string]invalidCount {
	counts := map[string]invalidCount{}
	seq := 0
	for i := range n {
		c := x.gen.generate(1, i)
		res, f := x.call(context.Background(), x.oracle, c, &seq)
		gomega.Expect(f).To(gomega.BeNil())
		invalid := res.Kind == protocol.ResultRejected &&
			(res.Error.Kind == casefile.KindInvalidConfig || res.Error.Kind == casefile.KindInvalidBudget)
		keys := []string{c.Stage}
		if c.Input.Slicer == "count_quota" {
			keys = append(keys, c.Stage+" count_quota")
		}
		for _, k := range keys {
			n := counts[k]
			n.cases++
			if invalid {
				n.invalid++
			}
			counts[k] = n
		}
		check(c, invalid)
	}
	return counts
}

var _ = ginkgo.Describe("explore's invalid configurations", func() {
	ginkgo.It("are a deliberate 5% of the scoring, slicing and pipeline cases, each made on purpose", func() {
		x := engineExplorer()
		forms := map[string]int{}
		counts := invalidShares(x, 20000, func(c *casefile.Case, invalid bool) {
			gomega.Expect(invalid).To(gomega.Equal(x.gen.invalid != ""),
				"%s: go-cupel's rejection as invalid and the form the generator made (%q) disagree: %s", c.ID, x.gen.invalid, asJSON(c.Input))
			if invalid {
				forms[x.gen.invalid]++
			}
		})
		for _, k := range []string{"scoring", "slicing", "slicing count_quota", "placing", "pipeline", "pipeline count_quota"} {
			fmt.Fprintf(ginkgo.GinkgoWriter, "%-22s %s invalid\n", k, counts[k])
		}
		fmt.Fprintf(ginkgo.GinkgoWriter, "forms: %v\n", forms)
		share := func(k string) float64 { return float64(counts[k].invalid) / float64(counts[k].cases) }
		gomega.Expect(share("slicing")).To(gomega.BeNumerically("~", 0.05, 0.01))
		gomega.Expect(share("pipeline")).To(gomega.BeNumerically("~", 0.05, 0.01))
		gomega.Expect(share("slicing count_quota")).To(gomega.BeNumerically("<", 0.08), "the inner slicer is a knapsack only on purpose")
		gomega.Expect(share("pipeline count_quota")).To(gomega.BeNumerically("<", 0.08))
		// A scorer without keys (recency, priority, reflexive, frequency)
		// has nothing to make invalid.
		gomega.Expect(share("scoring")).To(gomega.And(gomega.BeNumerically(">", 0.02), gomega.BeNumerically("<=", 0.05)))
		gomega.Expect(counts["placing"].invalid).To(gomega.BeZero())
		gomega.Expect(forms).To(gomega.HaveLen(12), "every form of breakConfig, each rejected by go-cupel")
	})
})
