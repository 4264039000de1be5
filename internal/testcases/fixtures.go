// Package testcases holds the reports and the table of assertion cases that
// the test suites of cupeltest, matchers and internal/assertions share: for
// every pattern, reports that satisfy it and reports that do not, with the
// exact message chapter 45's template gives, edge cases included. It is
// imported by tests only.
package testcases

import (
	"math"
	"strconv"

	"github.com/cupel-go/go-cupel/cupel"
)

// Item builds a context item.
func Item(content string, tokens int, kind cupel.ContextKind) *cupel.ContextItem {
	return cupel.MustItem(cupel.ItemSpec{Content: content, Tokens: tokens, Kind: kind})
}

// Inc builds an included entry.
func Inc(it *cupel.ContextItem, score float64, reason cupel.InclusionReason) cupel.IncludedItem {
	return cupel.IncludedItem{Item: it, Score: score, Reason: reason}
}

// Exc builds an excluded entry.
func Exc(it *cupel.ContextItem, score float64, reason cupel.ExclusionReason) cupel.ExcludedItem {
	return cupel.ExcludedItem{Item: it, Score: score, Reason: reason}
}

// Report builds a report with consistent totals.
func Report(in []cupel.IncludedItem, ex []cupel.ExcludedItem) *cupel.SelectionReport {
	r := &cupel.SelectionReport{Included: in, Excluded: ex, TotalCandidates: len(in) + len(ex)}
	for _, i := range in {
		r.TotalTokensConsidered += i.Item.Tokens()
	}
	for _, e := range ex {
		r.TotalTokensConsidered += e.Item.Tokens()
	}
	return r
}

// Empty is a report with nothing included and nothing excluded.
func Empty() *cupel.SelectionReport { return Report(nil, nil) }

// Agent is a realistic report of an agent turn, placed U-shaped: included
// scores 1 (pinned system prompt), 0.8, 0.5, 0.7, 0.9 at indexes 0..4, so
// the edge order 0, 4, 1, 3, 2 holds the scores in descending order; 640
// included tokens; four exclusions in score-descending order.
func Agent() *cupel.SelectionReport {
	return Report(
		[]cupel.IncludedItem{
			Inc(Item("You are a support agent for Acme. Be concise.", 120, cupel.KindSystemPrompt), 1, cupel.InclusionPinned),
			Inc(Item("reset-password.md: open Settings > Security > Reset.", 200, cupel.KindDocument), 0.8, cupel.InclusionScored),
			Inc(Item("user: thanks, that worked last time", 30, cupel.KindMessage), 0.5, cupel.InclusionScored),
			Inc(Item("tool lookup_account: {\"locked\": true}", 250, cupel.KindToolOutput), 0.7, cupel.InclusionScored),
			Inc(Item("user: how do I reset my password?", 40, cupel.KindMessage), 0.9, cupel.InclusionScored),
		},
		[]cupel.ExcludedItem{
			Exc(Item("old-faq.md: passwords are reset by email.", 500, cupel.KindDocument), 0.6, cupel.BudgetExceeded(500, 360)),
			Exc(Item("user: hi", 3, cupel.KindMessage), 0.4, cupel.Deduplicated("user: hi")),
			Exc(Item("tool lookup_account (stale): {\"locked\": false}", 800, cupel.KindToolOutput), 0.3, cupel.BudgetExceeded(800, 360)),
			Exc(Item("memory: prefers dark mode", -5, cupel.KindMemory), 0, cupel.NegativeTokens(-5)),
		},
	)
}

// Scored returns a report whose included items have the given scores, in
// that order, with kinds Message; item i has content "item i".
func Scored(scores ...float64) *cupel.SelectionReport {
	in := make([]cupel.IncludedItem, len(scores))
	for i, s := range scores {
		in[i] = Inc(Item("item "+strconv.Itoa(i), 10, cupel.KindMessage), s, cupel.InclusionScored)
	}
	return Report(in, nil)
}

// ExcludedScores returns a report whose excluded items have the given
// scores, in that order, each BudgetExceeded.
func ExcludedScores(scores ...float64) *cupel.SelectionReport {
	ex := make([]cupel.ExcludedItem, len(scores))
	for i, s := range scores {
		ex[i] = Exc(Item("excluded "+strconv.Itoa(i), 10, cupel.KindDocument), s, cupel.BudgetExceeded(10, 5))
	}
	return Report(nil, ex)
}

// Single is a report with one included item and no exclusion.
func Single() *cupel.SelectionReport {
	return Report([]cupel.IncludedItem{Inc(Item("the only item", 10, cupel.KindMemory), 0.5, cupel.InclusionScored)}, nil)
}

// Seven is a report with seven included messages, scores 0.1 to 0.7.
func Seven() *cupel.SelectionReport { return Scored(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7) }

// Reserved is a report whose exclusions carry reserved and extension
// variants, and two excluded Memory items (one spelled "memory").
func Reserved() *cupel.SelectionReport {
	return Report(nil, []cupel.ExcludedItem{
		Exc(Item("filtered note", 10, cupel.KindMemory), 0.7, cupel.Filtered("max_age_filter")),
		Exc(Item("low note", 10, "memory"), 0.2, cupel.ScoredTooLow(0.2, 0.25)),
		Exc(Item("capped tool", 10, cupel.KindToolOutput), 0.1, cupel.CountCapExceeded(cupel.KindToolOutput, 1, 1)),
	})
}

// MixedCase is a report whose included kinds are "Message" and "message".
func MixedCase() *cupel.SelectionReport {
	return Report([]cupel.IncludedItem{
		Inc(Item("a", 1, cupel.KindMessage), 0.5, cupel.InclusionScored),
		Inc(Item("b", 1, "message"), 0.4, cupel.InclusionScored),
	}, nil)
}

// Budget builds a budget; it panics on invalid values.
func Budget(maxTokens, targetTokens int) cupel.ContextBudget {
	b, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: maxTokens, TargetTokens: targetTokens})
	if err != nil {
		panic(err)
	}
	return b
}

// NaN is math.NaN(), for tables.
var NaN = math.NaN()
