package runner_test

import (
	"fmt"
	"math"
	"regexp"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/oracleimpl"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// mutated returns the oracle's passing answer for id, changed by f.
func mutated(id string, f func(r *protocol.Result)) (*casefile.Case, runner.Comparison) {
	GinkgoHelper()
	c := fixtures().Case(id)
	Expect(c).NotTo(BeNil(), id)
	r := oracleimpl.Answer(c)
	if f != nil {
		f(&r)
	}
	return c, runner.Compare(c, r)
}

var _ = Describe("Comparator", func() {
	It("leads a long ordering failure with the position-by-position diff, not the lists in full", func() {
		s, err := casefile.LoadSuite(nil)
		Expect(err).NotTo(HaveOccurred())
		c := s.Case("required/placing/u-shaped-many-items")
		Expect(c).NotTo(BeNil())
		Expect(c.Input.Items).To(HaveLen(300))
		r := oracleimpl.Answer(c)
		slices.Reverse(r.Output.Ordered)
		v := runner.Compare(c, r)
		Expect(v.Outcome).To(Equal(protocol.OutcomeFail))
		Expect(v.Message).To(Equal("output differs (in order): 300 items expected, 300 got; first difference at position 0"))
		Expect(v.Details[0]).To(Equal(v.Message))
		Expect(v.Details[1]).To(MatchRegexp(`^  !  0  expected "u\d+" +actual #\d+ "u\d+"$`))
		// A short list still reads in full.
		_, short := mutated("required/placing/u-shaped-seven-items", func(r *protocol.Result) { slices.Reverse(r.Output.Ordered) })
		Expect(short.Message).To(MatchRegexp(`^output differs \(in order\): expected \[.*\], got \[.*\]$`))
	})

	It("passes every fixture's expected answer", func() {
		for _, c := range fixtures().Cases {
			v := runner.Compare(c, oracleimpl.Answer(c))
			Expect(v.Outcome).To(Equal(protocol.OutcomePass), c.ID+": "+v.Message)
		}
	})

	Describe("scores", func() {
		const id = "required/scoring/recency-basic"
		It("accepts a difference below epsilon and rejects one at epsilon", func() {
			_, v := mutated(id, func(r *protocol.Result) { r.Output.Scores[0].Score += 5e-10 })
			Expect(v.Outcome).To(Equal(protocol.OutcomePass))
			_, v = mutated(id, func(r *protocol.Result) { r.Output.Scores[0].Score += 1e-9 + 1e-12 })
			Expect(v.Outcome).To(Equal(protocol.OutcomeFail))
			Expect(v.Message).To(ContainSubstring("delta"))
		})
		It("counts the other problems in the message", func() {
			_, v := mutated(id, func(r *protocol.Result) {
				for i := range r.Output.Scores {
					r.Output.Scores[i].Score += 1
				}
			})
			n := len(fixtures().Case(id).Expect.Scores)
			Expect(n).To(BeNumerically(">", 2))
			Expect(v.Message).To(HaveSuffix(fmt.Sprintf("(and %d more problems)", n-1)))
			_, v = mutated(id, func(r *protocol.Result) {
				r.Output.Scores[0].Score += 1
				r.Output.Scores[1].Score += 1
			})
			Expect(v.Message).To(HaveSuffix("(and 1 more problem)"))
			_, v = mutated(id, func(r *protocol.Result) { r.Output.Scores[0].Score += 1 })
			Expect(v.Message).NotTo(ContainSubstring("more problem"))
		})
		It("fails a missing score, a duplicate index and an index out of range", func() {
			_, v := mutated(id, func(r *protocol.Result) { r.Output.Scores = r.Output.Scores[1:] })
			Expect(v.Message).To(ContainSubstring("missing"))
			_, v = mutated(id, func(r *protocol.Result) { r.Output.Scores = append(r.Output.Scores, r.Output.Scores[0]) })
			Expect(v.Message).To(ContainSubstring("appears twice"))
			_, v = mutated(id, func(r *protocol.Result) { r.Output.Scores[0].Index = 99 })
			Expect(v.Message).To(ContainSubstring("out of range"))
		})
		It("matches NaN and infinities exactly", func() {
			Expect(runner.ScoresMatch(math.NaN(), math.NaN(), 1e-9)).To(BeTrue())
			Expect(runner.ScoresMatch(math.Inf(1), math.Inf(1), 1e-9)).To(BeTrue())
			Expect(runner.ScoresMatch(1e300, math.Inf(1), 1e-9)).To(BeFalse())
			Expect(runner.ScoresMatch(math.NaN(), 0, 1e-9)).To(BeFalse())
			Expect(runner.ScoresMatch(math.Copysign(0, -1), 0, 1e-9)).To(BeTrue())
		})
	})

	Describe("statuses", func() {
		It("maps unsupported and error results", func() {
			_, v := mutated("required/scoring/recency-basic", func(r *protocol.Result) {
				*r = protocol.Result{Kind: protocol.ResultUnsupported, Reason: "no recency"}
			})
			Expect(v.Outcome).To(Equal(protocol.OutcomeUnsupported))
			_, v = mutated("required/scoring/recency-basic", func(r *protocol.Result) {
				*r = protocol.Result{Kind: protocol.ResultError, Error: &protocol.ErrorInfo{Kind: "internal", Message: "oops"}}
			})
			Expect(v.Outcome).To(Equal(protocol.OutcomeError))
			_, v = mutated("required/scoring/recency-basic", func(r *protocol.Result) { r.Kind = "maybe" })
			Expect(v.Outcome).To(Equal(protocol.OutcomeError))
		})
		It("fails an unexpected rejection", func() {
			_, v := mutated("required/scoring/recency-basic", func(r *protocol.Result) {
				*r = protocol.Result{Kind: protocol.ResultRejected, Error: &protocol.ErrorInfo{Kind: "invalid_config"}}
			})
			Expect(v.Outcome).To(Equal(protocol.OutcomeFail))
			Expect(v.Message).To(ContainSubstring("rejected unexpectedly"))
		})
	})

	Describe("expected errors", func() {
		It("needs the right kind", func() {
			_, v := mutated("required/pipeline/pipeline-pinned-exceeds-budget", func(r *protocol.Result) { r.Error.Kind = "overflow" })
			Expect(v.Outcome).To(Equal(protocol.OutcomeFail))
			Expect(v.Message).To(Equal("rejected with overflow, want pinned_exceeds_budget"))
		})
		It("fails a successful run", func() {
			_, v := mutated("optional/slicing/knapsack-table-too-large", func(r *protocol.Result) {
				*r = protocol.Result{Kind: protocol.ResultOK, Output: &protocol.Output{Selected: []int{0}}}
			})
			Expect(v.Message).To(ContainSubstring("expected the run to fail with table_too_large, got ok"))
		})
		It("treats a construction error as invalid_config", func() {
			_, v := mutated("optional/scoring/composite-construction-empty", func(r *protocol.Result) { r.Error.Kind = "invalid_item" })
			Expect(v.Outcome).To(Equal(protocol.OutcomeFail))
			_, v = mutated("optional/scoring/composite-construction-empty", func(r *protocol.Result) {
				*r = protocol.Result{Kind: protocol.ResultOK, Output: &protocol.Output{}}
			})
			Expect(v.Message).To(ContainSubstring("construction to fail"))
		})
	})

	Describe("selections", func() {
		const id = "required/slicing/greedy-density-order"
		It("ignores order", func() {
			_, v := mutated(id, func(r *protocol.Result) {
				s := r.Output.Selected
				for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
					s[i], s[j] = s[j], s[i]
				}
			})
			Expect(v.Outcome).To(Equal(protocol.OutcomePass))
		})
		It("shows missing and unexpected items, and no line for an empty side", func() {
			_, v := mutated(id, func(r *protocol.Result) { r.Output.Selected = r.Output.Selected[1:] })
			Expect(v.Outcome).To(Equal(protocol.OutcomeFail))
			Expect(v.Details).To(ContainElement(ContainSubstring("missing:")))
			Expect(v.Details).NotTo(ContainElement(ContainSubstring("unexpected:")))

			c := fixtures().Case(id)
			unused := -1
			for i := range c.Input.Items {
				if !slices.ContainsFunc(c.Expect.Selected, func(r casefile.Ref) bool { return r.Resolved == i }) {
					unused = i
				}
			}
			Expect(unused).To(BeNumerically(">=", 0))
			_, v = mutated(id, func(r *protocol.Result) { r.Output.Selected = append(r.Output.Selected, unused) })
			Expect(v.Outcome).To(Equal(protocol.OutcomeFail))
			Expect(v.Details).To(ContainElement(HavePrefix("  + unexpected: ")))
			Expect(v.Details).NotTo(ContainElement(ContainSubstring("missing:")))
		})
		It("checks shortfalls in full and cap exclusions", func() {
			_, v := mutated("optional/slicing/count-quota-scarcity-degrade", func(r *protocol.Result) { r.Output.Shortfalls[0].SatisfiedCount = 2 })
			Expect(v.Message).To(ContainSubstring("shortfalls differ"))
			_, v = mutated("optional/slicing/count-quota-scarcity-degrade", func(r *protocol.Result) { r.Output.Shortfalls = nil })
			Expect(v.Message).To(ContainSubstring("0 recorded, want 1"))
			_, v = mutated("optional/slicing/count-quota-cap-exclusion", func(r *protocol.Result) { r.Output.CapExcludedCount = nil })
			Expect(v.Message).To(ContainSubstring("cap_excluded_count: not reported"))
		})
	})

	Describe("orders", func() {
		It("compares in order and points at the first difference, marking the rows that differ", func() {
			_, v := mutated("required/placing/u-shaped-seven-items", func(r *protocol.Result) {
				o := r.Output.Ordered
				o[1], o[2] = o[2], o[1]
			})
			Expect(v.Outcome).To(Equal(protocol.OutcomeFail))
			Expect(v.Details).To(ContainElement(ContainSubstring("first difference at position 1")))
			var marked, rows []string
			for _, d := range v.Details {
				if m := regexp.MustCompile(`^\s+(!)?\s+(\d+)\s+expected`).FindStringSubmatch(d); m != nil {
					rows = append(rows, m[2])
					if m[1] == "!" {
						marked = append(marked, m[2])
					}
				}
			}
			Expect(rows).To(Equal([]string{"0", "1", "2", "3", "4", "5", "6"}))
			Expect(marked).To(Equal([]string{"1", "2"}))
		})
		It("fails an index out of range and a repeated index", func() {
			_, v := mutated("required/placing/u-shaped-seven-items", func(r *protocol.Result) { r.Output.Ordered[0] = -1 })
			Expect(v.Message).To(ContainSubstring("out of range"))
			_, v = mutated("required/placing/u-shaped-seven-items", func(r *protocol.Result) { r.Output.Ordered[0] = r.Output.Ordered[1] })
			Expect(v.Message).To(ContainSubstring("appears twice"))
		})
		It("tells duplicate contents apart when the vector gives an index", func() {
			_, v := mutated("optional/pipeline/diagnostics-duplicate-content", func(r *protocol.Result) { r.Output.Ordered = []int{1} })
			Expect(v.Outcome).To(Equal(protocol.OutcomeFail))
		})
	})

	Describe("pipeline extras", func() {
		It("checks the overflow event", func() {
			_, v := mutated("required/pipeline/pipeline-overflow-proceed", func(r *protocol.Result) { r.Output.Overflow = nil })
			Expect(v.Message).To(ContainSubstring("expected an OverflowEvent"))
			_, v = mutated("required/pipeline/pipeline-overflow-proceed", func(r *protocol.Result) { r.Output.Overflow.TokensOverBudget++ })
			Expect(v.Message).To(ContainSubstring("tokens_over_budget = 101, want 100"))
		})
		It("compares diagnostics in full and in order", func() {
			const id = "optional/pipeline/diagnostics-duplicate-content"
			_, v := mutated(id, func(r *protocol.Result) { r.Output.Diagnostics = nil })
			Expect(v.Message).To(ContainSubstring("expected a selection report"))
			_, v = mutated(id, func(r *protocol.Result) { r.Output.Diagnostics.Excluded[0].Reason["available_tokens"] = 49.0 })
			Expect(v.Message).To(ContainSubstring("available_tokens"))
			_, v = mutated(id, func(r *protocol.Result) { r.Output.Diagnostics.Excluded[0].Reason["reason"] = "PinnedOverride" })
			Expect(v.Message).To(ContainSubstring("reason"))
			_, v = mutated(id, func(r *protocol.Result) {
				d := r.Output.Diagnostics
				d.Excluded = append(d.Excluded, d.Excluded[0])
			})
			Expect(v.Message).To(ContainSubstring("2 entries, want 1"))
			_, v = mutated(id, func(r *protocol.Result) { r.Output.Diagnostics.Included[0].Score = 0.5 })
			Expect(v.Message).To(ContainSubstring("score"))
			_, v = mutated(id, func(r *protocol.Result) { r.Output.Diagnostics.TotalTokensConsidered = 1 })
			Expect(v.Message).To(ContainSubstring("total_tokens_considered = 1, want 550"))
			_, v = mutated(id, func(r *protocol.Result) {
				r.Output.Diagnostics.Excluded[0].Reason["item_tokens"] = 401.0
				r.Output.Diagnostics.Excluded[0].Reason["available_tokens"] = 51.0
			})
			Expect(v.Message).To(Equal(`diagnostics excluded differ (in order, in full): [0] available_tokens, item_tokens differ: ` +
				`expected #1 "dup" score=0 BudgetExceeded (available_tokens=50, item_tokens=400), actual #1 "dup" score=0 BudgetExceeded (available_tokens=51, item_tokens=401)`))
			for _, bad := range []int{99, -1} {
				_, v = mutated(id, func(r *protocol.Result) {
					r.Output.Diagnostics.Excluded[0].Index = bad
					r.Output.Diagnostics.Included[0].Index = bad
				})
				Expect(v.Outcome).To(Equal(protocol.OutcomeFail), "an index out of range in the report fails the case")
				Expect(v.Message).To(ContainSubstring(fmt.Sprintf("[0] index %d is out of range", bad)))
			}
			_, v = mutated(id, func(r *protocol.Result) {
				r.Output.Diagnostics.Excluded[0].Reason["extra_field"] = "not asserted"
			})
			Expect(v.Outcome).To(Equal(protocol.OutcomePass), "fields the vector does not state are not compared")
		})
	})
})
