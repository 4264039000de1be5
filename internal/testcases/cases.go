package testcases

import (
	"strings"

	"github.com/cupel-go/go-cupel/cupel"
)

// Call is one assertion with its arguments, in a form both front ends can
// replay: the chain (cupeltest) and the matchers.
type Call struct {
	Pattern   string
	Kind      cupel.ContextKind
	Reason    cupel.ExclusionVariant
	N         int
	IncPred   func(cupel.IncludedItem) bool
	ItemPred  func(*cupel.ContextItem) bool
	ItemTok   int
	AvailTok  int
	Threshold float64
	Budget    cupel.ContextBudget
}

// Case is one assertion on one report and what must come of it.
type Case struct {
	// ID is unique: "<Pattern>/<what>".
	ID     string
	Report func() *cupel.SelectionReport
	Call   Call
	// Want is the exact failure message, or "" when the assertion holds.
	Want string
}

// Pass reports whether the case's assertion holds.
func (c Case) Pass() bool { return c.Want == "" }

// The calls, one constructor per pattern, named after it.

// IncludeItemWithKind returns a call of the pattern IncludeItemWithKind.
func IncludeItemWithKind(k cupel.ContextKind) Call {
	return Call{Pattern: "IncludeItemWithKind", Kind: k}
}

// IncludeItemMatching returns a call of the pattern IncludeItemMatching.
func IncludeItemMatching(p func(cupel.IncludedItem) bool) Call {
	return Call{Pattern: "IncludeItemMatching", IncPred: p}
}

// IncludeExactlyNItemsWithKind returns a call of the pattern IncludeExactlyNItemsWithKind.
func IncludeExactlyNItemsWithKind(k cupel.ContextKind, n int) Call {
	return Call{Pattern: "IncludeExactlyNItemsWithKind", Kind: k, N: n}
}

// ExcludeItemWithReason returns a call of the pattern ExcludeItemWithReason.
func ExcludeItemWithReason(r cupel.ExclusionVariant) Call {
	return Call{Pattern: "ExcludeItemWithReason", Reason: r}
}

// ExcludeItemMatchingWithReason returns a call of the pattern ExcludeItemMatchingWithReason.
func ExcludeItemMatchingWithReason(p func(*cupel.ContextItem) bool, r cupel.ExclusionVariant) Call {
	return Call{Pattern: "ExcludeItemMatchingWithReason", ItemPred: p, Reason: r}
}

// ExcludeItemWithBudgetDetails returns a call of the pattern ExcludeItemWithBudgetDetails.
func ExcludeItemWithBudgetDetails(p func(*cupel.ContextItem) bool, itemTokens, availableTokens int) Call {
	return Call{Pattern: "ExcludeItemWithBudgetDetails", ItemPred: p, ItemTok: itemTokens, AvailTok: availableTokens}
}

// HaveNoExclusionsForKind returns a call of the pattern HaveNoExclusionsForKind.
func HaveNoExclusionsForKind(k cupel.ContextKind) Call {
	return Call{Pattern: "HaveNoExclusionsForKind", Kind: k}
}

// HaveAtLeastNExclusions returns a call of the pattern HaveAtLeastNExclusions.
func HaveAtLeastNExclusions(n int) Call { return Call{Pattern: "HaveAtLeastNExclusions", N: n} }

// ExcludedItemsAreSortedByScoreDescending returns a call of the pattern ExcludedItemsAreSortedByScoreDescending.
func ExcludedItemsAreSortedByScoreDescending() Call {
	return Call{Pattern: "ExcludedItemsAreSortedByScoreDescending"}
}

// HaveBudgetUtilizationAbove returns a call of the pattern HaveBudgetUtilizationAbove.
func HaveBudgetUtilizationAbove(threshold float64, b cupel.ContextBudget) Call {
	return Call{Pattern: "HaveBudgetUtilizationAbove", Threshold: threshold, Budget: b}
}

// HaveKindCoverageCount returns a call of the pattern HaveKindCoverageCount.
func HaveKindCoverageCount(n int) Call { return Call{Pattern: "HaveKindCoverageCount", N: n} }

// PlaceItemAtEdge returns a call of the pattern PlaceItemAtEdge.
func PlaceItemAtEdge(p func(cupel.IncludedItem) bool) Call {
	return Call{Pattern: "PlaceItemAtEdge", IncPred: p}
}

// PlaceTopNScoredAtEdges returns a call of the pattern PlaceTopNScoredAtEdges.
func PlaceTopNScoredAtEdges(n int) Call { return Call{Pattern: "PlaceTopNScoredAtEdges", N: n} }

