package assertions

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cupel-go/go-cupel/cupel"
)

// Outcome is the result of evaluating one pattern against one report.
type Outcome struct {
	// Assertion is the pattern's name, e.g. "IncludeItemWithKind".
	Assertion string
	// Call renders the assertion with its arguments in Go syntax, e.g.
	// IncludeItemWithKind("Message"); predicates are written <predicate>.
	Call string
	// Holds reports whether the assertion holds.
	Holds bool
	// Message is, when the assertion fails, the complete failure message of
	// the chapter's template; empty when it holds.
	Message string
	// Found describes, when the assertion holds, what the report held that
	// satisfied it, e.g. `Included contained 2 items with Kind=Message (of 5
	// items)`; empty when it fails.
	Found string
}

// NegatedMessage is the message for an assertion expected not to hold that
// did: what was expected not to hold and what was found.
func (o Outcome) NegatedMessage() string {
	return "Expected the report not to satisfy " + o.Call + ", but " + o.Found + "."
}

func fail(name, call, msg string) Outcome {
	return Outcome{Assertion: name, Call: call, Message: msg}
}

func pass(name, call, found string) Outcome {
	return Outcome{Assertion: name, Call: call, Holds: true, Found: found}
}

func nilReport(name, call string) Outcome {
	return fail(name, call, name+" failed: the report is nil.")
}

func nilPredicate(name, call string) Outcome {
	return fail(name, call, name+" failed: the predicate is nil.")
}

// Pattern names.
const (
	NameIncludeItemWithKind                     = "IncludeItemWithKind"
	NameIncludeItemMatching                     = "IncludeItemMatching"
	NameIncludeExactlyNItemsWithKind            = "IncludeExactlyNItemsWithKind"
	NameExcludeItemWithReason                   = "ExcludeItemWithReason"
	NameExcludeItemMatchingWithReason           = "ExcludeItemMatchingWithReason"
	NameExcludeItemWithBudgetDetails            = "ExcludeItemWithBudgetDetails"
	NameHaveNoExclusionsForKind                 = "HaveNoExclusionsForKind"
	NameHaveAtLeastNExclusions                  = "HaveAtLeastNExclusions"
	NameExcludedItemsAreSortedByScoreDescending = "ExcludedItemsAreSortedByScoreDescending"
	NameHaveBudgetUtilizationAbove              = "HaveBudgetUtilizationAbove"
	NameHaveKindCoverageCount                   = "HaveKindCoverageCount"
	NamePlaceItemAtEdge                         = "PlaceItemAtEdge"
	NamePlaceTopNScoredAtEdges                  = "PlaceTopNScoredAtEdges"
)

// ReportOf returns actual as a report when it is a non-nil
// *cupel.SelectionReport or a cupel.SelectionReport value: the forms the
// Gomega matchers accept.
func ReportOf(actual any) (*cupel.SelectionReport, bool) {
	switch r := actual.(type) {
	case *cupel.SelectionReport:
		return r, r != nil
	case cupel.SelectionReport:
		return &r, true
	}
	return nil, false
}

// NotAReport is the error of a matcher handed something ReportOf does not
// accept; got renders what it was handed.
func NotAReport(matcher, got string) error {
	return fmt.Errorf("%s expects a *cupel.SelectionReport or a cupel.SelectionReport. Got:\n%s", matcher, got)
}

// ---- formatting helpers ----

// FormatFloat writes f as Go's shortest round-tripping decimal.
func FormatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func itoa(n int) string { return strconv.Itoa(n) }

func kindOf(it *cupel.ContextItem) (cupel.ContextKind, bool) {
	if it == nil {
		return "", false
	}
	return it.Kind(), true
}

func hasKind(it *cupel.ContextItem, kind cupel.ContextKind) bool {
	k, ok := kindOf(it)
	return ok && k.Equal(kind)
}

