package matchers

import (
	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/internal/assertions"
)

// IncludeItemWithKindMatcher is the matcher returned by [IncludeItemWithKind].
type IncludeItemWithKindMatcher struct {
	kind cupel.ContextKind
}

// IncludeItemWithKind succeeds when at least one included item has the kind (ASCII case folding).
// Use it as Expect(report).To(IncludeItemWithKind(...)); the report may be a
// *cupel.SelectionReport or a cupel.SelectionReport.
func IncludeItemWithKind(kind cupel.ContextKind) *IncludeItemWithKindMatcher {
	return &IncludeItemWithKindMatcher{kind: kind}
}

func (m *IncludeItemWithKindMatcher) eval(r *cupel.SelectionReport) assertions.Outcome {
	return assertions.IncludeItemWithKind(r, m.kind)
}

// Match reports whether the report satisfies the assertion; it returns an
// error when actual is not a report.
func (m *IncludeItemWithKindMatcher) Match(actual any) (bool, error) { return match(m.eval, actual) }

// FailureMessage returns the assertion's failure message for actual, the
// same as cupeltest's.
func (m *IncludeItemWithKindMatcher) FailureMessage(actual any) string {
	return failureMessage(m.eval, actual)
}

// NegatedFailureMessage says that the assertion was expected not to hold
// and what actual held that satisfied it.
func (m *IncludeItemWithKindMatcher) NegatedFailureMessage(actual any) string {
	return negatedFailureMessage(m.eval, actual)
}

// GomegaString renders the matcher as it was called.
func (m *IncludeItemWithKindMatcher) GomegaString() string { return gomegaString(m.eval) }

// String renders the matcher as it was called, like GomegaString, for
// Gomega's And, Or and other places that format matchers with %s.
func (m *IncludeItemWithKindMatcher) String() string { return gomegaString(m.eval) }

// IncludeItemMatchingMatcher is the matcher returned by [IncludeItemMatching].
type IncludeItemMatchingMatcher struct {
	predicate func(cupel.IncludedItem) bool
}

// IncludeItemMatching succeeds when at least one included entry (item, score and reason) satisfies the predicate.
// Use it as Expect(report).To(IncludeItemMatching(...)); the report may be a
// *cupel.SelectionReport or a cupel.SelectionReport.
func IncludeItemMatching(predicate func(cupel.IncludedItem) bool) *IncludeItemMatchingMatcher {
	return &IncludeItemMatchingMatcher{predicate: predicate}
}

func (m *IncludeItemMatchingMatcher) eval(r *cupel.SelectionReport) assertions.Outcome {
	return assertions.IncludeItemMatching(r, m.predicate)
}

// Match reports whether the report satisfies the assertion; it returns an
// error when actual is not a report.
func (m *IncludeItemMatchingMatcher) Match(actual any) (bool, error) { return match(m.eval, actual) }

// FailureMessage returns the assertion's failure message for actual, the
// same as cupeltest's.
func (m *IncludeItemMatchingMatcher) FailureMessage(actual any) string {
	return failureMessage(m.eval, actual)
}

// NegatedFailureMessage says that the assertion was expected not to hold
// and what actual held that satisfied it.
func (m *IncludeItemMatchingMatcher) NegatedFailureMessage(actual any) string {
	return negatedFailureMessage(m.eval, actual)
}

// GomegaString renders the matcher as it was called.
func (m *IncludeItemMatchingMatcher) GomegaString() string { return gomegaString(m.eval) }

// String renders the matcher as it was called, like GomegaString, for
// Gomega's And, Or and other places that format matchers with %s.
func (m *IncludeItemMatchingMatcher) String() string { return gomegaString(m.eval) }

// IncludeExactlyNItemsWithKindMatcher is the matcher returned by [IncludeExactlyNItemsWithKind].
type IncludeExactlyNItemsWithKindMatcher struct {
	kind cupel.ContextKind
	n    int
}

// IncludeExactlyNItemsWithKind succeeds when exactly n included items have the kind; n = 0 asserts the kind is absent from Included.
// Use it as Expect(report).To(IncludeExactlyNItemsWithKind(...)); the report may be a
// *cupel.SelectionReport or a cupel.SelectionReport.
func IncludeExactlyNItemsWithKind(kind cupel.ContextKind, n int) *IncludeExactlyNItemsWithKindMatcher {
	return &IncludeExactlyNItemsWithKindMatcher{kind: kind, n: n}
}