// Patterns lists the 13 pattern names in the chapter's order.
var Patterns = []string{
	"IncludeItemWithKind", "IncludeItemMatching", "IncludeExactlyNItemsWithKind",
	"ExcludeItemWithReason", "ExcludeItemMatchingWithReason", "ExcludeItemWithBudgetDetails", "HaveNoExclusionsForKind",
	"HaveAtLeastNExclusions", "ExcludedItemsAreSortedByScoreDescending",
	"HaveBudgetUtilizationAbove", "HaveKindCoverageCount",
	"PlaceItemAtEdge", "PlaceTopNScoredAtEdges",
}

func contentHas(s string) func(*cupel.ContextItem) bool {
	return func(it *cupel.ContextItem) bool { return strings.Contains(it.Content(), s) }
}

func kindIs(k cupel.ContextKind) func(*cupel.ContextItem) bool {
	return func(it *cupel.ContextItem) bool { return it.Kind().Equal(k) }
}

func incKindIs(k cupel.ContextKind) func(cupel.IncludedItem) bool {
	return func(in cupel.IncludedItem) bool { return in.Item.Kind().Equal(k) }
}

func incContentIs(s string) func(cupel.IncludedItem) bool {
	return func(in cupel.IncludedItem) bool { return in.Item.Content() == s }
}

func never[T any](T) bool { return false }

const agentIncluded = "[(kind=SystemPrompt, score=1, reason=Pinned), (kind=Document, score=0.8, reason=Scored), (kind=Message, score=0.5, reason=Scored), (kind=ToolOutput, score=0.7, reason=Scored), (kind=Message, score=0.9, reason=Scored)]"

func nilReport() *cupel.SelectionReport { return nil }

