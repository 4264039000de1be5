package assertions

import (
	"errors"
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
	// Call renders the assertion with its arguments as the failure messages
	// do, e.g. IncludeItemWithKind(Message); predicates are written
	// <predicate>.
	Call string
	// Holds reports whether the assertion holds.
	Holds bool
	// Invalid reports that the assertion's arguments are invalid (an empty
	// kind, a negative n, ...): it then fails whatever the report.
	Invalid bool
	// Message is, when the assertion fails, the complete failure message of
	// the chapter's template; empty when it holds.
	Message string
	// Found describes, when the assertion holds, what the report held that
	// satisfied it, e.g. `Included contained 2 items with Kind=Message (of 5
	// items)`; empty when it fails.
	Found string
}

// NegatedMessage is the message for an assertion expected not to hold
// that did: what was expected not to hold and what was found. It renders the
// call as the failure messages do.
func (o Outcome) NegatedMessage() string {
	return "Expected the report not to satisfy " + o.Call + ", but " + o.Found + "."
}

// Assertion is one of the 13 patterns bound to its arguments: the one
// definition of the pattern that the cupeltest chain and the Gomega matchers
// share. Build it with the pattern's function (e.g. [IncludeItemWithKind])
// and evaluate it with [Assertion.Eval].
type Assertion struct {
	name    string
	call    string
	invalid string // why the arguments are invalid; "" when they are valid
	eval    func(r *cupel.SelectionReport) Outcome
}

// Name returns the pattern's name, e.g. "IncludeItemWithKind".
func (a Assertion) Name() string { return a.name }

// Call renders the assertion with its arguments, e.g.
// IncludeExactlyNItemsWithKind(Tool, 2).
func (a Assertion) Call() string { return a.call }

// ArgError returns, when the arguments are invalid, the failure saying so
// ("{Call} failed: invalid argument: n must be >= 0 (got -1)."); nil
// otherwise.
func (a Assertion) ArgError() error {
	if a.invalid == "" {
		return nil
	}
	return errors.New(a.invalidMessage())
}

func (a Assertion) invalidMessage() string {
	return a.call + " failed: invalid argument: " + a.invalid + "."
}

// Eval evaluates the assertion against r. Invalid arguments fail first,
// whatever the report; then a nil report fails ("{Name} failed: the report
// is nil.").
func (a Assertion) Eval(r *cupel.SelectionReport) Outcome {
	if a.invalid != "" {
		return Outcome{Assertion: a.name, Call: a.call, Invalid: true, Message: a.invalidMessage()}
	}
	if r == nil {
		return fail(a.name, a.call, a.name+" failed: the report is nil.")
	}
	return a.eval(r)
}

func fail(name, call, msg string) Outcome {
	return Outcome{Assertion: name, Call: call, Message: msg}
}

func pass(name, call, found string) Outcome {
	return Outcome{Assertion: name, Call: call, Holds: true, Found: found}
}

func nilPredicate(name, call string) Outcome {
	return fail(name, call, name+" failed: the predicate is nil.")
}

// kindArg renders a kind argument as the chapter's messages do (bare), or
// quoted when bare would be unreadable (empty, or with spaces or
// punctuation).
func kindArg(k string) string {
	for _, c := range k {
		if !(c == '_' || c == '-' || c == '.' || c == ':' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z') {
			return quote(k)
		}
	}
	if k == "" {
		return quote(k)
	}
	return k
}

// checkKind returns why kind is invalid, or "".
func checkKind(kind cupel.ContextKind) string {
	if strings.TrimSpace(string(kind)) == "" {
		return "kind must not be empty"
	}
	return ""
}

// checkN returns why n is invalid, or "".
func checkN(n int) string {
	if n < 0 {
		return "n must be >= 0 (got " + itoa(n) + ")"
	}
	return ""
}