func (m *IncludeExactlyNItemsWithKindMatcher) eval(r *cupel.SelectionReport) assertions.Outcome {
	return assertions.IncludeExactlyNItemsWithKind(r, m.kind, m.n)
}

// Match reports whether the report satisfies the assertion; it returns an
// error when actual is not a report.
func (m *IncludeExactlyNItemsWithKindMatcher) Match(actual any) (bool, error) {
	return match(m.eval, actual)
}

// FailureMessage returns the assertion's failure message for actual, the
// same as cupeltest's.
func (m *IncludeExactlyNItemsWithKindMatcher) FailureMessage(actual any) string {
	return failureMessage(m.eval, actual)
}

// NegatedFailureMessage says that the assertion was expected not to hold
// and what actual held that satisfied it.
func (m *IncludeExactlyNItemsWithKindMatcher) NegatedFailureMessage(actual any) string {
	return negatedFailureMessage(m.eval, actual)
}

// GomegaString renders the matcher as it was called.
func (m *IncludeExactlyNItemsWithKindMatcher) GomegaString() string { return gomegaString(m.eval) }

// String renders the matcher as it was called, like GomegaString, for
// Gomega's And, Or and other places that format matchers with %s.
func (m *IncludeExactlyNItemsWithKindMatcher) String() string { return gomegaString(m.eval) }

// ExcludeItemWithReasonMatcher is the matcher returned by [ExcludeItemWithReason].
type ExcludeItemWithReasonMatcher struct {
	reason cupel.ExclusionVariant
}

// ExcludeItemWithReason succeeds when at least one excluded entry's reason is of the variant.
// Use it as Expect(report).To(ExcludeItemWithReason(...)); the report may be a
// *cupel.SelectionReport or a cupel.SelectionReport.
func ExcludeItemWithReason(reason cupel.ExclusionVariant) *ExcludeItemWithReasonMatcher {
	return &ExcludeItemWithReasonMatcher{reason: reason}
}

func (m *ExcludeItemWithReasonMatcher) eval(r *cupel.SelectionReport) assertions.Outcome {
	return assertions.ExcludeItemWithReason(r, m.reason)
}

// Match reports whether the report satisfies the assertion; it returns an
// error when actual is not a report.
func (m *ExcludeItemWithReasonMatcher) Match(actual any) (bool, error) { return match(m.eval, actual) }

// FailureMessage returns the assertion's failure message for actual, the
// same as cupeltest's.
func (m *ExcludeItemWithReasonMatcher) FailureMessage(actual any) string {
	return failureMessage(m.eval, actual)
}

// NegatedFailureMessage says that the assertion was expected not to hold
// and what actual held that satisfied it.
func (m *ExcludeItemWithReasonMatcher) NegatedFailureMessage(actual any) string {
	return negatedFailureMessage(m.eval, actual)
}

// GomegaString renders the matcher as it was called.
func (m *ExcludeItemWithReasonMatcher) GomegaString() string { return gomegaString(m.eval) }

// String renders the matcher as it was called, like GomegaString, for
// Gomega's And, Or and other places that format matchers with %s.
func (m *ExcludeItemWithReasonMatcher) String() string { return gomegaString(m.eval) }

// ExcludeItemMatchingWithReasonMatcher is the matcher returned by [ExcludeItemMatchingWithReason].
type ExcludeItemMatchingWithReasonMatcher struct {
	predicate func(*cupel.ContextItem) bool
	reason    cupel.ExclusionVariant
}

// ExcludeItemMatchingWithReason succeeds when at least one excluded item satisfies the predicate and has a reason of the variant.
// Use it as Expect(report).To(ExcludeItemMatchingWithReason(...)); the report may be a
// *cupel.SelectionReport or a cupel.SelectionReport.
func ExcludeItemMatchingWithReason(predicate func(*cupel.ContextItem) bool, reason cupel.ExclusionVariant) *ExcludeItemMatchingWithReasonMatcher {
	return &ExcludeItemMatchingWithReasonMatcher{predicate: predicate, reason: reason}
}

