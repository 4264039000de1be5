package matchers

import (
	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/internal/assertions"
)

// Each matcher type below embeds [Matcher], which holds the pattern bound to
// its arguments (the one definition in internal/assertions, shared with
// cupeltest's chain) and implements Gomega's matcher interface once for all
// 13.

// IncludeItemWithKindMatcher is the matcher returned by [IncludeItemWithKind].
type IncludeItemWithKindMatcher struct{ Matcher }

// IncludeItemWithKind succeeds when at least one included item has the kind (ASCII case folding).
// Use it as Expect(report).To(IncludeItemWithKind(...)).
func IncludeItemWithKind(kind cupel.ContextKind) *IncludeItemWithKindMatcher {
	return &IncludeItemWithKindMatcher{Matcher{assertions.IncludeItemWithKind(kind)}}
}

// IncludeItemMatchingMatcher is the matcher returned by [IncludeItemMatching].
type IncludeItemMatchingMatcher struct{ Matcher }

// IncludeItemMatching succeeds when at least one included entry (item, score and reason) satisfies the predicate.
// Use it as Expect(report).To(IncludeItemMatching(...)).
func IncludeItemMatching(predicate func(cupel.IncludedItem) bool) *IncludeItemMatchingMatcher {
	return &IncludeItemMatchingMatcher{Matcher{assertions.IncludeItemMatching(predicate)}}
}

// IncludeExactlyNItemsWithKindMatcher is the matcher returned by [IncludeExactlyNItemsWithKind].
type IncludeExactlyNItemsWithKindMatcher struct{ Matcher }

// IncludeExactlyNItemsWithKind succeeds when exactly n included items have the kind; n = 0 asserts the kind is absent from Included.
// Use it as Expect(report).To(IncludeExactlyNItemsWithKind(...)).
func IncludeExactlyNItemsWithKind(kind cupel.ContextKind, n int) *IncludeExactlyNItemsWithKindMatcher {
	return &IncludeExactlyNItemsWithKindMatcher{Matcher{assertions.IncludeExactlyNItemsWithKind(kind, n)}}
}

// ExcludeItemWithReasonMatcher is the matcher returned by [ExcludeItemWithReason].
type ExcludeItemWithReasonMatcher struct{ Matcher }

// ExcludeItemWithReason succeeds when at least one excluded entry's reason is of the variant.
// Use it as Expect(report).To(ExcludeItemWithReason(...)).
func ExcludeItemWithReason(reason cupel.ExclusionVariant) *ExcludeItemWithReasonMatcher {
	return &ExcludeItemWithReasonMatcher{Matcher{assertions.ExcludeItemWithReason(reason)}}
}

// ExcludeItemMatchingWithReasonMatcher is the matcher returned by [ExcludeItemMatchingWithReason].
type ExcludeItemMatchingWithReasonMatcher struct{ Matcher }

// ExcludeItemMatchingWithReason succeeds when at least one excluded item satisfies the predicate and has a reason of the variant.
// Use it as Expect(report).To(ExcludeItemMatchingWithReason(...)).
func ExcludeItemMatchingWithReason(predicate func(*cupel.ContextItem) bool, reason cupel.ExclusionVariant) *ExcludeItemMatchingWithReasonMatcher {
	return &ExcludeItemMatchingWithReasonMatcher{Matcher{assertions.ExcludeItemMatchingWithReason(predicate, reason)}}
}

// ExcludeItemWithBudgetDetailsMatcher is the matcher returned by [ExcludeItemWithBudgetDetails].
type ExcludeItemWithBudgetDetailsMatcher struct{ Matcher }

// ExcludeItemWithBudgetDetails succeeds when an excluded item satisfying the predicate has reason BudgetExceeded with exactly these item_tokens and available_tokens.
// Use it as Expect(report).To(ExcludeItemWithBudgetDetails(...)).
func ExcludeItemWithBudgetDetails(predicate func(*cupel.ContextItem) bool, expectedItemTokens, expectedAvailableTokens int) *ExcludeItemWithBudgetDetailsMatcher {
	return &ExcludeItemWithBudgetDetailsMatcher{Matcher{assertions.ExcludeItemWithBudgetDetails(predicate, expectedItemTokens, expectedAvailableTokens)}}
}

// HaveNoExclusionsForKindMatcher is the matcher returned by [HaveNoExclusionsForKind].
type HaveNoExclusionsForKindMatcher struct{ Matcher }

