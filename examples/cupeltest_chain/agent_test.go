// Package cupeltest_chain is an application test in plain testing: it states
// what the context selection of a support agent's turn must do, with the
// cupeltest chain, and keeps a reviewed snapshot of the whole report.
package cupeltest_chain

import (
	"strings"
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupeltest"
	"github.com/cupel-go/go-cupel/cupeltest/snapshot"
	"github.com/cupel-go/go-cupel/examples/agentcontext"
)

func selectTurn(t *testing.T) *cupel.SelectionReport {
	t.Helper()
	_, report, err := agentcontext.Run()
	if err != nil {
		t.Fatalf("selecting the context: %v", err)
	}
	return report
}

func TestSystemPromptIsAlwaysThereAndFirst(t *testing.T) {
	report := selectTurn(t)
	cupeltest.Should(t, report).
		IncludeExactlyNItemsWithKind(cupel.KindSystemPrompt, 1).
		HaveNoExclusionsForKind(cupel.KindSystemPrompt).
		PlaceItemAtEdge(func(in cupel.IncludedItem) bool {
			return in.Reason == cupel.InclusionPinned && in.Item.Content() == agentcontext.SystemPrompt
		})
}

func TestTheQuestionAndTheEvidenceAreIncluded(t *testing.T) {
	report := selectTurn(t)
	cupeltest.Should(t, report).
		IncludeItemMatching(func(in cupel.IncludedItem) bool { return in.Item.Content() == agentcontext.LatestTurn }).
		IncludeItemMatching(func(in cupel.IncludedItem) bool {
			return in.Item.Content() == agentcontext.AccountTool && in.Reason == cupel.InclusionScored
		}).
		IncludeItemMatching(func(in cupel.IncludedItem) bool {
			return strings.HasPrefix(in.Item.Content(), "kb/account-locked.md") && in.Score > 0.6
		}).
		HaveKindCoverageCount(5)
}

func TestWhatDoesNotFitIsExplained(t *testing.T) {
	report := selectTurn(t)
	isOrders := func(it *cupel.ContextItem) bool { return it.Content() == agentcontext.OrdersTool }
	isBilling := func(it *cupel.ContextItem) bool { return it.Content() == agentcontext.BillingDoc }

	// Effective target: 1200 target - 180 pinned = 1020; the slicer kept 633
	// tokens, leaving 387 available for each item it could not fit.
	cupeltest.Should(t, report).
		HaveAtLeastNExclusions(3).
		ExcludeItemWithReason(cupel.ExclusionBudgetExceeded).
		ExcludeItemMatchingWithReason(isOrders, cupel.ExclusionBudgetExceeded).
		ExcludeItemWithBudgetDetails(isOrders, agentcontext.OrdersTokens, 387).
		ExcludeItemWithBudgetDetails(isBilling, agentcontext.BillingTokens, 387).
		ExcludeItemMatchingWithReason(func(it *cupel.ContextItem) bool {
			return it.Content() == agentcontext.LockedDoc
		}, cupel.ExclusionDeduplicated).
		ExcludedItemsAreSortedByScoreDescending()
}

func TestTheWindowIsUsedAndShaped(t *testing.T) {
	report := selectTurn(t)
	cupeltest.Should(t, report).
		// 813 of 2000 tokens; the other 400 are the answer's reserve.
		HaveBudgetUtilizationAbove(0.4, agentcontext.Budget()).
		// The U-shaped placer puts the best items at both ends of the window.
		PlaceTopNScoredAtEdges(4).
		PlaceTopNScoredAtEdges(len(report.Included))
}

// The whole report, reviewed once and kept in testdata/golden: any change
// in what is selected, why, or in which order shows up as a diff. Rewrite
// it with GOLDIE_UPDATE=1 go test ./examples/...
func TestReportSnapshot(t *testing.T) {
	snapshot.Match(t, "agent_turn", selectTurn(t))
}

// Outside go test, Check returns the failures as an error instead.
func TestCheckOutsideTests(t *testing.T) {
	report := selectTurn(t)
	err := cupeltest.Audit(report).
		IncludeItemWithKind(cupel.KindSystemPrompt).
		HaveNoExclusionsForKind(cupel.KindToolOutput).
		Err()
	want := "HaveNoExclusionsForKind(ToolOutput) failed: found 1 excluded item(s) with Kind=ToolOutput. First: score=0.64, reason=BudgetExceeded."
	if err == nil || err.Error() != want {
		t.Fatalf("Check(...).Err() = %v, want %s", err, want)
	}
}

// A smaller snapshot: only what was included and excluded, one item per
// line, without the events.
func TestDecisionsSnapshot(t *testing.T) {
	snapshot.Match(t, "agent_turn_decisions", selectTurn(t), snapshot.DecisionsOnly())
}

// Require stops the test at the first failed assertion, as testify's
// require does: what follows relies on the system prompt being there.
func TestSystemPromptLeads(t *testing.T) {
	report := selectTurn(t)
	cupeltest.Require(t, report).
		IncludeExactlyNItemsWithKind(cupel.KindSystemPrompt, 1).
		PlaceItemAtEdge(func(in cupel.IncludedItem) bool { return in.Item.Kind().Equal(cupel.KindSystemPrompt) })
	if first := report.Included[0]; first.Reason != cupel.InclusionPinned {
		t.Errorf("the system prompt at the edge should be pinned, got %s", first.Reason)
	}
}