func (m *ExcludeItemMatchingWithReasonMatcher) eval(r *cupel.SelectionReport) assertions.Outcome {
	return assertions.ExcludeItemMatchingWithReason(r, m.predicate, m.reason)
}

// Match reports whether the report satisfies the assertion; it returns an
// error when actual is not a report.
func (m *ExcludeItemMatchingWithReasonMatcher) Match(actual any) (bool, error) {
	return match(m.eval, actual)
}

// FailureMessage returns the assertion's failure message for actual, the
// same as cupeltest's.
func (m *ExcludeItemMatchingWithReasonMatcher) FailureMessage(actual any) string {
	return failureMessage(m.eval, actual)
}

// NegatedFailureMessage says that the assertion was expected not to hold
// and what actual held that satisfied it.
func (m *ExcludeItemMatchingWithReasonMatcher) NegatedFailureMessage(actual any) string {
	return negatedFailureMessage(m.eval, actual)
}

// GomegaString renders the matcher as it was called.
func (m *ExcludeItemMatchingWithReasonMatcher) GomegaString() string { return gomegaString(m.eval) }

// String renders the matcher as it was called, like GomegaString, for
// Gomega's And, Or and other places that format matchers with %s.
func (m *ExcludeItemMatchingWithReasonMatcher) String() string { return gomegaString(m.eval) }

// ExcludeItemWithBudgetDetailsMatcher is the matcher returned by [ExcludeItemWithBudgetDetails].
type ExcludeItemWithBudgetDetailsMatcher struct {
	predicate               func(*cupel.ContextItem) bool
	expectedItemTokens      int
	expectedAvailableTokens int
}

// ExcludeItemWithBudgetDetails succeeds when an excluded item satisfying the predicate has reason BudgetExceeded with exactly these item_tokens and available_tokens.
// Use it as Expect(report).To(ExcludeItemWithBudgetDetails(...)); the report may be a
// *cupel.SelectionReport or a cupel.SelectionReport.
func ExcludeItemWithBudgetDetails(predicate func(*cupel.ContextItem) bool, expectedItemTokens int, expectedAvailableTokens int) *ExcludeItemWithBudgetDetailsMatcher {
	return &ExcludeItemWithBudgetDetailsMatcher{predicate: predicate, expectedItemTokens: expectedItemTokens, expectedAvailableTokens: expectedAvailableTokens}
}

func (m *ExcludeItemWithBudgetDetailsMatcher) eval(r *cupel.SelectionReport) assertions.Outcome {
	return assertions.ExcludeItemWithBudgetDetails(r, m.predicate, m.expectedItemTokens, m.expectedAvailableTokens)
}

// Match reports whether the report satisfies the assertion; it returns an
// error when actual is not a report.
func (m *ExcludeItemWithBudgetDetailsMatcher) Match(actual any) (bool, error) {
	return match(m.eval, actual)
}

// FailureMessage returns the assertion's failure message for actual, the
// same as cupeltest's.
func (m *ExcludeItemWithBudgetDetailsMatcher) FailureMessage(actual any) string {
	return failureMessage(m.eval, actual)
}

// NegatedFailureMessage says that the assertion was expected not to hold
// and what actual held that satisfied it.
func (m *ExcludeItemWithBudgetDetailsMatcher) NegatedFailureMessage(actual any) string {
	return negatedFailureMessage(m.eval, actual)
}

// GomegaString renders the matcher as it was called.
func (m *ExcludeItemWithBudgetDetailsMatcher) GomegaString() string { return gomegaString(m.eval) }

// String renders the matcher as it was called, like GomegaString, for
// Gomega's And, Or and other places that format matchers with %s.
func (m *ExcludeItemWithBudgetDetailsMatcher) String() string { return gomegaString(m.eval) }

// HaveNoExclusionsForKindMatcher is the matcher returned by [HaveNoExclusionsForKind].
type HaveNoExclusionsForKindMatcher struct {
	kind cupel.ContextKind
}

// HaveNoExclusionsForKind succeeds when no excluded item has the kind.
// Use it as Expect(report).To(HaveNoExclusionsForKind(...)); the report may be a
// *cupel.SelectionReport or a cupel.SelectionReport.
func HaveNoExclusionsForKind(kind cupel.ContextKind) *HaveNoExclusionsForKindMatcher {
	return &HaveNoExclusionsForKindMatcher{kind: kind}
}