// checkReason returns why reason is invalid, or "".
func checkReason(reason cupel.ExclusionVariant) string {
	if strings.TrimSpace(string(reason)) == "" {
		return "reason must not be empty"
	}
	return ""
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
// (pattern 1). An empty kind is an invalid argument.
func IncludeItemWithKind(kind cupel.ContextKind) Assertion {
	name := NameIncludeItemWithKind
	call := name + "(" + kindArg(string(kind)) + ")"
	return Assertion{name: name, call: call, invalid: checkKind(kind), eval: func(r *cupel.SelectionReport) Outcome {
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
	}}
}

// MaxSummaryItems is the number of included entries IncludeItemMatching
// lists in its failure message.
const MaxSummaryItems = 5

// IncludeItemMatching asserts that at least one included entry satisfies
// pred (pattern 2). On failure with a non-empty Included, the message is
// followed by a summary of the first five entries (the chapter's optional
// appendix): " Included items: [(kind=K, score=S, reason=R), ...]." or, when
// there are more than five, " Included items (first 5 of N): [...]."
func IncludeItemMatching(pred func(cupel.IncludedItem) bool) Assertion {
	name := NameIncludeItemMatching
	call := name + "(<predicate>)"
	return Assertion{name: name, call: call, eval: func(r *cupel.SelectionReport) Outcome {
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
	}}
}

// IncludeExactlyNItemsWithKind asserts that exactly n included items have the
// kind (pattern 3); n = 0 asserts the kind is absent from Included. An empty
// kind or a negative n is an invalid argument.
func IncludeExactlyNItemsWithKind(kind cupel.ContextKind, n int) Assertion {
	name := NameIncludeExactlyNItemsWithKind
	call := fmt.Sprintf("%s(%s, %d)", name, kindArg(string(kind)), n)
	return Assertion{name: name, call: call, invalid: firstOf(checkKind(kind), checkN(n)), eval: func(r *cupel.SelectionReport) Outcome {
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
	}}
}

// ---- Exclusion group ----

// ExcludeItemWithReason asserts that at least one excluded entry's reason is
// of the variant (pattern 4). An empty variant is an invalid argument.
func ExcludeItemWithReason(reason cupel.ExclusionVariant) Assertion {
	name := NameExcludeItemWithReason
	call := name + "(" + kindArg(string(reason)) + ")"
	return Assertion{name: name, call: call, invalid: checkReason(reason), eval: func(r *cupel.SelectionReport) Outcome {
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
	}}
}

// ExcludeItemMatchingWithReason asserts that at least one excluded entry's
// item satisfies pred and its reason is of the variant (pattern 5). The
// predicate is over the item, as the chapter specifies for this pattern.
func ExcludeItemMatchingWithReason(pred func(*cupel.ContextItem) bool, reason cupel.ExclusionVariant) Assertion {
	name := NameExcludeItemMatchingWithReason
	call := name + "(<predicate>, " + kindArg(string(reason)) + ")"
	return Assertion{name: name, call: call, invalid: checkReason(reason), eval: func(r *cupel.SelectionReport) Outcome {
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
	}}
}

// ExcludeItemWithBudgetDetails asserts that an excluded entry whose item
// satisfies pred has reason BudgetExceeded with exactly the given
// item_tokens and available_tokens (pattern 6). Negative token counts are
// invalid arguments.
//
// When predicate-matching BudgetExceeded entries exist but none has both
// values, the first one is reported ("but found item_tokens=..,
// available_tokens=.."). When none exists, the chapter's "but no matching
// item had reason BudgetExceeded." is followed by what the predicate matched:
// " The predicate matched 0 excluded items." or " The predicate matched N
// excluded item(s) with reasons: [R1, R2]."
func ExcludeItemWithBudgetDetails(pred func(*cupel.ContextItem) bool, expectedItemTokens, expectedAvailableTokens int) Assertion {
	name := NameExcludeItemWithBudgetDetails
	call := fmt.Sprintf("%s(<predicate>, %d, %d)", name, expectedItemTokens, expectedAvailableTokens)
	var invalid string
	switch {
	case expectedItemTokens < 0:
		invalid = "expectedItemTokens must be >= 0 (got " + itoa(expectedItemTokens) + ")"
	case expectedAvailableTokens < 0:
		invalid = "expectedAvailableTokens must be >= 0 (got " + itoa(expectedAvailableTokens) + ")"
	}
	return Assertion{name: name, call: call, invalid: invalid, eval: func(r *cupel.SelectionReport) Outcome {
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
	}}
}

// HaveNoExclusionsForKind asserts that no excluded item has the kind
// (pattern 7). An empty kind is an invalid argument.
func HaveNoExclusionsForKind(kind cupel.ContextKind) Assertion {
	name := NameHaveNoExclusionsForKind
	call := name + "(" + kindArg(string(kind)) + ")"
	return Assertion{name: name, call: call, invalid: checkKind(kind), eval: func(r *cupel.SelectionReport) Outcome {
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
	}}
}

// ---- Aggregate group ----

// HaveAtLeastNExclusions asserts that Excluded has at least n entries
// (pattern 8). A negative n is an invalid argument.
func HaveAtLeastNExclusions(n int) Assertion {
	name := NameHaveAtLeastNExclusions
	call := fmt.Sprintf("%s(%d)", name, n)
	return Assertion{name: name, call: call, invalid: checkN(n), eval: func(r *cupel.SelectionReport) Outcome {
		if len(r.Excluded) >= n {
			return pass(name, call, fmt.Sprintf("Excluded had %d items", len(r.Excluded)))
		}
		return fail(name, call, fmt.Sprintf("%s(%d) failed: expected at least %d excluded items, but Excluded had %d.", name, n, n, len(r.Excluded)))
	}}
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

// ExcludedItemsAreSortedByScoreDescending asserts that Excluded is in
// non-increasing score order (pattern 9). NaN scores sort after every
// number (ruling 6): a NaN followed by a number is a violation, a number
// followed by NaN is not.
func ExcludedItemsAreSortedByScoreDescending() Assertion {
	name := NameExcludedItemsAreSortedByScoreDescending
	call := name + "()"
	return Assertion{name: name, call: call, eval: func(r *cupel.SelectionReport) Outcome {
		for i := 0; i+1 < len(r.Excluded); i++ {
			si, si1 := r.Excluded[i].Score, r.Excluded[i+1].Score
			if higher(si1, si) {
				return fail(name, call, fmt.Sprintf("%s failed: item at index %d (score=%s) is higher than item at index %d (score=%s). Expected non-increasing scores.",
					name, i+1, FormatFloat(si1), i, FormatFloat(si)))
			}
		}
		return pass(name, call, fmt.Sprintf("Excluded (%d items) was in non-increasing score order", len(r.Excluded)))
	}}
}

// ---- Budget group ----

// HaveBudgetUtilizationAbove asserts that the included tokens divided by
// budget.MaxTokens is >= threshold, exactly, with no epsilon (pattern 10).
// A budget with MaxTokens = 0 has utilization 0 (ruling 12). A NaN or
// negative threshold is an invalid argument; a threshold above 1 is valid,
// as the chapter says (it holds only for an over-budget selection).
func HaveBudgetUtilizationAbove(threshold float64, budget cupel.ContextBudget) Assertion {
	name := NameHaveBudgetUtilizationAbove
	call := fmt.Sprintf("%s(%s, ContextBudget{MaxTokens: %d, TargetTokens: %d})", name, FormatFloat(threshold), budget.MaxTokens(), budget.TargetTokens())
	var invalid string
	if math.IsNaN(threshold) || threshold < 0 {
		invalid = "threshold must be a number >= 0 (got " + FormatFloat(threshold) + ")"
	}
	return Assertion{name: name, call: call, invalid: invalid, eval: func(r *cupel.SelectionReport) Outcome {
		actual := r.BudgetUtilization(budget)
		details := fmt.Sprintf("computed utilization was %.6f (includedTokens=%d, budget.MaxTokens=%d)", actual, r.IncludedTokens(), budget.MaxTokens())
		if actual >= threshold {
			return pass(name, call, details)
		}
		return fail(name, call, fmt.Sprintf("%s(%s) failed: %s.", name, FormatFloat(threshold), details))
	}}
}

// ---- Coverage group ----

// HaveKindCoverageCount asserts that Included holds at least n distinct
// kinds (pattern 11), kinds compared with ASCII case folding. A negative n
// is an invalid argument.
func HaveKindCoverageCount(n int) Assertion {
	name := NameHaveKindCoverageCount
	call := fmt.Sprintf("%s(%d)", name, n)
	return Assertion{name: name, call: call, invalid: checkN(n), eval: func(r *cupel.SelectionReport) Outcome {
		kinds := distinctKinds(includedItems(r))
		if len(kinds) >= n {
			return pass(name, call, fmt.Sprintf("found %d distinct ContextKind values in Included: %s", len(kinds), list(kinds)))
		}
		return fail(name, call, fmt.Sprintf("%s(%d) failed: expected at least %d distinct ContextKind values in Included, but found %d: %s.",
			name, n, n, len(kinds), list(kinds)))
	}}
}

// ---- Ordering group ----

// PlaceItemAtEdge asserts that the first or the last included entry
// satisfies pred (pattern 12). With one included item, both edges are that
// item.
func PlaceItemAtEdge(pred func(cupel.IncludedItem) bool) Assertion {
	name := NamePlaceItemAtEdge
	call := name + "(<predicate>)"
	return Assertion{name: name, call: call, eval: func(r *cupel.SelectionReport) Outcome {
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
	}}
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
// occupy the n outermost positions (pattern 13), by membership, not order
// (ruling 25): it holds when each of the first n edge positions (0,
// count-1, 1, count-2, ...) holds an item whose score is >= the n-th highest
// score in Included. Which of the top n sits at which edge is not checked,
// and an item tied with the n-th score may take the n-th item's place. Scores
// are ranked as in the report (NaN after every number).
//
// n = 0 always holds; a negative n is an invalid argument. n > len(Included)
// fails with "PlaceTopNScoredAtEdges({n}) failed: Included had {count}
// items, fewer than the {n} edge positions to check."
//
// The failure message keeps the chapter's template. {failCount} is the
// number of the first n edge positions that hold an item scored below the
// n-th highest score. The top-n items are listed by score descending; among
// equal scores, items at one of the n edge positions come first, then by
// index.
func PlaceTopNScoredAtEdges(n int) Assertion {
	name := NamePlaceTopNScoredAtEdges
	call := fmt.Sprintf("%s(%d)", name, n)
	return Assertion{name: name, call: call, invalid: checkN(n), eval: func(r *cupel.SelectionReport) Outcome {
		count := len(r.Included)
		if n == 0 {
			return pass(name, call, fmt.Sprintf("n=0 leaves no edge position to check (Included had %d items)", count))
		}
		if n > count {
			return fail(name, call, fmt.Sprintf("%s(%d) failed: Included had %d items, fewer than the %d edge positions to check.", name, n, count, n))
		}
		scores := make([]float64, count)
		for i, in := range r.Included {
			scores[i] = in.Score
		}
		edges := EdgePositions(n, count)
		atEdge := make([]bool, count)
		for _, p := range edges {
			atEdge[p] = true
		}
		// The top n items: by score descending, items at an edge position
		// first among equal scores, then by index.
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
			case atEdge[a] && !atEdge[b]:
				return -1
			case atEdge[b] && !atEdge[a]:
				return 1
			}
			return a - b
		})
		top := idx[:n]
		nth := scores[top[n-1]] // the n-th highest score
		failCount := 0
		for _, p := range edges {
			if higher(nth, scores[p]) {
				failCount++
			}
		}
		items := make([]string, n)
		for k, i := range top {
			items[k] = fmt.Sprintf("(kind=%s, score=%s, idx=%d)", kindName(r.Included[i].Item), FormatFloat(scores[i]), i)
		}
		pos := make([]string, n)
		for k, p := range edges {
			pos[k] = itoa(p)
		}
		if failCount == 0 {
			return pass(name, call, fmt.Sprintf("the first %d edge position(s) %s held items scored at least %s, %s; top-%d items (by score): %s",
				n, list(pos), FormatFloat(nth), nthHighest(n), n, list(items)))
		}
		return fail(name, call, fmt.Sprintf("%s(%d) failed: %d of the top-%d scored items were not at expected edge positions. Top-%d items (by score): %s. Expected edge positions: %s.",
			name, n, failCount, n, n, list(items), list(pos)))
	}}
}

// nthHighest renders "the highest score" for n = 1, else "the 2nd highest
// score", "the 3rd highest score", ...
func nthHighest(n int) string {
	if n == 1 {
		return "the highest score"
	}
	return "the " + ordinal(n) + " highest score"
}

// ordinal renders n as 1st, 2nd, 3rd, 4th, ...
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return itoa(n) + suffix
}

// firstOf returns the first non-empty reason.
func firstOf(reasons ...string) string {
	for _, r := range reasons {
		if r != "" {
			return r
		}
	}
	return ""
}
