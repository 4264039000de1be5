package matchers_test

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/types"
	"github.com/sebdah/goldie/v2"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/internal/testcases"
	"github.com/cupel-go/go-cupel/matchers"
)

// matcherFor replays a table call as a matcher.
func matcherFor(c testcases.Call) types.GomegaMatcher {
	switch c.Pattern {
	case "IncludeItemWithKind":
		return matchers.IncludeItemWithKind(c.Kind)
	case "IncludeItemMatching":
		return matchers.IncludeItemMatching(c.IncPred)
	case "IncludeExactlyNItemsWithKind":
		return matchers.IncludeExactlyNItemsWithKind(c.Kind, c.N)
	case "ExcludeItemWithReason":
		return matchers.ExcludeItemWithReason(c.Reason)
	case "ExcludeItemMatchingWithReason":
		return matchers.ExcludeItemMatchingWithReason(c.ItemPred, c.Reason)
	case "ExcludeItemWithBudgetDetails":
		return matchers.ExcludeItemWithBudgetDetails(c.ItemPred, c.ItemTok, c.AvailTok)
	case "HaveNoExclusionsForKind":
		return matchers.HaveNoExclusionsForKind(c.Kind)
	case "HaveAtLeastNExclusions":
		return matchers.HaveAtLeastNExclusions(c.N)
	case "ExcludedItemsAreSortedByScoreDescending":
		return matchers.ExcludedItemsAreSortedByScoreDescending()
	case "HaveBudgetUtilizationAbove":
		return matchers.HaveBudgetUtilizationAbove(c.Threshold, c.Budget)
	case "HaveKindCoverageCount":
		return matchers.HaveKindCoverageCount(c.N)
	case "PlaceItemAtEdge":
		return matchers.PlaceItemAtEdge(c.IncPred)
	case "PlaceTopNScoredAtEdges":
		return matchers.PlaceTopNScoredAtEdges(c.N)
	}
	Fail("unknown pattern " + c.Pattern)
	return nil
}

func gomegaString(m types.GomegaMatcher) string {
	return m.(interface{ GomegaString() string }).GomegaString()
}

var _ = Describe("matchers", func() {
	for _, pattern := range testcases.Patterns {
		Describe(pattern, func() {
			for _, c := range testcases.Of(pattern) {
				switch {
				case c.Report() == nil:
					It("errors on a nil report: "+c.ID, func() {
						m := matcherFor(c.Call)
						ok, err := m.Match(c.Report())
						Expect(ok).To(BeFalse())
						Expect(err).To(MatchError(ContainSubstring(gomegaString(m) + " expects a *cupel.SelectionReport or a cupel.SelectionReport")))
					})
				case c.Pass():
					It("matches: "+c.ID, func() {
						r := c.Report()
						Expect(r).To(matcherFor(c.Call))
						Expect(*r).To(matcherFor(c.Call), "a report value matches too")
					})
					It("fails under Not with the negated message: "+c.ID, func() {
						m := matcherFor(c.Call)
						r := c.Report()
						failures := InterceptGomegaFailures(func() { Expect(r).NotTo(m) })
						Expect(failures).To(Equal([]string{m.NegatedFailureMessage(r)}))
						Expect(failures[0]).To(ContainSubstring("Expected the report not to satisfy " + gomegaString(m) + ", but "))
					})
				default:
					It("fails with the exact message: "+c.ID, func() {
						m := matcherFor(c.Call)
						r := c.Report()
						failures := InterceptGomegaFailures(func() { Expect(r).To(m) })
						Expect(failures).To(Equal([]string{c.Want}))
						Expect(m.FailureMessage(*r)).To(Equal(c.Want))
						if strings.Contains(c.ID, "/fail-invalid-") {
							failures = InterceptGomegaFailures(func() { Expect(r).NotTo(m) })
							Expect(failures).To(Equal([]string{c.Want}), "invalid arguments fail under NotTo too")
						} else {
							Expect(r).NotTo(m)
						}
					})
				}
			}

			It("has reviewed golden messages, positive and negated", func() {
				var b strings.Builder
				for _, c := range testcases.Of(pattern) {
					r := c.Report()
					if r == nil {
						continue
					}
					m := matcherFor(c.Call)
					if c.Pass() {
						fmt.Fprintf(&b, "# %s\n%s\nNegatedFailureMessage: %s\n\n", c.ID, gomegaString(m), m.NegatedFailureMessage(r))
					} else {
						fmt.Fprintf(&b, "# %s\n%s\nFailureMessage: %s\n\n", c.ID, gomegaString(m), m.FailureMessage(r))
					}
				}
				g := goldie.New(GinkgoTB(), goldie.WithFixtureDir("testdata/golden/messages"))
				g.Assert(GinkgoTB(), pattern, []byte(b.String()))
			})
		})
	}
})