// HaveNoExclusionsForKind succeeds when no excluded item has the kind.
// Use it as Expect(report).To(HaveNoExclusionsForKind(...)).
func HaveNoExclusionsForKind(kind cupel.ContextKind) *HaveNoExclusionsForKindMatcher {
	return &HaveNoExclusionsForKindMatcher{Matcher{assertions.HaveNoExclusionsForKind(kind)}}
}

// HaveAtLeastNExclusionsMatcher is the matcher returned by [HaveAtLeastNExclusions].
type HaveAtLeastNExclusionsMatcher struct{ Matcher }

// HaveAtLeastNExclusions succeeds when Excluded has at least n entries.
// Use it as Expect(report).To(HaveAtLeastNExclusions(...)).
func HaveAtLeastNExclusions(n int) *HaveAtLeastNExclusionsMatcher {
	return &HaveAtLeastNExclusionsMatcher{Matcher{assertions.HaveAtLeastNExclusions(n)}}
}

// ExcludedItemsAreSortedByScoreDescendingMatcher is the matcher returned by [ExcludedItemsAreSortedByScoreDescending].
type ExcludedItemsAreSortedByScoreDescendingMatcher struct{ Matcher }

// ExcludedItemsAreSortedByScoreDescending succeeds when Excluded is in non-increasing score order (a conformance assertion).
// Use it as Expect(report).To(ExcludedItemsAreSortedByScoreDescending(...)).
func ExcludedItemsAreSortedByScoreDescending() *ExcludedItemsAreSortedByScoreDescendingMatcher {
	return &ExcludedItemsAreSortedByScoreDescendingMatcher{Matcher{assertions.ExcludedItemsAreSortedByScoreDescending()}}
}

// HaveBudgetUtilizationAboveMatcher is the matcher returned by [HaveBudgetUtilizationAbove].
type HaveBudgetUtilizationAboveMatcher struct{ Matcher }

// HaveBudgetUtilizationAbove succeeds when the included tokens divided by budget.MaxTokens() is >= threshold (exact comparison, no epsilon).
// Use it as Expect(report).To(HaveBudgetUtilizationAbove(...)).
func HaveBudgetUtilizationAbove(threshold float64, budget cupel.ContextBudget) *HaveBudgetUtilizationAboveMatcher {
	return &HaveBudgetUtilizationAboveMatcher{Matcher{assertions.HaveBudgetUtilizationAbove(threshold, budget)}}
}

// HaveKindCoverageCountMatcher is the matcher returned by [HaveKindCoverageCount].
type HaveKindCoverageCountMatcher struct{ Matcher }

// HaveKindCoverageCount succeeds when Included holds at least n distinct kinds.
// Use it as Expect(report).To(HaveKindCoverageCount(...)).
func HaveKindCoverageCount(n int) *HaveKindCoverageCountMatcher {
	return &HaveKindCoverageCountMatcher{Matcher{assertions.HaveKindCoverageCount(n)}}
}

// PlaceItemAtEdgeMatcher is the matcher returned by [PlaceItemAtEdge].
type PlaceItemAtEdgeMatcher struct{ Matcher }

// PlaceItemAtEdge succeeds when the first or the last included entry satisfies the predicate.
// Use it as Expect(report).To(PlaceItemAtEdge(...)).
func PlaceItemAtEdge(predicate func(cupel.IncludedItem) bool) *PlaceItemAtEdgeMatcher {
	return &PlaceItemAtEdgeMatcher{Matcher{assertions.PlaceItemAtEdge(predicate)}}
}

// PlaceTopNScoredAtEdgesMatcher is the matcher returned by [PlaceTopNScoredAtEdges].
type PlaceTopNScoredAtEdgesMatcher struct{ Matcher }

// PlaceTopNScoredAtEdges succeeds when each of the n outermost positions (0, count-1, 1, count-2, ...) holds an item scored at least the n-th highest score: the top n are at the edges, in any order (ruling 25).
// Use it as Expect(report).To(PlaceTopNScoredAtEdges(...)).
func PlaceTopNScoredAtEdges(n int) *PlaceTopNScoredAtEdgesMatcher {
	return &PlaceTopNScoredAtEdgesMatcher{Matcher{assertions.PlaceTopNScoredAtEdges(n)}}
}