// Cases returns the full table, grouped by pattern in the chapter's order.
func Cases() []Case {
	b1000 := Budget(1000, 800)
	cases := []Case{
		// 1. IncludeItemWithKind
		{"IncludeItemWithKind/pass", Agent, IncludeItemWithKind(cupel.KindMessage), ""},
		{"IncludeItemWithKind/pass-ascii-case-folding", Agent, IncludeItemWithKind("toolOUTPUT"), ""},
		{"IncludeItemWithKind/pass-single", Single, IncludeItemWithKind(cupel.KindMemory), ""},
		{"IncludeItemWithKind/fail-no-such-kind", Agent, IncludeItemWithKind(cupel.KindMemory),
			"IncludeItemWithKind(Memory) failed: Included contained 0 items with Kind=Memory. Included had 5 items with kinds: [SystemPrompt, Document, Message, ToolOutput]."},
		{"IncludeItemWithKind/fail-empty", Empty, IncludeItemWithKind(cupel.KindMessage),
			"IncludeItemWithKind(Message) failed: Included contained 0 items with Kind=Message. Included had 0 items with kinds: []."},
		{"IncludeItemWithKind/fail-kind-only-excluded", Reserved, IncludeItemWithKind(cupel.KindMemory),
			"IncludeItemWithKind(Memory) failed: Included contained 0 items with Kind=Memory. Included had 0 items with kinds: []."},
		{"IncludeItemWithKind/fail-distinct-kinds-folded", MixedCase, IncludeItemWithKind(cupel.KindDocument),
			"IncludeItemWithKind(Document) failed: Included contained 0 items with Kind=Document. Included had 2 items with kinds: [Message]."},

		// 2. IncludeItemMatching
		{"IncludeItemMatching/pass-on-score-and-reason", Agent, IncludeItemMatching(func(in cupel.IncludedItem) bool {
			return in.Score >= 0.9 && in.Reason == cupel.InclusionScored
		}), ""},
		{"IncludeItemMatching/pass-on-reason", Agent, IncludeItemMatching(func(in cupel.IncludedItem) bool { return in.Reason == cupel.InclusionPinned }), ""},
		{"IncludeItemMatching/fail-empty", Empty, IncludeItemMatching(never[cupel.IncludedItem]),
			"IncludeItemMatching failed: no item in Included matched the predicate. Included had 0 items."},
		{"IncludeItemMatching/fail-none-matches", Agent, IncludeItemMatching(func(in cupel.IncludedItem) bool { return in.Reason == cupel.InclusionZeroToken }),
			"IncludeItemMatching failed: no item in Included matched the predicate. Included had 5 items. Included items: " + agentIncluded + "."},
		{"IncludeItemMatching/fail-summary-capped-at-5", Seven, IncludeItemMatching(never[cupel.IncludedItem]),
			"IncludeItemMatching failed: no item in Included matched the predicate. Included had 7 items. Included items (first 5 of 7): [(kind=Message, score=0.1, reason=Scored), (kind=Message, score=0.2, reason=Scored), (kind=Message, score=0.3, reason=Scored), (kind=Message, score=0.4, reason=Scored), (kind=Message, score=0.5, reason=Scored)]."},
		{"IncludeItemMatching/fail-nil-predicate", Agent, IncludeItemMatching(nil),
			"IncludeItemMatching failed: the predicate is nil."},

		// 3. IncludeExactlyNItemsWithKind
		{"IncludeExactlyNItemsWithKind/pass", Agent, IncludeExactlyNItemsWithKind(cupel.KindMessage, 2), ""},
		{"IncludeExactlyNItemsWithKind/pass-n0-absent", Agent, IncludeExactlyNItemsWithKind(cupel.KindMemory, 0), ""},
		{"IncludeExactlyNItemsWithKind/pass-n0-empty", Empty, IncludeExactlyNItemsWithKind(cupel.KindMessage, 0), ""},
		{"IncludeExactlyNItemsWithKind/pass-ascii-case-folding", MixedCase, IncludeExactlyNItemsWithKind("MESSAGE", 2), ""},
		{"IncludeExactlyNItemsWithKind/fail-empty", Empty, IncludeExactlyNItemsWithKind(cupel.KindMessage, 1),
			"IncludeExactlyNItemsWithKind(Message, 1) failed: expected 1 items with Kind=Message in Included, but found 0. Included had 0 items total."},
		{"IncludeExactlyNItemsWithKind/fail-too-few", Agent, IncludeExactlyNItemsWithKind(cupel.KindMessage, 3),
			"IncludeExactlyNItemsWithKind(Message, 3) failed: expected 3 items with Kind=Message in Included, but found 2. Included had 5 items total."},
		{"IncludeExactlyNItemsWithKind/fail-n0-present", Agent, IncludeExactlyNItemsWithKind(cupel.KindDocument, 0),
			"IncludeExactlyNItemsWithKind(Document, 0) failed: expected 0 items with Kind=Document in Included, but found 1. Included had 5 items total."},

		// 4. ExcludeItemWithReason
		{"ExcludeItemWithReason/pass", Agent, ExcludeItemWithReason(cupel.ExclusionBudgetExceeded), ""},
		{"ExcludeItemWithReason/pass-reserved-variant", Reserved, ExcludeItemWithReason(cupel.ExclusionFiltered), ""},
		{"ExcludeItemWithReason/pass-extension-variant", Reserved, ExcludeItemWithReason(cupel.ExclusionCountCapExceeded), ""},
		{"ExcludeItemWithReason/fail-empty", Empty, ExcludeItemWithReason(cupel.ExclusionBudgetExceeded),
			"ExcludeItemWithReason(BudgetExceeded) failed: no excluded item had reason BudgetExceeded. Excluded had 0 items with reasons: []."},
		{"ExcludeItemWithReason/fail-other-reasons", Agent, ExcludeItemWithReason(cupel.ExclusionPinnedOverride),
			"ExcludeItemWithReason(PinnedOverride) failed: no excluded item had reason PinnedOverride. Excluded had 4 items with reasons: [BudgetExceeded, Deduplicated, NegativeTokens]."},
		{"ExcludeItemWithReason/fail-variant-not-string", Agent, ExcludeItemWithReason("budgetexceeded"),
			"ExcludeItemWithReason(budgetexceeded) failed: no excluded item had reason budgetexceeded. Excluded had 4 items with reasons: [BudgetExceeded, Deduplicated, NegativeTokens]."},

		// 5. ExcludeItemMatchingWithReason
		{"ExcludeItemMatchingWithReason/pass", Agent, ExcludeItemMatchingWithReason(contentHas("old-faq"), cupel.ExclusionBudgetExceeded), ""},
		{"ExcludeItemMatchingWithReason/pass-one-of-several", Agent, ExcludeItemMatchingWithReason(contentHas(""), cupel.ExclusionNegativeTokens), ""},
		{"ExcludeItemMatchingWithReason/fail-empty", Empty, ExcludeItemMatchingWithReason(contentHas(""), cupel.ExclusionBudgetExceeded),
			"ExcludeItemMatchingWithReason(reason=BudgetExceeded) failed: predicate matched 0 excluded item(s) but none had reason BudgetExceeded. Matched items had reasons: []."},
		{"ExcludeItemMatchingWithReason/fail-predicate-matches-none", Agent, ExcludeItemMatchingWithReason(kindIs(cupel.KindSystemPrompt), cupel.ExclusionBudgetExceeded),
			"ExcludeItemMatchingWithReason(reason=BudgetExceeded) failed: predicate matched 0 excluded item(s) but none had reason BudgetExceeded. Matched items had reasons: []."},
		{"ExcludeItemMatchingWithReason/fail-partial-match", Agent, ExcludeItemMatchingWithReason(kindIs(cupel.KindMessage), cupel.ExclusionBudgetExceeded),
			"ExcludeItemMatchingWithReason(reason=BudgetExceeded) failed: predicate matched 1 excluded item(s) but none had reason BudgetExceeded. Matched items had reasons: [Deduplicated]."},
		{"ExcludeItemMatchingWithReason/fail-partial-match-several", Agent, ExcludeItemMatchingWithReason(contentHas(""), cupel.ExclusionPinnedOverride),
			"ExcludeItemMatchingWithReason(reason=PinnedOverride) failed: predicate matched 4 excluded item(s) but none had reason PinnedOverride. Matched items had reasons: [BudgetExceeded, Deduplicated, NegativeTokens]."},
		{"ExcludeItemMatchingWithReason/fail-nil-predicate", Agent, ExcludeItemMatchingWithReason(nil, cupel.ExclusionBudgetExceeded),
			"ExcludeItemMatchingWithReason failed: the predicate is nil."},

		// 6. ExcludeItemWithBudgetDetails
		{"ExcludeItemWithBudgetDetails/pass", Agent, ExcludeItemWithBudgetDetails(contentHas("old-faq"), 500, 360), ""},
		{"ExcludeItemWithBudgetDetails/pass-second-candidate", Agent, ExcludeItemWithBudgetDetails(contentHas(""), 800, 360), ""},
		{"ExcludeItemWithBudgetDetails/fail-token-values-differ", Agent, ExcludeItemWithBudgetDetails(contentHas("old-faq"), 500, 400),
			"ExcludeItemWithBudgetDetails failed: expected BudgetExceeded with item_tokens=500, available_tokens=400, but found item_tokens=500, available_tokens=360."},
		{"ExcludeItemWithBudgetDetails/fail-first-candidate-reported", Agent, ExcludeItemWithBudgetDetails(contentHas(""), 800, 100),
			"ExcludeItemWithBudgetDetails failed: expected BudgetExceeded with item_tokens=800, available_tokens=100, but found item_tokens=500, available_tokens=360."},
		{"ExcludeItemWithBudgetDetails/fail-other-reason", Agent, ExcludeItemWithBudgetDetails(kindIs(cupel.KindMessage), 3, 360),
			"ExcludeItemWithBudgetDetails failed: expected BudgetExceeded with item_tokens=3, available_tokens=360, but no matching item had reason BudgetExceeded. The predicate matched 1 excluded item(s) with reasons: [Deduplicated]."},
		{"ExcludeItemWithBudgetDetails/fail-predicate-matches-none", Agent, ExcludeItemWithBudgetDetails(kindIs(cupel.KindSystemPrompt), 120, 0),
			"ExcludeItemWithBudgetDetails failed: expected BudgetExceeded with item_tokens=120, available_tokens=0, but no matching item had reason BudgetExceeded. The predicate matched 0 excluded items."},
		{"ExcludeItemWithBudgetDetails/fail-empty", Empty, ExcludeItemWithBudgetDetails(contentHas(""), 1, 1),
			"ExcludeItemWithBudgetDetails failed: expected BudgetExceeded with item_tokens=1, available_tokens=1, but no matching item had reason BudgetExceeded. The predicate matched 0 excluded items."},
		{"ExcludeItemWithBudgetDetails/fail-nil-predicate", Agent, ExcludeItemWithBudgetDetails(nil, 1, 1),
			"ExcludeItemWithBudgetDetails failed: the predicate is nil."},

		// 7. HaveNoExclusionsForKind
		{"HaveNoExclusionsForKind/pass", Agent, HaveNoExclusionsForKind(cupel.KindSystemPrompt), ""},
		{"HaveNoExclusionsForKind/pass-empty", Empty, HaveNoExclusionsForKind(cupel.KindMessage), ""},
		{"HaveNoExclusionsForKind/pass-kind-only-included", Single, HaveNoExclusionsForKind(cupel.KindMemory), ""},
		{"HaveNoExclusionsForKind/fail", Agent, HaveNoExclusionsForKind(cupel.KindDocument),
			"HaveNoExclusionsForKind(Document) failed: found 1 excluded item(s) with Kind=Document. First: score=0.6, reason=BudgetExceeded."},
		{"HaveNoExclusionsForKind/fail-several-first-is-highest", Reserved, HaveNoExclusionsForKind(cupel.KindMemory),
			"HaveNoExclusionsForKind(Memory) failed: found 2 excluded item(s) with Kind=Memory. First: score=0.7, reason=Filtered."},
		{"HaveNoExclusionsForKind/fail-ascii-case-folding", Agent, HaveNoExclusionsForKind("toolOutput"),
			"HaveNoExclusionsForKind(toolOutput) failed: found 1 excluded item(s) with Kind=toolOutput. First: score=0.3, reason=BudgetExceeded."},

		// 8. HaveAtLeastNExclusions
		{"HaveAtLeastNExclusions/pass", Agent, HaveAtLeastNExclusions(4), ""},
		{"HaveAtLeastNExclusions/pass-fewer", Agent, HaveAtLeastNExclusions(2), ""},
		{"HaveAtLeastNExclusions/pass-n0-empty", Empty, HaveAtLeastNExclusions(0), ""},
		{"HaveAtLeastNExclusions/pass-n0-smoke-test", Agent, HaveAtLeastNExclusions(0), ""},
		{"HaveAtLeastNExclusions/fail-empty", Empty, HaveAtLeastNExclusions(1),
			"HaveAtLeastNExclusions(1) failed: expected at least 1 excluded items, but Excluded had 0."},
		{"HaveAtLeastNExclusions/fail", Agent, HaveAtLeastNExclusions(5),
			"HaveAtLeastNExclusions(5) failed: expected at least 5 excluded items, but Excluded had 4."},

		// 9. ExcludedItemsAreSortedByScoreDescending
		{"ExcludedItemsAreSortedByScoreDescending/pass", Agent, ExcludedItemsAreSortedByScoreDescending(), ""},
		{"ExcludedItemsAreSortedByScoreDescending/pass-empty", Empty, ExcludedItemsAreSortedByScoreDescending(), ""},
		{"ExcludedItemsAreSortedByScoreDescending/pass-single", func() *cupel.SelectionReport { return ExcludedScores(0.3) }, ExcludedItemsAreSortedByScoreDescending(), ""},
		{"ExcludedItemsAreSortedByScoreDescending/pass-ties", func() *cupel.SelectionReport { return ExcludedScores(0.5, 0.5, 0.2, 0.2) }, ExcludedItemsAreSortedByScoreDescending(), ""},
		{"ExcludedItemsAreSortedByScoreDescending/pass-nan-last", func() *cupel.SelectionReport { return ExcludedScores(0.5, 0, NaN, NaN) }, ExcludedItemsAreSortedByScoreDescending(), ""},
		{"ExcludedItemsAreSortedByScoreDescending/fail", func() *cupel.SelectionReport { return ExcludedScores(0.5, 0.7, 0.2) }, ExcludedItemsAreSortedByScoreDescending(),
			"ExcludedItemsAreSortedByScoreDescending failed: item at index 1 (score=0.7) is higher than item at index 0 (score=0.5). Expected non-increasing scores."},
		{"ExcludedItemsAreSortedByScoreDescending/fail-first-violation", func() *cupel.SelectionReport { return ExcludedScores(0.9, 0.4, 0.6, 0.8) }, ExcludedItemsAreSortedByScoreDescending(),
			"ExcludedItemsAreSortedByScoreDescending failed: item at index 2 (score=0.6) is higher than item at index 1 (score=0.4). Expected non-increasing scores."},
		{"ExcludedItemsAreSortedByScoreDescending/fail-nan-before-number", func() *cupel.SelectionReport { return ExcludedScores(0.9, NaN, 0.1) }, ExcludedItemsAreSortedByScoreDescending(),
			"ExcludedItemsAreSortedByScoreDescending failed: item at index 2 (score=0.1) is higher than item at index 1 (score=NaN). Expected non-increasing scores."},

		// 10. HaveBudgetUtilizationAbove (640 included tokens in Agent)
		{"HaveBudgetUtilizationAbove/pass", Agent, HaveBudgetUtilizationAbove(0.5, b1000), ""},
		{"HaveBudgetUtilizationAbove/pass-exact-boundary", Agent, HaveBudgetUtilizationAbove(0.64, b1000), ""},
		{"HaveBudgetUtilizationAbove/pass-threshold-0-empty", Empty, HaveBudgetUtilizationAbove(0, b1000), ""},
		{"HaveBudgetUtilizationAbove/pass-threshold-0", Single, HaveBudgetUtilizationAbove(0, b1000), ""},
		{"HaveBudgetUtilizationAbove/pass-max-tokens-0-threshold-0", Agent, HaveBudgetUtilizationAbove(0, Budget(0, 0)), ""},
		{"HaveBudgetUtilizationAbove/fail", Agent, HaveBudgetUtilizationAbove(0.65, b1000),
			"HaveBudgetUtilizationAbove(0.65) failed: computed utilization was 0.640000 (includedTokens=640, budget.MaxTokens=1000)."},
		{"HaveBudgetUtilizationAbove/fail-denominator-is-max-not-target", Agent, HaveBudgetUtilizationAbove(0.9, Budget(1000, 640)),
			"HaveBudgetUtilizationAbove(0.9) failed: computed utilization was 0.640000 (includedTokens=640, budget.MaxTokens=1000)."},
		{"HaveBudgetUtilizationAbove/fail-empty", Empty, HaveBudgetUtilizationAbove(0.1, b1000),
			"HaveBudgetUtilizationAbove(0.1) failed: computed utilization was 0.000000 (includedTokens=0, budget.MaxTokens=1000)."},
		{"HaveBudgetUtilizationAbove/fail-threshold-above-1", Agent, HaveBudgetUtilizationAbove(1.5, b1000),
			"HaveBudgetUtilizationAbove(1.5) failed: computed utilization was 0.640000 (includedTokens=640, budget.MaxTokens=1000)."},
		{"HaveBudgetUtilizationAbove/fail-max-tokens-0", Agent, HaveBudgetUtilizationAbove(0.01, Budget(0, 0)),
			"HaveBudgetUtilizationAbove(0.01) failed: computed utilization was 0.000000 (includedTokens=640, budget.MaxTokens=0)."},
		{"HaveBudgetUtilizationAbove/fail-repeating-decimal", Agent, HaveBudgetUtilizationAbove(0.5, Budget(1920, 1920)),
			"HaveBudgetUtilizationAbove(0.5) failed: computed utilization was 0.333333 (includedTokens=640, budget.MaxTokens=1920)."},

		// 11. HaveKindCoverageCount
		{"HaveKindCoverageCount/pass", Agent, HaveKindCoverageCount(4), ""},
		{"HaveKindCoverageCount/pass-n0-empty", Empty, HaveKindCoverageCount(0), ""},
		{"HaveKindCoverageCount/pass-same-kind", MixedCase, HaveKindCoverageCount(1), ""},
		{"HaveKindCoverageCount/pass-n0", Agent, HaveKindCoverageCount(0), ""},
		{"HaveKindCoverageCount/fail", Agent, HaveKindCoverageCount(5),
			"HaveKindCoverageCount(5) failed: expected at least 5 distinct ContextKind values in Included, but found 4: [SystemPrompt, Document, Message, ToolOutput]."},
		{"HaveKindCoverageCount/fail-empty", Empty, HaveKindCoverageCount(1),
			"HaveKindCoverageCount(1) failed: expected at least 1 distinct ContextKind values in Included, but found 0: []."},
		{"HaveKindCoverageCount/fail-ascii-case-folding", MixedCase, HaveKindCoverageCount(2),
			"HaveKindCoverageCount(2) failed: expected at least 2 distinct ContextKind values in Included, but found 1: [Message]."},

		// 12. PlaceItemAtEdge
		{"PlaceItemAtEdge/pass-first", Agent, PlaceItemAtEdge(func(in cupel.IncludedItem) bool { return in.Item.Pinned() || in.Reason == cupel.InclusionPinned }), ""},
		{"PlaceItemAtEdge/pass-last", Agent, PlaceItemAtEdge(func(in cupel.IncludedItem) bool { return in.Score == 0.9 }), ""},
		{"PlaceItemAtEdge/pass-single", Single, PlaceItemAtEdge(incKindIs(cupel.KindMemory)), ""},
		{"PlaceItemAtEdge/fail-not-at-edge", Agent, PlaceItemAtEdge(incKindIs(cupel.KindToolOutput)),
			"PlaceItemAtEdge failed: item matching predicate was at index 3 (not at edge). Edge positions: 0 and 4. Included had 5 items."},
		{"PlaceItemAtEdge/fail-first-matching-index", Agent, PlaceItemAtEdge(func(in cupel.IncludedItem) bool { return in.Score > 0.6 && in.Score < 0.85 }),
			"PlaceItemAtEdge failed: item matching predicate was at index 1 (not at edge). Edge positions: 0 and 4. Included had 5 items."},
		{"PlaceItemAtEdge/fail-tie-score-not-position", func() *cupel.SelectionReport { return Scored(0.9, 0.5, 0.9, 0.8) }, PlaceItemAtEdge(incContentIs("item 2")),
			"PlaceItemAtEdge failed: item matching predicate was at index 2 (not at edge). Edge positions: 0 and 3. Included had 4 items."},
		{"PlaceItemAtEdge/fail-no-match", Agent, PlaceItemAtEdge(incKindIs(cupel.KindMemory)),
			"PlaceItemAtEdge failed: no item in Included matched the predicate."},
		{"PlaceItemAtEdge/fail-empty", Empty, PlaceItemAtEdge(func(cupel.IncludedItem) bool { return true }),
			"PlaceItemAtEdge failed: no item in Included matched the predicate."},
		{"PlaceItemAtEdge/fail-nil-predicate", Agent, PlaceItemAtEdge(nil),
			"PlaceItemAtEdge failed: the predicate is nil."},

		// 13. PlaceTopNScoredAtEdges
		{"PlaceTopNScoredAtEdges/pass", Agent, PlaceTopNScoredAtEdges(2), ""},
		{"PlaceTopNScoredAtEdges/pass-n-equals-count", Agent, PlaceTopNScoredAtEdges(5), ""},
		{"PlaceTopNScoredAtEdges/pass-n0", Agent, PlaceTopNScoredAtEdges(0), ""},
		{"PlaceTopNScoredAtEdges/pass-n0-empty", Empty, PlaceTopNScoredAtEdges(0), ""},
		{"PlaceTopNScoredAtEdges/pass-single", Single, PlaceTopNScoredAtEdges(1), ""},
		{"PlaceTopNScoredAtEdges/pass-tie-at-boundary", func() *cupel.SelectionReport { return Scored(1, 0.3, 0.5, 0.5) }, PlaceTopNScoredAtEdges(2), ""},
		{"PlaceTopNScoredAtEdges/pass-edge-in-order", func() *cupel.SelectionReport { return Scored(0.9, 0.7, 0.5, 0.8) }, PlaceTopNScoredAtEdges(4), ""},
		{"PlaceTopNScoredAtEdges/fail-n-above-count", Agent, PlaceTopNScoredAtEdges(6),
			"PlaceTopNScoredAtEdges(6) failed: Included had 5 items, fewer than the 6 edge positions to check."},
		{"PlaceTopNScoredAtEdges/fail-empty", Empty, PlaceTopNScoredAtEdges(1),
			"PlaceTopNScoredAtEdges(1) failed: Included had 0 items, fewer than the 1 edge positions to check."},
		{"PlaceTopNScoredAtEdges/fail-middle", func() *cupel.SelectionReport { return Scored(1, 0.9, 0.2, 0.5) }, PlaceTopNScoredAtEdges(2),
			"PlaceTopNScoredAtEdges(2) failed: 1 of the top-2 scored items were not at expected edge positions. Top-2 items (by score): [(kind=Message, score=1, idx=0), (kind=Message, score=0.9, idx=1)]. Expected edge positions: [0, 3]."},
		{"PlaceTopNScoredAtEdges/fail-tie-at-boundary", func() *cupel.SelectionReport { return Scored(1, 0.5, 0.5, 0.3) }, PlaceTopNScoredAtEdges(2),
			"PlaceTopNScoredAtEdges(2) failed: 1 of the top-2 scored items were not at expected edge positions. Top-2 items (by score): [(kind=Message, score=1, idx=0), (kind=Message, score=0.5, idx=1)]. Expected edge positions: [0, 3]."},
		{"PlaceTopNScoredAtEdges/fail-odd-count", func() *cupel.SelectionReport { return Scored(0.9, 0.1, 0.8, 0.2, 0.7) }, PlaceTopNScoredAtEdges(3),
			"PlaceTopNScoredAtEdges(3) failed: 1 of the top-3 scored items were not at expected edge positions. Top-3 items (by score): [(kind=Message, score=0.9, idx=0), (kind=Message, score=0.8, idx=2), (kind=Message, score=0.7, idx=4)]. Expected edge positions: [0, 4, 1]."},
		{"PlaceTopNScoredAtEdges/fail-both-edges-low", func() *cupel.SelectionReport { return Scored(0.2, 0.9, 1, 0.1) }, PlaceTopNScoredAtEdges(2),
			"PlaceTopNScoredAtEdges(2) failed: 2 of the top-2 scored items were not at expected edge positions. Top-2 items (by score): [(kind=Message, score=1, idx=2), (kind=Message, score=0.9, idx=1)]. Expected edge positions: [0, 3]."},
		// Membership, not order (ruling 25).
		{"PlaceTopNScoredAtEdges/pass-swapped-edges", func() *cupel.SelectionReport { return Scored(0.9, 0.5, 0.7, 1) }, PlaceTopNScoredAtEdges(2), ""},
		{"PlaceTopNScoredAtEdges/pass-top-two-at-2-and-0", func() *cupel.SelectionReport { return Scored(0.9, 0.1, 1) }, PlaceTopNScoredAtEdges(2), ""},
		{"PlaceTopNScoredAtEdges/pass-n-equals-count-any-order", func() *cupel.SelectionReport { return Scored(0.9, 0.5, 0.7, 0.8) }, PlaceTopNScoredAtEdges(4), ""},
		{"PlaceTopNScoredAtEdges/pass-odd-count-any-order", func() *cupel.SelectionReport { return Scored(0.9, 0.8, 0.1, 0.2, 0.7) }, PlaceTopNScoredAtEdges(3), ""},
		{"PlaceTopNScoredAtEdges/pass-tie-takes-nth-place", func() *cupel.SelectionReport { return Scored(0.5, 1, 0.3, 0.5) }, PlaceTopNScoredAtEdges(2), ""},
	}
	// Invalid arguments fail, whatever the report, saying so.
	cases = append(cases,
		Case{"IncludeItemWithKind/fail-invalid-empty-kind", Agent, IncludeItemWithKind(""),
			`IncludeItemWithKind("") failed: invalid argument: kind must not be empty.`},
		Case{"IncludeExactlyNItemsWithKind/fail-invalid-negative-n", Agent, IncludeExactlyNItemsWithKind(cupel.KindMessage, -1),
			"IncludeExactlyNItemsWithKind(Message, -1) failed: invalid argument: n must be >= 0 (got -1)."},
		Case{"IncludeExactlyNItemsWithKind/fail-invalid-blank-kind", Agent, IncludeExactlyNItemsWithKind(" ", 1),
			`IncludeExactlyNItemsWithKind(" ", 1) failed: invalid argument: kind must not be empty.`},
		Case{"ExcludeItemWithReason/fail-invalid-empty-reason", Agent, ExcludeItemWithReason(""),
			`ExcludeItemWithReason("") failed: invalid argument: reason must not be empty.`},
		Case{"ExcludeItemMatchingWithReason/fail-invalid-empty-reason", Agent, ExcludeItemMatchingWithReason(kindIs(cupel.KindMessage), ""),
			`ExcludeItemMatchingWithReason(<predicate>, "") failed: invalid argument: reason must not be empty.`},
		Case{"ExcludeItemWithBudgetDetails/fail-invalid-negative-tokens", Agent, ExcludeItemWithBudgetDetails(kindIs(cupel.KindMessage), -5, 0),
			"ExcludeItemWithBudgetDetails(<predicate>, -5, 0) failed: invalid argument: expectedItemTokens must be >= 0 (got -5)."},
		Case{"HaveNoExclusionsForKind/fail-invalid-empty-kind", Agent, HaveNoExclusionsForKind(""),
			`HaveNoExclusionsForKind("") failed: invalid argument: kind must not be empty.`},
		Case{"HaveAtLeastNExclusions/fail-invalid-negative-n", Agent, HaveAtLeastNExclusions(-2),
			"HaveAtLeastNExclusions(-2) failed: invalid argument: n must be >= 0 (got -2)."},
		Case{"HaveBudgetUtilizationAbove/fail-invalid-negative-threshold", Agent, HaveBudgetUtilizationAbove(-0.1, b1000),
			"HaveBudgetUtilizationAbove(-0.1, ContextBudget{MaxTokens: 1000, TargetTokens: 800}) failed: invalid argument: threshold must be a number >= 0 (got -0.1)."},
		Case{"HaveBudgetUtilizationAbove/fail-invalid-nan-threshold", Agent, HaveBudgetUtilizationAbove(NaN, b1000),
			"HaveBudgetUtilizationAbove(NaN, ContextBudget{MaxTokens: 1000, TargetTokens: 800}) failed: invalid argument: threshold must be a number >= 0 (got NaN)."},
		Case{"HaveKindCoverageCount/fail-invalid-negative-n", Agent, HaveKindCoverageCount(-1),
			"HaveKindCoverageCount(-1) failed: invalid argument: n must be >= 0 (got -1)."},
		Case{"PlaceTopNScoredAtEdges/fail-invalid-negative-n", Agent, PlaceTopNScoredAtEdges(-1),
			"PlaceTopNScoredAtEdges(-1) failed: invalid argument: n must be >= 0 (got -1)."},
	)
	// A nil report fails every pattern.
	for _, p := range Patterns {
		cases = append(cases, Case{p + "/fail-nil-report", nilReport, callWithDefaults(p), p + " failed: the report is nil."})
	}
	return cases
}

// callWithDefaults returns a call of the pattern with harmless arguments.
func callWithDefaults(pattern string) Call {
	return Call{
		Pattern: pattern, Kind: cupel.KindMessage, Reason: cupel.ExclusionBudgetExceeded,
		IncPred: func(cupel.IncludedItem) bool { return true }, ItemPred: func(*cupel.ContextItem) bool { return true },
		Budget: Budget(100, 100),
	}
}

// Of returns the cases of one pattern, in table order.
func Of(pattern string) []Case {
	var out []Case
	for _, c := range Cases() {
		if c.Call.Pattern == pattern {
			out = append(out, c)
		}
	}
	return out
}
