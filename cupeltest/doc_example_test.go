package cupeltest_test

import (
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupeltest"
)

// MyScorer stands for an application's scorer.
type MyScorer struct{ cupel.Scorer }

// The package documentation's examples (compiled, not run: t is a test's,
// pipeline, items and budget an application's).
func Example_test() {
	var t *testing.T
	var pipeline *cupel.Pipeline
	var items []*cupel.ContextItem
	var budget cupel.ContextBudget
	var report cupel.SelectionReport
	if _, err := pipeline.Run(items, budget, cupel.WithReport(&report)); err != nil {
		t.Fatal(err)
	}
	cupeltest.Should(t, &report).
		IncludeItemWithKind(cupel.KindSystemPrompt).
		HaveNoExclusionsForKind(cupel.KindSystemPrompt).
		ExcludeItemWithReason(cupel.ExclusionBudgetExceeded).
		PlaceItemAtEdge(func(in cupel.IncludedItem) bool { return in.Item.Pinned() })

	var myItems []*cupel.ContextItem
	_ = func(t *testing.T) {
		if err := cupeltest.TestScorer(MyScorer{}, cupeltest.WithItems(myItems...)); err != nil {
			t.Fatal(err)
		}
	}
}