func (m *HaveNoExclusionsForKindMatcher) eval(r *cupel.SelectionReport) assertions.Outcome {
	return assertions.HaveNoExclusionsForKind(r, m.kind)
}

// Match reports whether the report satisfies the assertion; it returns an
// error when actual is not a report.
func (m *HaveNoExclusionsForKindMatcher) Match(actual any) (bool, error) {
	return match(m.eval, actual)
}

// FailureMessage returns the assertion's failure message for actual, the
// same as cupeltest's.
func (m *HaveNoExclusionsForKindMatcher) FailureMessage(actual any) string {
	return failureMessage(m.eval, actual)
}

// NegatedFailureMessage says that the assertion was expected not to hold
// and what actual held that satisfied it.
func (m *HaveNoExclusionsForKindMatcher) NegatedFailureMessage(actual any) string {
	return negatedFailureMessage(m.eval, actual)
}

// GomegaString renders the matcher as it was called.
func (m *HaveNoExclusionsForKindMatcher) GomegaString() string { return gomegaString(m.eval) }

// String renders the matcher as it was called, like GomegaString, for
// Gomega's And, Or and other places that format matchers with %s.
func (m *HaveNoExclusionsForKindMatcher) String() string { return gomegaString(m.eval) }

// HaveAtLeastNExclusionsMatcher is the matcher returned by [HaveAtLeastNExclusions].
type HaveAtLeastNExclusionsMatcher struct {
	n int
}

// HaveAtLeastNExclusions succeeds when Excluded has at least n entries.
// Use it as Expect(report).To(HaveAtLeastNExclusions(...)); the report may be a
// *cupel.SelectionReport or a cupel.SelectionReport.
func HaveAtLeastNExclusions(n int) *HaveAtLeastNExclusionsMatcher {
	return &HaveAtLeastNExclusionsMatcher{n: n}
}

func (m *HaveAtLeastNExclusionsMatcher) eval(r *cupel.SelectionReport) assertions.Outcome {
	return assertions.HaveAtLeastNExclusions(r, m.n)
}

// Match reports whether the report satisfies the assertion; it returns an
// error when actual is not a report.
func (m *HaveAtLeastNExclusionsMatcher) Match(actual any) (bool, error) { return match(m.eval, actual) }

// FailureMessage returns the assertion's failure message for actual, the
// same as cupeltest's.
func (m *HaveAtLeastNExclusionsMatcher) FailureMessage(actual any) string {
	return failureMessage(m.eval, actual)
}

// NegatedFailureMessage says that the assertion was expected not to hold
// and what actual held that satisfied it.
func (m *HaveAtLeastNExclusionsMatcher) NegatedFailureMessage(actual any) string {
	return negatedFailureMessage(m.eval, actual)
}

// GomegaString renders the matcher as it was called.
func (m *HaveAtLeastNExclusionsMatcher) GomegaString() string { return gomegaString(m.eval) }

// String renders the matcher as it was called, like GomegaString, for
// Gomega's And, Or and other places that format matchers with %s.
func (m *HaveAtLeastNExclusionsMatcher) String() string { return gomegaString(m.eval) }

// ExcludedItemsAreSortedByScoreDescendingMatcher is the matcher returned by [ExcludedItemsAreSortedByScoreDescending].
type ExcludedItemsAreSortedByScoreDescendingMatcher struct {
}

// ExcludedItemsAreSortedByScoreDescending succeeds when Excluded is in non-increasing score order (a conformance assertion).
// Use it as Expect(report).To(ExcludedItemsAreSortedByScoreDescending(...)); the report may be a
// *cupel.SelectionReport or a cupel.SelectionReport.
func ExcludedItemsAreSortedByScoreDescending() *ExcludedItemsAreSortedByScoreDescendingMatcher {
	return &ExcludedItemsAreSortedByScoreDescendingMatcher{}
}

func (m *ExcludedItemsAreSortedByScoreDescendingMatcher) eval(r *cupel.SelectionReport) assertions.Outcome {
	return assertions.ExcludedItemsAreSortedByScoreDescending(r)
}

// Match reports whether the report satisfies the assertion; it returns an
// error when actual is not a report.
func (m *ExcludedItemsAreSortedByScoreDescendingMatcher) Match(actual any) (bool, error) {
	return match(m.eval, actual)
}

