package cupel_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strconv"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

// Running under a deadline, and what a cancelled run returns.
func ExamplePipeline_RunContext() {
	pipeline, err := cupel.NewPipeline(cupel.Policy{
		Scorer: scorer.NewPriority(),
		Slicer: slicer.NewGreedy(),
		Placer: placer.NewChronological(),
	})
	if err != nil {
		log.Fatal(err)
	}
	budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 1000, TargetTokens: 800})
	if err != nil {
		log.Fatal(err)
	}
	items := agentContext()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	result, err := pipeline.RunContext(ctx, items, budget)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(result.Items), "items,", result.TotalTokens, "tokens")

	stopped, stop := context.WithCancel(ctx)
	stop()
	_, err = pipeline.RunContext(stopped, items, budget)
	fmt.Println(errors.Is(err, context.Canceled), err)
	// Output:
	// 4 items, 467 tokens
	// true cupel: run stopped at the Classify stage: context canceled
}

// Selecting from a source that never ends: the run pulls micro-batches until
// the budget is full (here: at most 99 tokens left) and stops pulling.
func ExamplePipeline_RunStream() {
	pipeline, err := cupel.NewPipeline(cupel.Policy{
		Scorer: scorer.NewPriority(),
		Slicer: slicer.NewGreedy(),
		Placer: placer.NewChronological(),
	})
	if err != nil {
		log.Fatal(err)
	}
	budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 2000, TargetTokens: 1500})
	if err != nil {
		log.Fatal(err)
	}
	pulled := 0
	searchHits := func(yield func(*cupel.ContextItem) bool) {
		for i := 0; ; i++ {
			pulled++
			hit := cupel.MustItem(cupel.ItemSpec{Content: "hit " + strconv.Itoa(i), Tokens: 100 + i%5*20, Priority: cupel.Ptr(i % 10)})
			if !yield(hit) {
				return
			}
		}
	}
	var report cupel.SelectionReport
	result, err := pipeline.RunStream(searchHits, budget, cupel.WithBatchSize(8), cupel.WithFillTolerance(99), cupel.WithReport(&report))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("pulled", pulled, "candidates; selected", len(result.Items), "items,", result.TotalTokens, "tokens")
	fmt.Println("report:", len(report.Included), "included,", len(report.Excluded), "excluded")
	// Output:
	// pulled 16 candidates; selected 11 items, 1500 tokens
	// report: 11 included, 5 excluded
}

// A channel as a source: RunStream receives until the budget is full or
// the channel is closed.
func ExamplePipeline_RunStream_channel() {
	pipeline, err := cupel.NewPipeline(cupel.Policy{
		Scorer: scorer.NewPriority(),
		Slicer: slicer.NewGreedy(),
		Placer: placer.NewChronological(),
	})
	if err != nil {
		log.Fatal(err)
	}
	budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 1000, TargetTokens: 800})
	if err != nil {
		log.Fatal(err)
	}
	ch := make(chan *cupel.ContextItem)
	go func() {
		defer close(ch)
		for _, it := range agentContext() {
			ch <- it
		}
	}()
	seq := func(yield func(*cupel.ContextItem) bool) {
		for it := range ch {
			if !yield(it) {
				return
			}
		}
	}
	result, err := pipeline.RunStream(seq, budget)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(result.Items), "items,", result.TotalTokens, "tokens")
	// Output:
	// 4 items, 467 tokens
}
