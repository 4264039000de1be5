package cupel_test

import (
	"fmt"
	"log"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

func agentContext() []*cupel.ContextItem {
	at := func(min int) *time.Time {
		t := time.Date(2026, 11, 22, 9, min, 0, 0, time.UTC)
		return &t
	}
	return []*cupel.ContextItem{
		cupel.MustItem(cupel.ItemSpec{Content: "You are a helpful assistant.", Tokens: 8, Kind: cupel.KindSystemPrompt, Pinned: true}),
		cupel.MustItem(cupel.ItemSpec{Content: "User: what changed in v2?", Tokens: 9, Priority: cupel.Ptr(5), Timestamp: at(1)}),
		cupel.MustItem(cupel.ItemSpec{Content: "CHANGELOG v2: ...", Tokens: 1200, Kind: cupel.KindDocument, Timestamp: at(2)}),
		cupel.MustItem(cupel.ItemSpec{Content: "grep output: ...", Tokens: 300, Kind: cupel.KindToolOutput, Timestamp: at(3)}),
		cupel.MustItem(cupel.ItemSpec{Content: "Release notes v2 summary", Tokens: 150, Kind: cupel.KindDocument, Priority: cupel.Ptr(3), Timestamp: at(4)}),
	}
}

// Selecting context under a budget: a pipeline of two weighted scorers, a
// greedy slicer and a u-shaped placer (examples/quickstart is the README's
// program).
func Example() {
	items := agentContext()
	sc, err := scorer.NewComposite(
		scorer.Weighted{Scorer: scorer.NewPriority(), Weight: 2},
		scorer.Weighted{Scorer: scorer.NewDefaultKind(), Weight: 1},
	)
	if err != nil {
		log.Fatal(err)
	}
	pipeline, err := cupel.NewPipeline(cupel.Policy{
		Scorer: sc,
		Slicer: slicer.NewGreedy(),
		Placer: placer.NewUShaped(),
	})
	if err != nil {
		log.Fatal(err)
	}
	budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 1000, TargetTokens: 800})
	if err != nil {
		log.Fatal(err)
	}
	var report cupel.SelectionReport
	result, err := pipeline.Run(items, budget, cupel.WithReport(&report))
	if err != nil {
		log.Fatal(err)
	}
	for _, it := range result.Items {
		fmt.Println(it.Content())
	}
	for _, ex := range report.Excluded {
		fmt.Printf("left out %q: %s\n", ex.Item.Content(), ex.Reason)
	}
	// Output:
	// You are a helpful assistant.
	// grep output: ...
	// Release notes v2 summary
	// User: what changed in v2?
	// left out "CHANGELOG v2: ...": BudgetExceeded: 1200 tokens requested, 333 available
}

func ExamplePipeline_Run() {
	pipeline, err := cupel.NewPipeline(cupel.Policy{
		Scorer: scorer.NewRecency(),
		Slicer: slicer.NewGreedy(),
		Placer: placer.NewChronological(),
	})
	if err != nil {
		log.Fatal(err)
	}
	budget, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 600, TargetTokens: 500})
	result, err := pipeline.Run(agentContext(), budget)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(result.Items), "items,", result.TotalTokens, "tokens")
	// Output: 4 items, 467 tokens
}

func ExampleWithTrace() {
	pipeline, _ := cupel.NewPipeline(cupel.Policy{
		Scorer:   scorer.NewRecency(),
		Slicer:   slicer.NewGreedy(),
		Placer:   placer.NewChronological(),
		Overflow: cupel.OverflowProceed,
	})
	budget, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 100, TargetTokens: 5})
	collector := cupel.NewDiagnosticTraceCollector(cupel.DetailStage, nil)
	_, err := pipeline.Run(agentContext(), budget, cupel.WithTrace(collector), cupel.WithOnOverflow(func(e cupel.OverflowEvent) { fmt.Println("over budget by", e.TokensOverBudget) }))
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range collector.Events() {
		fmt.Println(e.Stage, e.ItemCount)
	}
	// Output:
	// over budget by 3
	// Classify 5
	// Score 4
	// Deduplicate 4
	// Slice 4
	// Place 1
}

// A report whose event list keeps the stage events only: Run WithTrace of a
// collector at DetailStage. Its included and excluded lists are as complete
// as those of WithReport's.
func ExampleDiagnosticTraceCollector_Report() {
	pipeline, err := cupel.NewPipeline(cupel.Policy{
		Scorer: scorer.NewRecency(),
		Slicer: slicer.NewGreedy(),
		Placer: placer.NewChronological(),
	})
	if err != nil {
		log.Fatal(err)
	}
	budget, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 600, TargetTokens: 500})
	collector := cupel.NewDiagnosticTraceCollector(cupel.DetailStage, nil)
	if _, err := pipeline.Run(agentContext(), budget, cupel.WithTrace(collector)); err != nil {
		log.Fatal(err)
	}
	report := collector.Report()
	fmt.Println(len(report.Events), "events,", len(report.Included), "included,", len(report.Excluded), "excluded")
	for _, ex := range report.Excluded {
		fmt.Printf("left out %q: %s\n", ex.Item.Content(), ex.Reason)
	}
	// Output:
	// 5 events, 4 included, 1 excluded
	// left out "CHANGELOG v2: ...": BudgetExceeded: 1200 tokens requested, 33 available
}