// distinctKinds returns the distinct kinds of items (ASCII case folding),
// each with its first spelling, in first-met order.
func distinctKinds(items []*cupel.ContextItem) []string {
	var out []string
	seen := map[string]bool{}
	for _, it := range items {
		k, ok := kindOf(it)
		if !ok || seen[k.Key()] {
			continue
		}
		seen[k.Key()] = true
		out = append(out, string(k))
	}
	return out
}

func includedItems(r *cupel.SelectionReport) []*cupel.ContextItem {
	out := make([]*cupel.ContextItem, len(r.Included))
	for i, in := range r.Included {
		out[i] = in.Item
	}
	return out
}

// distinctReasons returns the distinct variant names, in first-met order.
func distinctReasons(ex []cupel.ExcludedItem) []string {
	var out []string
	seen := map[cupel.ExclusionVariant]bool{}
	for _, e := range ex {
		if seen[e.Reason.Variant] {
			continue
		}
		seen[e.Reason.Variant] = true
		out = append(out, string(e.Reason.Variant))
	}
	return out
}

func list(s []string) string { return "[" + strings.Join(s, ", ") + "]" }

func kindName(it *cupel.ContextItem) string {
	k, _ := kindOf(it)
	return string(k)
}

// describeIncluded renders an included entry as (kind=K, score=S, reason=R).
func describeIncluded(in cupel.IncludedItem) string {
	return "(kind=" + kindName(in.Item) + ", score=" + FormatFloat(in.Score) + ", reason=" + string(in.Reason) + ")"
}

func quote(s string) string { return strconv.Quote(s) }

// ---- Inclusion group ----

// IncludeItemWithKind asserts that at least one included item has the kind
// (pattern 1).
func IncludeItemWithKind(r *cupel.SelectionReport, kind cupel.ContextKind) Outcome {
	name := NameIncludeItemWithKind
	call := name + "(" + quote(string(kind)) + ")"
	if r == nil {
		return nilReport(name, call)
	}
	matched := 0
	for _, in := range r.Included {
		if hasKind(in.Item, kind) {
			matched++
		}
	}
	if matched > 0 {
		return pass(name, call, fmt.Sprintf("Included contained %d items with Kind=%s (of %d items)", matched, kind, len(r.Included)))
	}
	return fail(name, call, fmt.Sprintf("%s(%s) failed: Included contained 0 items with Kind=%s. Included had %d items with kinds: %s.",
		name, kind, kind, len(r.Included), list(distinctKinds(includedItems(r)))))
}

// MaxSummaryItems is the number of included entries IncludeItemMatching
// lists in its failure message.
const MaxSummaryItems = 5

// IncludeItemMatching asserts that at least one included entry satisfies
// pred (pattern 2). On failure with a non-empty Included, the message is
// followed by a summary of the first five entries (the chapter's optional
// appendix): " Included items: [(kind=K, score=S, reason=R), ...]." or, when
// there are more than five, " Included items (first 5 of N): [...]."
func IncludeItemMatching(r *cupel.SelectionReport, pred func(cupel.IncludedItem) bool) Outcome {
	name := NameIncludeItemMatching
	call := name + "(<predicate>)"
	if r == nil {
		return nilReport(name, call)
	}
	if pred == nil {
		return nilPredicate(name, call)
	}
	for i, in := range r.Included {
		if pred(in) {
			return pass(name, call, fmt.Sprintf("the item at index %d of Included matched the predicate %s", i, describeIncluded(in)))
		}
	}
	msg := fmt.Sprintf("%s failed: no item in Included matched the predicate. Included had %d items.", name, len(r.Included))
	if n := len(r.Included); n > 0 {
		shown := r.Included[:min(n, MaxSummaryItems)]
		parts := make([]string, len(shown))
		for i, in := range shown {
			parts[i] = describeIncluded(in)
		}
		if n > MaxSummaryItems {
			msg += fmt.Sprintf(" Included items (first %d of %d): %s.", MaxSummaryItems, n, list(parts))
		} else {
			msg += " Included items: " + list(parts) + "."
		}
	}
	return fail(name, call, msg)
}

