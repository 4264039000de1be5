package cupel_test

import (
	"fmt"
	"log"
	"log/slog"
	"os"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

// Logging a run as structured records: stage events at Info, item decisions
// at Debug. The ReplaceAttr function drops the time and the durations only
// to keep this example's output stable.
func ExampleNewSlogObserver() {
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		Level: slog.LevelDebug,
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey || a.Key == "duration_ms" {
				return slog.Attr{}
			}
			return a
		},
	}))
	pipeline, err := cupel.NewPipeline(cupel.Policy{
		Scorer: scorer.NewPriority(),
		Slicer: slicer.NewGreedy(),
		Placer: placer.NewChronological(),
	})
	if err != nil {
		log.Fatal(err)
	}
	budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 100, TargetTokens: 100})
	if err != nil {
		log.Fatal(err)
	}
	items := []*cupel.ContextItem{
		cupel.MustItem(cupel.ItemSpec{Content: "system prompt", Tokens: 10, Pinned: true}),
		cupel.MustItem(cupel.ItemSpec{Content: "question", Tokens: 20, Priority: cupel.Ptr(9)}),
		cupel.MustItem(cupel.ItemSpec{Content: "long document", Tokens: 90, Priority: cupel.Ptr(1)}),
	}
	collector := cupel.NewDiagnosticTraceCollector(cupel.DetailItem, cupel.NewSlogObserver(logger, slog.LevelInfo))
	if _, err := pipeline.Run(items, budget, cupel.WithTrace(collector)); err != nil {
		log.Fatal(err)
	}
	// Output:
	// level=INFO msg="cupel stage" stage=Classify item_count=3
	// level=INFO msg="cupel stage" stage=Score item_count=2
	// level=INFO msg="cupel stage" stage=Deduplicate item_count=2
	// level=DEBUG msg="cupel item" stage=Slice item.content="long document" item.tokens=90 item.kind=Message score=0 reason=BudgetExceeded item_tokens=90 available_tokens=70
	// level=INFO msg="cupel stage" stage=Slice item_count=2
	// level=DEBUG msg="cupel item" stage=Place item.content="system prompt" item.tokens=10 item.kind=Message score=1 reason=Pinned
	// level=DEBUG msg="cupel item" stage=Place item.content=question item.tokens=20 item.kind=Message score=1 reason=Scored
	// level=INFO msg="cupel stage" stage=Place item_count=2
}

// Iterating over a result and a report.
func ExampleResult_All() {
	pipeline, err := cupel.NewPipeline(cupel.Policy{
		Scorer: scorer.NewPriority(),
		Slicer: slicer.NewGreedy(),
		Placer: placer.NewChronological(),
	})
	if err != nil {
		log.Fatal(err)
	}
	budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 100, TargetTokens: 100})
	if err != nil {
		log.Fatal(err)
	}
	items := []*cupel.ContextItem{
		cupel.MustItem(cupel.ItemSpec{Content: "question", Tokens: 20, Priority: cupel.Ptr(9)}),
		cupel.MustItem(cupel.ItemSpec{Content: "answer draft", Tokens: 50, Priority: cupel.Ptr(5)}),
		cupel.MustItem(cupel.ItemSpec{Content: "long document", Tokens: 90, Priority: cupel.Ptr(1)}),
		cupel.MustItem(cupel.ItemSpec{Content: "question", Tokens: 20, Priority: cupel.Ptr(2)}),
	}
	var report cupel.SelectionReport
	result, err := pipeline.Run(items, budget, cupel.WithReport(&report))
	if err != nil {
		log.Fatal(err)
	}
	for item, score := range result.All() {
		fmt.Printf("%s (%.2f)\n", item.Content(), score)
	}
	for x := range report.ExcludedBy(cupel.ExclusionBudgetExceeded) {
		fmt.Println("no room for", x.Item.Content())
	}
	for x := range report.ExcludedBy(cupel.ExclusionDeduplicated) {
		fmt.Println("duplicate:", x.Item.Content())
	}
	// Output:
	// question (1.00)
	// answer draft (0.67)
	// no room for long document
	// duplicate: question
}
