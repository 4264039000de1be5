package matchers_test

// Dot-importing ginkgo, gomega and matchers in one file compiles only if no
// exported name clashes; using a name of each proves they resolve.

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/internal/testcases"
	. "github.com/cupel-go/go-cupel/matchers"
)

var _ = Describe("dot-imported together with gomega and ginkgo", func() {
	It("resolves every matcher name", func() {
		r := testcases.Agent()
		budget := testcases.Budget(1000, 800)
		all := func(cupel.IncludedItem) bool { return true }
		any := func(*cupel.ContextItem) bool { return true }
		Expect(r).To(SatisfyAll(
			IncludeItemWithKind(cupel.KindMessage),
			IncludeItemMatching(all),
			IncludeExactlyNItemsWithKind(cupel.KindMessage, 2),
			ExcludeItemWithReason(cupel.ExclusionDeduplicated),
			ExcludeItemMatchingWithReason(any, cupel.ExclusionNegativeTokens),
			ExcludeItemWithBudgetDetails(any, 500, 360),
			HaveNoExclusionsForKind(cupel.KindSystemPrompt),
			HaveAtLeastNExclusions(4),
			ExcludedItemsAreSortedByScoreDescending(),
			HaveBudgetUtilizationAbove(0.64, budget),
			HaveKindCoverageCount(4),
			PlaceItemAtEdge(all),
			PlaceTopNScoredAtEdges(5),
		))
		Expect(r.Included).To(HaveLen(5)) // gomega's own names still resolve
	})
})