// IncludeExactlyNItemsWithKind asserts that exactly n included items have the
// kind (pattern 3); n = 0 asserts the kind is absent from Included.
func IncludeExactlyNItemsWithKind(r *cupel.SelectionReport, kind cupel.ContextKind, n int) Outcome {
	name := NameIncludeExactlyNItemsWithKind
	call := fmt.Sprintf("%s(%s, %d)", name, quote(string(kind)), n)
	if r == nil {
		return nilReport(name, call)
	}
	actual := 0
	for _, in := range r.Included {
		if hasKind(in.Item, kind) {
			actual++
		}
	}
	if actual == n {
		return pass(name, call, fmt.Sprintf("Included contained exactly %d items with Kind=%s (of %d items)", actual, kind, len(r.Included)))
	}
	return fail(name, call, fmt.Sprintf("%s(%s, %d) failed: expected %d items with Kind=%s in Included, but found %d. Included had %d items total.",
		name, kind, n, n, kind, actual, len(r.Included)))
}

// ---- Exclusion group ----

// ExcludeItemWithReason asserts that at least one excluded entry's reason is
// of the variant (pattern 4).
func ExcludeItemWithReason(r *cupel.SelectionReport, reason cupel.ExclusionVariant) Outcome {
	name := NameExcludeItemWithReason
	call := name + "(" + quote(string(reason)) + ")"
	if r == nil {
		return nilReport(name, call)
	}
	matched := 0
	for _, e := range r.Excluded {
		if e.Reason.Variant == reason {
			matched++
		}
	}
	if matched > 0 {
		return pass(name, call, fmt.Sprintf("%d of the %d excluded items had reason %s", matched, len(r.Excluded), reason))
	}
	return fail(name, call, fmt.Sprintf("%s(%s) failed: no excluded item had reason %s. Excluded had %d items with reasons: %s.",
		name, reason, reason, len(r.Excluded), list(distinctReasons(r.Excluded))))
}

// ExcludeItemMatchingWithReason asserts that at least one excluded entry's
// item satisfies pred and its reason is of the variant (pattern 5). The
// predicate is over the item, as the chapter specifies for this pattern.
func ExcludeItemMatchingWithReason(r *cupel.SelectionReport, pred func(*cupel.ContextItem) bool, reason cupel.ExclusionVariant) Outcome {
	name := NameExcludeItemMatchingWithReason
	call := name + "(<predicate>, " + quote(string(reason)) + ")"
	if r == nil {
		return nilReport(name, call)
	}
	if pred == nil {
		return nilPredicate(name, call)
	}
	var matched []cupel.ExcludedItem
	for _, e := range r.Excluded {
		if pred(e.Item) {
			matched = append(matched, e)
		}
	}
	both := 0
	for _, e := range matched {
		if e.Reason.Variant == reason {
			both++
		}
	}
	if both > 0 {
		return pass(name, call, fmt.Sprintf("the predicate matched %d excluded item(s), %d of them with reason %s", len(matched), both, reason))
	}
	return fail(name, call, fmt.Sprintf("%s(reason=%s) failed: predicate matched %d excluded item(s) but none had reason %s. Matched items had reasons: %s.",
		name, reason, len(matched), reason, list(distinctReasons(matched))))
}

