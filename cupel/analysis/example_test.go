package analysis_test

import (
	"fmt"
	"log"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/analysis"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

// agentContext is a small agent conversation: a pinned system prompt, a
// question, two documents and a tool output.
func agentContext() []*cupel.ContextItem {
	at := func(min int) *time.Time {
		t := time.Date(2026, 11, 22, 9, min, 0, 0, time.UTC)
		return &t
	}
	priority := func(p int) *int { return &p }
	return []*cupel.ContextItem{
		cupel.MustItem(cupel.ItemSpec{Content: "You are a helpful assistant.", Tokens: 8, Kind: cupel.KindSystemPrompt, Pinned: true}),
		cupel.MustItem(cupel.ItemSpec{Content: "User: what changed in v2?", Tokens: 9, Priority: priority(5), Timestamp: at(1)}),
		cupel.MustItem(cupel.ItemSpec{Content: "CHANGELOG v2: ...", Tokens: 1200, Kind: cupel.KindDocument, Timestamp: at(2)}),
		cupel.MustItem(cupel.ItemSpec{Content: "grep output: ...", Tokens: 300, Kind: cupel.KindToolOutput, Timestamp: at(3)}),
		cupel.MustItem(cupel.ItemSpec{Content: "Release notes v2 summary", Tokens: 150, Kind: cupel.KindDocument, Priority: priority(3), Timestamp: at(4)}),
	}
}

// Comparing two configurations on the same items: which items would one
// include and the other not?
func ExamplePolicySensitivity() {
	recent, _ := scorer.NewComposite(
		scorer.Weighted{Scorer: scorer.NewRecency(), Weight: 3},
		scorer.Weighted{Scorer: scorer.NewDefaultKind(), Weight: 1},
	)
	toolsFirst, _ := scorer.NewKind(map[cupel.ContextKind]float64{cupel.KindToolOutput: 1, cupel.KindMessage: 0.5})
	budget, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 500, TargetTokens: 320})
	report, err := analysis.PolicySensitivity(agentContext(), budget,
		analysis.LabeledPolicy{Label: "recent", Policy: cupel.Policy{Scorer: recent, Slicer: slicer.NewGreedy(), Placer: placer.NewChronological()}},
		analysis.LabeledPolicy{Label: "tools-first", Policy: cupel.Policy{Scorer: toolsFirst, Slicer: slicer.NewGreedy(), Placer: placer.NewChronological()}},
	)
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range report.Diffs {
		fmt.Printf("%s: %s %s, %s %s\n", d.Content, d.Statuses[0].Label, d.Statuses[0].Status, d.Statuses[1].Label, d.Statuses[1].Status)
	}
	// Output:
	// grep output: ...: recent Excluded, tools-first Included
	// Release notes v2 summary: recent Included, tools-first Excluded
}

// The smallest budget at which the changelog makes it into the context.
func ExampleMinBudgetFor() {
	items := agentContext()
	pipeline, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewRecency(), Slicer: slicer.NewGreedy(), Placer: placer.NewChronological()})
	if err != nil {
		log.Fatal(err)
	}
	changelog := items[2]
	min, ok, err := analysis.MinBudgetFor(pipeline, items, changelog, 10000)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(min, ok)
	// Output: 1658 true
}

// The items that a budget of 2000 tokens includes and one of 1600 does not.
func ExampleMarginalItems() {
	pipeline, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewRecency(), Slicer: slicer.NewGreedy(), Placer: placer.NewChronological()})
	if err != nil {
		log.Fatal(err)
	}
	budget, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 2000, TargetTokens: 2000})
	marginal, err := analysis.MarginalItems(pipeline, agentContext(), budget, 400)
	if err != nil {
		log.Fatal(err)
	}
	for _, it := range marginal {
		fmt.Println(it.Content())
	}
	// Output: CHANGELOG v2: ...
}

// One configuration, run once with its report, without keeping a pipeline.
func ExampleDryRun() {
	policy := cupel.Policy{Scorer: scorer.NewPriority(), Slicer: slicer.NewGreedy(), Placer: placer.NewChronological()}
	budget, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 500, TargetTokens: 400})
	result, report, err := analysis.DryRun(agentContext(), budget, policy)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(result.TotalTokens, len(report.Included), len(report.Excluded))
	// Output: 317 3 2
}