// FailureMessage returns the assertion's failure message for actual, the
// same as cupeltest's.
func (m *ExcludedItemsAreSortedByScoreDescendingMatcher) FailureMessage(actual any) string {
	return failureMessage(m.eval, actual)
}

// NegatedFailureMessage says that the assertion was expected not to hold
// and what actual held that satisfied it.
func (m *ExcludedItemsAreSortedByScoreDescendingMatcher) NegatedFailureMessage(actual any) string {
	return negatedFailureMessage(m.eval, actual)
}

// GomegaString renders the matcher as it was called.
func (m *ExcludedItemsAreSortedByScoreDescendingMatcher) GomegaString() string {
	return gomegaString(m.eval)
}

// HaveBudgetUtilizationAboveMatcher is the matcher returned by [HaveBudgetUtilizationAbove].
type HaveBudgetUtilizationAboveMatcher struct {
	threshold float64
	budget    cupel.ContextBudget
}

// HaveBudgetUtilizationAbove succeeds when the included tokens divided by budget.MaxTokens() is >= threshold (exact comparison, no epsilon).
// Use it as Expect(report).To(HaveBudgetUtilizationAbove(...)); the report may be a
// *cupel.SelectionReport or a cupel.SelectionReport.
func HaveBudgetUtilizationAbove(threshold float64, budget cupel.ContextBudget) *HaveBudgetUtilizationAboveMatcher {
	return &HaveBudgetUtilizationAboveMatcher{threshold: threshold, budget: budget}
}

func (m *HaveBudgetUtilizationAboveMatcher) eval(r *cupel.SelectionReport) assertions.Outcome {
	return assertions.HaveBudgetUtilizationAbove(r, m.threshold, m.budget)
}

// Match reports whether the report satisfies the assertion; it returns an
// error when actual is not a report.
func (m *HaveBudgetUtilizationAboveMatcher) Match(actual any) (bool, error) {
	return match(m.eval, actual)
}

// FailureMessage returns the assertion's failure message for actual, the
// same as cupeltest's.
func (m *HaveBudgetUtilizationAboveMatcher) FailureMessage(actual any) string {
	return failureMessage(m.eval, actual)
}

// NegatedFailureMessage says that the assertion was expected not to hold
// and what actual held that satisfied it.
func (m *HaveBudgetUtilizationAboveMatcher) NegatedFailureMessage(actual any) string {
	return negatedFailureMessage(m.eval, actual)
}

// GomegaString renders the matcher as it was called.
func (m *HaveBudgetUtilizationAboveMatcher) GomegaString() string { return gomegaString(m.eval) }

// String renders the matcher as it was called, like GomegaString, for
// Gomega's And, Or and other places that format matchers with %s.
func (m *HaveBudgetUtilizationAboveMatcher) String() string { return gomegaString(m.eval) }

// HaveKindCoverageCountMatcher is the matcher returned by [HaveKindCoverageCount].
type HaveKindCoverageCountMatcher struct {
	n int
}

// HaveKindCoverageCount succeeds when Included holds at least n distinct kinds.
// Use it as Expect(report).To(HaveKindCoverageCount(...)); the report may be a
// *cupel.SelectionReport or a cupel.SelectionReport.
func HaveKindCoverageCount(n int) *HaveKindCoverageCountMatcher {
	return &HaveKindCoverageCountMatcher{n: n}
}

func (m *HaveKindCoverageCountMatcher) eval(r *cupel.SelectionReport) assertions.Outcome {
	return assertions.HaveKindCoverageCount(r, m.n)
}

// Match reports whether the report satisfies the assertion; it returns an
// error when actual is not a report.
func (m *HaveKindCoverageCountMatcher) Match(actual any) (bool, error) { return match(m.eval, actual) }

// FailureMessage returns the assertion's failure message for actual, the
// same as cupeltest's.
func (m *HaveKindCoverageCountMatcher) FailureMessage(actual any) string {
	return failureMessage(m.eval, actual)
}

// NegatedFailureMessage says that the assertion was expected not to hold
// and what actual held that satisfied it.
func (m *HaveKindCoverageCountMatcher) NegatedFailureMessage(actual any) string {
	return negatedFailureMessage(m.eval, actual)
}