// ExcludeItemWithBudgetDetails asserts that an excluded entry whose item
// satisfies pred has reason BudgetExceeded with exactly the given
// item_tokens and available_tokens (pattern 6).
//
// When predicate-matching BudgetExceeded entries exist but none has both
// values, the first one is reported ("but found item_tokens=..,
// available_tokens=.."). When none exists, the chapter's "but no matching
// item had reason BudgetExceeded." is followed by what the predicate matched:
// " The predicate matched 0 excluded items." or " The predicate matched N
// excluded item(s) with reasons: [R1, R2]."
func ExcludeItemWithBudgetDetails(r *cupel.SelectionReport, pred func(*cupel.ContextItem) bool, expectedItemTokens, expectedAvailableTokens int) Outcome {
	name := NameExcludeItemWithBudgetDetails
	call := fmt.Sprintf("%s(<predicate>, %d, %d)", name, expectedItemTokens, expectedAvailableTokens)
	if r == nil {
		return nilReport(name, call)
	}
	if pred == nil {
		return nilPredicate(name, call)
	}
	var matched []cupel.ExcludedItem
	var firstBudget *cupel.ExcludedItem
	for i, e := range r.Excluded {
		if !pred(e.Item) {
			continue
		}
		matched = append(matched, e)
		if e.Reason.Variant != cupel.ExclusionBudgetExceeded {
			continue
		}
		if e.Reason.ItemTokens() == expectedItemTokens && e.Reason.AvailableTokens() == expectedAvailableTokens {
			return pass(name, call, fmt.Sprintf("the excluded item at index %d matched the predicate with BudgetExceeded item_tokens=%d, available_tokens=%d",
				i, e.Reason.ItemTokens(), e.Reason.AvailableTokens()))
		}
		if firstBudget == nil {
			firstBudget = &r.Excluded[i]
		}
	}
	expected := fmt.Sprintf("%s failed: expected BudgetExceeded with item_tokens=%d, available_tokens=%d, but ", name, expectedItemTokens, expectedAvailableTokens)
	if firstBudget != nil {
		return fail(name, call, expected+fmt.Sprintf("found item_tokens=%d, available_tokens=%d.", firstBudget.Reason.ItemTokens(), firstBudget.Reason.AvailableTokens()))
	}
	msg := expected + "no matching item had reason BudgetExceeded."
	if len(matched) == 0 {
		msg += " The predicate matched 0 excluded items."
	} else {
		msg += fmt.Sprintf(" The predicate matched %d excluded item(s) with reasons: %s.", len(matched), list(distinctReasons(matched)))
	}
	return fail(name, call, msg)
}

// HaveNoExclusionsForKind asserts that no excluded item has the kind
// (pattern 7).
func HaveNoExclusionsForKind(r *cupel.SelectionReport, kind cupel.ContextKind) Outcome {
	name := NameHaveNoExclusionsForKind
	call := name + "(" + quote(string(kind)) + ")"
	if r == nil {
		return nilReport(name, call)
	}
	count := 0
	var first cupel.ExcludedItem
	for _, e := range r.Excluded {
		if hasKind(e.Item, kind) {
			if count == 0 {
				first = e
			}
			count++
		}
	}
	if count == 0 {
		return pass(name, call, fmt.Sprintf("Excluded had no item with Kind=%s (of %d items)", kind, len(r.Excluded)))
	}
	return fail(name, call, fmt.Sprintf("%s(%s) failed: found %d excluded item(s) with Kind=%s. First: score=%s, reason=%s.",
		name, kind, count, kind, FormatFloat(first.Score), first.Reason.Variant))
}

// ---- Aggregate group ----

// HaveAtLeastNExclusions asserts that Excluded has at least n entries
// (pattern 8).
func HaveAtLeastNExclusions(r *cupel.SelectionReport, n int) Outcome {
	name := NameHaveAtLeastNExclusions
	call := fmt.Sprintf("%s(%d)", name, n)
	if r == nil {
		return nilReport(name, call)
	}
	if len(r.Excluded) >= n {
		return pass(name, call, fmt.Sprintf("Excluded had %d items", len(r.Excluded)))
	}
	return fail(name, call, fmt.Sprintf("%s(%d) failed: expected at least %d excluded items, but Excluded had %d.", name, n, n, len(r.Excluded)))
}

// higher reports whether score a ranks strictly before score b in the
// report's score-descending order, where NaN sorts after every number and
// -0 equals +0 (ruling 6).
func higher(a, b float64) bool {
	if math.IsNaN(a) {
		return false
	}
	return math.IsNaN(b) || a > b
}

// sameScore reports whether a and b tie in that order (NaN ties NaN).
func sameScore(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }

// ExcludedItemsAreSortedByScoreDescending asserts that Excluded is in
// non-increasing score order (pattern 9). NaN scores sort after every
// number (ruling 6): a NaN followed by a number is a violation, a
// number followed by NaN is not.
func ExcludedItemsAreSortedByScoreDescending(r *cupel.SelectionReport) Outcome {
	name := NameExcludedItemsAreSortedByScoreDescending
	call := name + "()"
	if r == nil {
		return nilReport(name, call)
	}
	for i := 0; i+1 < len(r.Excluded); i++ {
		si, si1 := r.Excluded[i].Score, r.Excluded[i+1].Score
		if higher(si1, si) {
			return fail(name, call, fmt.Sprintf("%s failed: item at index %d (score=%s) is higher than item at index %d (score=%s). Expected non-increasing scores.",
				name, i+1, FormatFloat(si1), i, FormatFloat(si)))
		}
	}
	return pass(name, call, fmt.Sprintf("Excluded (%d items) was in non-increasing score order", len(r.Excluded)))
}

// ---- Budget group ----

// HaveBudgetUtilizationAbove asserts that the included tokens divided by
// budget.MaxTokens is >= threshold, exactly, with no epsilon (pattern 10).
// A budget with MaxTokens = 0 has utilization 0 (ruling 12).
func HaveBudgetUtilizationAbove(r *cupel.SelectionReport, threshold float64, budget cupel.ContextBudget) Outcome {
	name := NameHaveBudgetUtilizationAbove
	call := fmt.Sprintf("%s(%s, ContextBudget{MaxTokens: %d, TargetTokens: %d})", name, FormatFloat(threshold), budget.MaxTokens(), budget.TargetTokens())
	if r == nil {
		return nilReport(name, call)
	}
	actual := r.BudgetUtilization(budget)
	details := fmt.Sprintf("computed utilization was %.6f (includedTokens=%d, budget.MaxTokens=%d)", actual, r.IncludedTokens(), budget.MaxTokens())
	if actual >= threshold {
		return pass(name, call, details)
	}
	return fail(name, call, fmt.Sprintf("%s(%s) failed: %s.", name, FormatFloat(threshold), details))
}

// ---- Coverage group ----

// HaveKindCoverageCount asserts that Included holds at least n distinct
// kinds (pattern 11), kinds compared with ASCII case folding.
func HaveKindCoverageCount(r *cupel.SelectionReport, n int) Outcome {
	name := NameHaveKindCoverageCount
	call := fmt.Sprintf("%s(%d)", name, n)
	if r == nil {
		return nilReport(name, call)
	}
	kinds := distinctKinds(includedItems(r))
	if len(kinds) >= n {
		return pass(name, call, fmt.Sprintf("found %d distinct ContextKind values in Included: %s", len(kinds), list(kinds)))
	}
	return fail(name, call, fmt.Sprintf("%s(%d) failed: expected at least %d distinct ContextKind values in Included, but found %d: %s.",
		name, n, n, len(kinds), list(kinds)))
}

// ---- Ordering group ----

// PlaceItemAtEdge asserts that the first or the last included entry
// satisfies pred (pattern 12). With one included item, both edges are that
// item.
func PlaceItemAtEdge(r *cupel.SelectionReport, pred func(cupel.IncludedItem) bool) Outcome {
	name := NamePlaceItemAtEdge
	call := name + "(<predicate>)"
	if r == nil {
		return nilReport(name, call)
	}
	if pred == nil {
		return nilPredicate(name, call)
	}
	count := len(r.Included)
	last := count - 1
	if count > 0 {
		if pred(r.Included[0]) {
			return pass(name, call, fmt.Sprintf("the item at index 0 (an edge position; Included had %d items) matched the predicate", count))
		}
		if last > 0 && pred(r.Included[last]) {
			return pass(name, call, fmt.Sprintf("the item at index %d (an edge position; Included had %d items) matched the predicate", last, count))
		}
	}
	for i := 1; i < last; i++ {
		if pred(r.Included[i]) {
			return fail(name, call, fmt.Sprintf("%s failed: item matching predicate was at index %d (not at edge). Edge positions: 0 and %d. Included had %d items.",
				name, i, last, count))
		}
	}
	return fail(name, call, name+" failed: no item in Included matched the predicate.")
}

