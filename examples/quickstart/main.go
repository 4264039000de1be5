// Command quickstart is the README's first example: a pipeline selects one
// turn's context under a token budget and says what it left out.
package main

import (
	"fmt"
	"log"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

// candidates is the context of one turn: more than fits the budget.
func candidates() []*cupel.ContextItem {
	return []*cupel.ContextItem{
		cupel.MustItem(cupel.ItemSpec{Content: "You are a helpful assistant.", Tokens: 8, Kind: cupel.KindSystemPrompt, Pinned: true}),
		cupel.MustItem(cupel.ItemSpec{Content: "User: what changed in v2?", Tokens: 9, Priority: cupel.Ptr(5)}),
		cupel.MustItem(cupel.ItemSpec{Content: "CHANGELOG v2: ...", Tokens: 1200, Kind: cupel.KindDocument}),
		cupel.MustItem(cupel.ItemSpec{Content: "grep output: ...", Tokens: 300, Kind: cupel.KindToolOutput}),
	}
}

// newPipeline scores by priority and kind, fills the budget greedily and
// puts the best items at both ends.
func newPipeline() (*cupel.Pipeline, error) {
	sc, err := scorer.NewComposite(
		scorer.Weighted{Scorer: scorer.NewPriority(), Weight: 2},
		scorer.Weighted{Scorer: scorer.NewDefaultKind(), Weight: 1},
	)
	if err != nil {
		return nil, err
	}
	return cupel.NewPipeline(cupel.Policy{
		Scorer: sc,
		Slicer: slicer.NewGreedy(),
		Placer: placer.NewUShaped(),
	})
}

func main() {
	pipeline, err := newPipeline()
	if err != nil {
		log.Fatal(err)
	}
	budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 1000, TargetTokens: 800})
	if err != nil {
		log.Fatal(err)
	}
	var report cupel.SelectionReport
	result, err := pipeline.Run(candidates(), budget, cupel.WithReport(&report))
	if err != nil {
		log.Fatal(err)
	}
	for _, it := range result.Items {
		fmt.Println(it.Content())
	}
	for _, ex := range report.Excluded {
		fmt.Printf("left out %q: %s\n", ex.Item.Content(), ex.Reason)
	}
}