// GomegaString renders the matcher as it was called.
func (m *HaveKindCoverageCountMatcher) GomegaString() string { return gomegaString(m.eval) }

// String renders the matcher as it was called, like GomegaString, for
// Gomega's And, Or and other places that format matchers with %s.
func (m *HaveKindCoverageCountMatcher) String() string { return gomegaString(m.eval) }

// PlaceItemAtEdgeMatcher is the matcher returned by [PlaceItemAtEdge].
type PlaceItemAtEdgeMatcher struct {
	predicate func(cupel.IncludedItem) bool
}

// PlaceItemAtEdge succeeds when the first or the last included entry satisfies the predicate.
// Use it as Expect(report).To(PlaceItemAtEdge(...)); the report may be a
// *cupel.SelectionReport or a cupel.SelectionReport.
func PlaceItemAtEdge(predicate func(cupel.IncludedItem) bool) *PlaceItemAtEdgeMatcher {
	return &PlaceItemAtEdgeMatcher{predicate: predicate}
}

func (m *PlaceItemAtEdgeMatcher) eval(r *cupel.SelectionReport) assertions.Outcome {
	return assertions.PlaceItemAtEdge(r, m.predicate)
}

// Match reports whether the report satisfies the assertion; it returns an
// error when actual is not a report.
func (m *PlaceItemAtEdgeMatcher) Match(actual any) (bool, error) { return match(m.eval, actual) }

// FailureMessage returns the assertion's failure message for actual, the
// same as cupeltest's.
func (m *PlaceItemAtEdgeMatcher) FailureMessage(actual any) string {
	return failureMessage(m.eval, actual)
}

// NegatedFailureMessage says that the assertion was expected not to hold
// and what actual held that satisfied it.
func (m *PlaceItemAtEdgeMatcher) NegatedFailureMessage(actual any) string {
	return negatedFailureMessage(m.eval, actual)
}

// GomegaString renders the matcher as it was called.
func (m *PlaceItemAtEdgeMatcher) GomegaString() string { return gomegaString(m.eval) }

// String renders the matcher as it was called, like GomegaString, for
// Gomega's And, Or and other places that format matchers with %s.
func (m *PlaceItemAtEdgeMatcher) String() string { return gomegaString(m.eval) }

// PlaceTopNScoredAtEdgesMatcher is the matcher returned by [PlaceTopNScoredAtEdges].
type PlaceTopNScoredAtEdgesMatcher struct {
	n int
}

// PlaceTopNScoredAtEdges succeeds when the n highest-scored included items occupy the n outermost positions in edge order (0, count-1, 1, count-2, ...).
// Use it as Expect(report).To(PlaceTopNScoredAtEdges(...)); the report may be a
// *cupel.SelectionReport or a cupel.SelectionReport.
func PlaceTopNScoredAtEdges(n int) *PlaceTopNScoredAtEdgesMatcher {
	return &PlaceTopNScoredAtEdgesMatcher{n: n}
}

func (m *PlaceTopNScoredAtEdgesMatcher) eval(r *cupel.SelectionReport) assertions.Outcome {
	return assertions.PlaceTopNScoredAtEdges(r, m.n)
}

// Match reports whether the report satisfies the assertion; it returns an
// error when actual is not a report.
func (m *PlaceTopNScoredAtEdgesMatcher) Match(actual any) (bool, error) { return match(m.eval, actual) }

// FailureMessage returns the assertion's failure message for actual, the
// same as cupeltest's.
func (m *PlaceTopNScoredAtEdgesMatcher) FailureMessage(actual any) string {
	return failureMessage(m.eval, actual)
}

// NegatedFailureMessage says that the assertion was expected not to hold
// and what actual held that satisfied it.
func (m *PlaceTopNScoredAtEdgesMatcher) NegatedFailureMessage(actual any) string {
	return negatedFailureMessage(m.eval, actual)
}

// GomegaString renders the matcher as it was called.
func (m *PlaceTopNScoredAtEdgesMatcher) GomegaString() string { return gomegaString(m.eval) }

// String renders the matcher as it was called, like GomegaString, for
// Gomega's And, Or and other places that format matchers with %s.
func (m *PlaceTopNScoredAtEdgesMatcher) String() string { return gomegaString(m.eval) }