var _ = Describe("matcher plumbing", func() {
	budget := testcases.Budget(1000, 800)

	It("renders every matcher as its call", func() {
		pred := func(cupel.IncludedItem) bool { return true }
		ipred := func(*cupel.ContextItem) bool { return true }
		for m, want := range map[types.GomegaMatcher]string{
			matchers.IncludeItemWithKind(cupel.KindMessage):                            `IncludeItemWithKind(Message)`,
			matchers.IncludeItemMatching(pred):                                         `IncludeItemMatching(<predicate>)`,
			matchers.IncludeExactlyNItemsWithKind(cupel.KindToolOutput, 2):             `IncludeExactlyNItemsWithKind(ToolOutput, 2)`,
			matchers.ExcludeItemWithReason(cupel.ExclusionBudgetExceeded):              `ExcludeItemWithReason(BudgetExceeded)`,
			matchers.ExcludeItemMatchingWithReason(ipred, cupel.ExclusionDeduplicated): `ExcludeItemMatchingWithReason(<predicate>, Deduplicated)`,
			matchers.ExcludeItemWithBudgetDetails(ipred, 500, 360):                     `ExcludeItemWithBudgetDetails(<predicate>, 500, 360)`,
			matchers.HaveNoExclusionsForKind(cupel.KindSystemPrompt):                   `HaveNoExclusionsForKind(SystemPrompt)`,
			matchers.HaveAtLeastNExclusions(3):                                         `HaveAtLeastNExclusions(3)`,
			matchers.ExcludedItemsAreSortedByScoreDescending():                         `ExcludedItemsAreSortedByScoreDescending()`,
			matchers.HaveBudgetUtilizationAbove(0.75, budget):                          `HaveBudgetUtilizationAbove(0.75, ContextBudget{MaxTokens: 1000, TargetTokens: 800})`,
			matchers.HaveKindCoverageCount(4):                                          `HaveKindCoverageCount(4)`,
			matchers.PlaceItemAtEdge(pred):                                             `PlaceItemAtEdge(<predicate>)`,
			matchers.PlaceTopNScoredAtEdges(2):                                         `PlaceTopNScoredAtEdges(2)`,
		} {
			Expect(gomegaString(m)).To(Equal(want))
		}
	})

	It("prints as its call inside ContainElement", func() {
		reports := []*cupel.SelectionReport{testcases.Agent(), testcases.Empty()}
		failures := InterceptGomegaFailures(func() {
			Expect(reports).To(ContainElement(matchers.IncludeItemWithKind(cupel.KindMemory)))
		})
		Expect(failures).To(HaveLen(1))
		Expect(failures[0]).To(ContainSubstring(`to contain element matching`))
		Expect(failures[0]).To(ContainSubstring(`IncludeItemWithKind(Memory)`))
		Expect(reports).To(ContainElement(matchers.IncludeItemWithKind(cupel.KindSystemPrompt)))
	})

	It("composes with And, Or and Not", func() {
		r := testcases.Agent()
		Expect(r).To(And(matchers.HaveKindCoverageCount(4), matchers.PlaceTopNScoredAtEdges(5)))
		Expect(r).To(Or(matchers.HaveKindCoverageCount(9), matchers.IncludeItemWithKind(cupel.KindDocument)))
		Expect(r).To(Not(matchers.IncludeItemWithKind(cupel.KindMemory)))

		failures := InterceptGomegaFailures(func() {
			Expect(r).To(And(matchers.HaveKindCoverageCount(4), matchers.HaveAtLeastNExclusions(9)))
		})
		Expect(failures).To(Equal([]string{"HaveAtLeastNExclusions(9) failed: expected at least 9 excluded items, but Excluded had 4."}))

		failures = InterceptGomegaFailures(func() {
			Expect(r).To(Not(matchers.HaveKindCoverageCount(4)))
		})
		Expect(failures).To(Equal([]string{
			`Expected the report not to satisfy HaveKindCoverageCount(4), but found 4 distinct ContextKind values in Included: [SystemPrompt, Document, Message, ToolOutput].`,
		}))

		failures = InterceptGomegaFailures(func() {
			Expect(r).To(Or(matchers.HaveKindCoverageCount(9), matchers.IncludeItemWithKind(cupel.KindMemory)))
		})
		Expect(failures).To(HaveLen(1))
		Expect(failures[0]).To(ContainSubstring(`HaveKindCoverageCount(9)`))
		Expect(failures[0]).To(ContainSubstring(`IncludeItemWithKind(Memory)`))
	})

	It("prints the report as its summary, not its struct, in Or and ContainElement failures", func() {
		r := testcases.Agent()
		failures := InterceptGomegaFailures(func() {
			Expect(r).To(Or(matchers.HaveKindCoverageCount(9), matchers.IncludeItemWithKind(cupel.KindMemory)))
		})
		Expect(failures).To(HaveLen(1))
		Expect(failures[0]).To(ContainSubstring("SelectionReport: 9 candidates"))
		Expect(failures[0]).To(ContainSubstring(`included[0]: "You are a support agent for Acme. Be con…" (SystemPrompt, 120 tokens) Pinned score=1`))
		Expect(failures[0]).NotTo(ContainSubstring("TotalTokensConsidered"))
		Expect(strings.Count(failures[0], "\n")).To(BeNumerically("<", 20))

		failures = InterceptGomegaFailures(func() {
			Expect([]*cupel.SelectionReport{r}).To(ContainElement(matchers.IncludeItemWithKind(cupel.KindMemory)))
		})
		Expect(failures[0]).To(ContainSubstring("SelectionReport: 9 candidates"))
	})

	It("says what was expected not to hold and what was found", func() {
		r := testcases.Agent()
		for m, want := range map[types.GomegaMatcher]string{
			matchers.IncludeItemWithKind(cupel.KindMessage):                                                   `Expected the report not to satisfy IncludeItemWithKind(Message), but Included contained 2 items with Kind=Message (of 5 items).`,
			matchers.ExcludeItemWithBudgetDetails(func(it *cupel.ContextItem) bool { return true }, 800, 360): `Expected the report not to satisfy ExcludeItemWithBudgetDetails(<predicate>, 800, 360), but the excluded item at index 2 matched the predicate with BudgetExceeded item_tokens=800, available_tokens=360.`,
			matchers.HaveBudgetUtilizationAbove(0.6, budget):                                                  `Expected the report not to satisfy HaveBudgetUtilizationAbove(0.6, ContextBudget{MaxTokens: 1000, TargetTokens: 800}), but computed utilization was 0.640000 (includedTokens=640, budget.MaxTokens=1000).`,
		} {
			Expect(m.NegatedFailureMessage(r)).To(Equal(want))
		}
	})

	It("keeps no state between calls", func() {
		m := matchers.HaveAtLeastNExclusions(1)
		agent, empty := testcases.Agent(), testcases.Empty()
		Expect(m.Match(agent)).To(BeTrue())
		// FailureMessage computes from the actual it is given, not from the last Match.
		Expect(m.FailureMessage(empty)).To(Equal("HaveAtLeastNExclusions(1) failed: expected at least 1 excluded items, but Excluded had 0."))
		Expect(m.Match(empty)).To(BeFalse())
		Expect(m.NegatedFailureMessage(agent)).To(Equal("Expected the report not to satisfy HaveAtLeastNExclusions(1), but Excluded had 4 items."))
		Expect(m.Match(agent)).To(BeTrue())
	})

	It("errors clearly on anything but a report", func() {
		m := matchers.IncludeItemWithKind(cupel.KindMessage)
		for _, actual := range []any{nil, "report", 42, (*cupel.SelectionReport)(nil), []cupel.IncludedItem{}} {
			ok, err := m.Match(actual)
			Expect(ok).To(BeFalse())
			Expect(err).To(MatchError(ContainSubstring(`IncludeItemWithKind(Message) expects a *cupel.SelectionReport or a cupel.SelectionReport. Got:`)))
			Expect(m.FailureMessage(actual)).To(Equal(err.Error()))
			Expect(m.NegatedFailureMessage(actual)).To(Equal(err.Error()))
		}
		_, err := m.Match("report")
		Expect(err.Error()).To(ContainSubstring(`<string>: report`))

		failures := InterceptGomegaFailures(func() { Expect(42).To(m) })
		Expect(failures).To(HaveLen(1))
		Expect(failures[0]).To(ContainSubstring("expects a *cupel.SelectionReport"))
	})
})