// EdgePositions returns the first n edge positions of a list of count
// items: 0, count-1, 1, count-2, ... (n <= count).
func EdgePositions(n, count int) []int {
	out := make([]int, 0, n)
	lo, hi := 0, count-1
	for len(out) < n {
		out = append(out, lo)
		lo++
		if len(out) < n {
			out = append(out, hi)
			hi--
		}
	}
	return out
}

// PlaceTopNScoredAtEdges asserts that the n highest-scored included items
// occupy the n outermost positions, in edge order (pattern 13): the k-th
// edge position (0, count-1, 1, count-2, ...) must hold an item whose score
// equals the k-th highest score. Items that tie in score are
// interchangeable, so any of them is a valid occupant of a position its
// score is expected at; with n = count the whole list must be in edge-in
// order. Scores are ranked as in the report (NaN after every number).
//
// n <= 0 always holds. n > len(Included) fails with "PlaceTopNScoredAtEdges
// ({n}) failed: Included had {count} items, fewer than the {n} edge positions
// to check."
//
// In the failure message, the top-n items are listed by score descending;
// among equal scores, items at a position where their score is expected come
// first, then by index. {failCount} counts the listed items that are not at
// a position where their score is expected.
func PlaceTopNScoredAtEdges(r *cupel.SelectionReport, n int) Outcome {
	name := NamePlaceTopNScoredAtEdges
	call := fmt.Sprintf("%s(%d)", name, n)
	if r == nil {
		return nilReport(name, call)
	}
	count := len(r.Included)
	if n <= 0 {
		return pass(name, call, fmt.Sprintf("n=%d leaves no edge position to check (Included had %d items)", n, count))
	}
	if n > count {
		return fail(name, call, fmt.Sprintf("%s(%d) failed: Included had %d items, fewer than the %d edge positions to check.", name, n, count, n))
	}
	scores := make([]float64, count)
	for i, in := range r.Included {
		scores[i] = in.Score
	}
	// The expected score at each of the first n edge positions.
	ranked := slices.Clone(scores)
	slices.SortStableFunc(ranked, func(a, b float64) int {
		switch {
		case higher(a, b):
			return -1
		case higher(b, a):
			return 1
		}
		return 0
	})
	edges := EdgePositions(n, count)
	expectedAt := map[int]float64{}
	for k, pos := range edges {
		expectedAt[pos] = ranked[k]
	}
	ok := func(i int) bool {
		want, isEdge := expectedAt[i]
		return isEdge && sameScore(scores[i], want)
	}
	idx := make([]int, count)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case higher(scores[a], scores[b]):
			return -1
		case higher(scores[b], scores[a]):
			return 1
		case ok(a) && !ok(b):
			return -1
		case ok(b) && !ok(a):
			return 1
		}
		return a - b
	})
	top := idx[:n]
	failCount := 0
	items := make([]string, n)
	for k, i := range top {
		if !ok(i) {
			failCount++
		}
		items[k] = fmt.Sprintf("(kind=%s, score=%s, idx=%d)", kindName(r.Included[i].Item), FormatFloat(scores[i]), i)
	}
	pos := make([]string, n)
	for k, p := range edges {
		pos[k] = itoa(p)
	}
	if failCount == 0 {
		return pass(name, call, fmt.Sprintf("the top-%d scored items %s were at the expected edge positions %s", n, list(items), list(pos)))
	}
	return fail(name, call, fmt.Sprintf("%s(%d) failed: %d of the top-%d scored items were not at expected edge positions. Top-%d items (by score): %s. Expected edge positions: %s.",
		name, n, failCount, n, n, list(items), list(pos)))
}
