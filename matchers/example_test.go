package matchers_test

import (
	"fmt"

	"github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/matchers"
)

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

func ExampleIncludeItemWithKind() {
	// In a Ginkgo spec this is simply Expect(report).To(...); here a Gomega
	// instance prints the failures instead.
	g := gomega.NewGomega(func(message string, _ ...int) { fmt.Println(message) })
	report := exampleReport()

	g.Expect(report).To(matchers.IncludeItemWithKind(cupel.KindSystemPrompt))
	g.Expect(report).To(matchers.IncludeItemWithKind(cupel.KindMemory))
	g.Expect(report).NotTo(matchers.IncludeItemWithKind(cupel.KindMessage))
	fmt.Println(matchers.IncludeItemWithKind(cupel.KindMessage).GomegaString())
	// Output:
	// IncludeItemWithKind(Memory) failed: Included contained 0 items with Kind=Memory. Included had 2 items with kinds: [SystemPrompt, Message].
	// Expected the report not to satisfy IncludeItemWithKind(Message), but Included contained 1 items with Kind=Message (of 2 items).
	// IncludeItemWithKind(Message)
}

func ExampleHaveBudgetUtilizationAbove() {
	g := gomega.NewGomega(func(message string, _ ...int) { fmt.Println(message) })
	budget, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 100, TargetTokens: 80})

	g.Expect(exampleReport()).To(matchers.HaveBudgetUtilizationAbove(0.25, budget))
	// Output:
	// HaveBudgetUtilizationAbove(0.25) failed: computed utilization was 0.210000 (includedTokens=21, budget.MaxTokens=100).
}
