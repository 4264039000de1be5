package cupeltest_test

import (
	"errors"
	"fmt"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/slicer"
	"github.com/cupel-go/go-cupel/cupeltest"
)

// printTB stands in for the *testing.T of a real test: it prints failures.
type printTB struct{}

func (printTB) Helper() {}
func (printTB) Errorf(format string, args ...any) {
	fmt.Printf("FAIL: "+format+"\n", args...)
}

// exampleReport is the report of a small run: a pinned system prompt and a
// chat turn included, a retrieved document that did not fit.
func exampleReport() *cupel.SelectionReport {
	system := cupel.MustItem(cupel.ItemSpec{Content: "You are a helpful assistant.", Tokens: 12, Kind: cupel.KindSystemPrompt, Pinned: true})
	turn := cupel.MustItem(cupel.ItemSpec{Content: "user: summarise the design doc", Tokens: 9, Kind: cupel.KindMessage})
	doc := cupel.MustItem(cupel.ItemSpec{Content: "design.md (full text)", Tokens: 900, Kind: cupel.KindDocument})
	return &cupel.SelectionReport{
		Included: []cupel.IncludedItem{
			{Item: system, Score: 1, Reason: cupel.InclusionPinned},
			{Item: turn, Score: 0.8, Reason: cupel.InclusionScored},
		},
		Excluded: []cupel.ExcludedItem{
			{Item: doc, Score: 0.7, Reason: cupel.BudgetExceeded(900, 79)},
		},
		TotalCandidates:       3,
		TotalTokensConsidered: 921,
	}
}

func ExampleShould() {
	report := exampleReport()
	var t cupeltest.TB = printTB{} // in a test: the *testing.T, or GinkgoT()

	cupeltest.Should(t, report).
		IncludeItemWithKind(cupel.KindSystemPrompt).
		ExcludeItemWithBudgetDetails(func(it *cupel.ContextItem) bool { return it.Kind() == cupel.KindDocument }, 900, 79).
		IncludeItemWithKind(cupel.KindToolOutput).
		HaveKindCoverageCount(3)
	// Output:
	// FAIL: IncludeItemWithKind(ToolOutput) failed: Included contained 0 items with Kind=ToolOutput. Included had 2 items with kinds: [SystemPrompt, Message].
	// FAIL: HaveKindCoverageCount(3) failed: expected at least 3 distinct ContextKind values in Included, but found 2: [SystemPrompt, Message].
}

func ExampleAudit() {
	report := exampleReport()

	err := cupeltest.Audit(report).
		PlaceItemAtEdge(func(in cupel.IncludedItem) bool { return in.Reason == cupel.InclusionPinned }).
		ExcludeItemWithReason(cupel.ExclusionDeduplicated).
		Err()

	var failure *cupeltest.AssertionError
	if errors.As(err, &failure) {
		fmt.Println(failure.Assertion)
		fmt.Println(failure.Message)
	}
	// Output:
	// ExcludeItemWithReason
	// ExcludeItemWithReason(Deduplicated) failed: no excluded item had reason Deduplicated. Excluded had 1 items with reasons: [BudgetExceeded].
}

func ExampleChain_Err() {
	err := cupeltest.Audit(exampleReport()).
		HaveAtLeastNExclusions(2).
		PlaceTopNScoredAtEdges(3).
		Err()
	fmt.Println(err)
	// Output:
	// HaveAtLeastNExclusions(2) failed: expected at least 2 excluded items, but Excluded had 1.
	// PlaceTopNScoredAtEdges(3) failed: Included had 2 items, fewer than the 3 edge positions to check.
}

// budgetBlindSlicer keeps the better half of its input, forgetting the
// budget.
type budgetBlindSlicer struct{}

func (budgetBlindSlicer) Slice(sorted []cupel.ScoredItem, _ cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	out := []*cupel.ContextItem{}
	for _, si := range sorted[:(len(sorted)+1)/2] {
		out = append(out, si.Item)
	}
	return out, nil
}

// TestSlicer proves a custom slicer against the Slicer contract. In a test,
// fail it with the error: if err := cupeltest.TestSlicer(s); err != nil {
// t.Fatal(err) }, or run cupeltest.RunSlicerTests(t, s) for one subtest per
// property.
func ExampleTestSlicer() {
	err := cupeltest.TestSlicer(budgetBlindSlicer{})
	var v *cupeltest.ContractViolation
	if errors.As(err, &v) {
		fmt.Println(v.Property)
		fmt.Println(v.Rule)
	}
	fmt.Println(cupeltest.TestSlicer(slicer.NewGreedy()))
	// Output:
	// WithinBudget
	// the selected items' tokens must not exceed budget.TargetTokens
	// <nil>
}
