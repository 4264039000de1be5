package cupel_test

import (
	"fmt"

	"github.com/cupel-go/go-cupel/cupel"
)

func ExampleGreedySlice() {
	items := []cupel.ScoredItem{
		{Item: cupel.MustItem(cupel.ItemSpec{Content: "long answer", Tokens: 600}), Score: 0.9},
		{Item: cupel.MustItem(cupel.ItemSpec{Content: "short note", Tokens: 100}), Score: 0.5},
		{Item: cupel.MustItem(cupel.ItemSpec{Content: "system hint", Tokens: 0}), Score: 0.1},
		{Item: cupel.MustItem(cupel.ItemSpec{Content: "medium doc", Tokens: 400}), Score: 0.4},
	}
	budget, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 1000, TargetTokens: 800})
	selected, _ := cupel.NewGreedySlice().Slice(items, budget)
	for _, it := range selected {
		fmt.Println(it.Content())
	}
	// Output:
	// system hint
	// short note
	// long answer
}

func ExampleKnapsackSlice() {
	items := []cupel.ScoredItem{
		{Item: cupel.MustItem(cupel.ItemSpec{Content: "dense", Tokens: 100}), Score: 0.5},
		{Item: cupel.MustItem(cupel.ItemSpec{Content: "x", Tokens: 150}), Score: 0.6},
		{Item: cupel.MustItem(cupel.ItemSpec{Content: "y", Tokens: 150}), Score: 0.6},
	}
	budget, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 300, TargetTokens: 300})
	k, _ := cupel.NewKnapsackSlice(50)
	selected, _ := k.Slice(items, budget)
	for _, it := range selected {
		fmt.Println(it.Content())
	}
	// Output:
	// y
	// x
}

func ExampleCountConstrainedKnapsackSlice() {
	tool := func(name string, score float64) cupel.ScoredItem {
		return cupel.ScoredItem{Item: cupel.MustItem(cupel.ItemSpec{Content: name, Tokens: 100, Kind: "tool"}), Score: score}
	}
	entry, _ := cupel.NewCountQuotaEntry("tool", 1, 2)
	k, _ := cupel.NewKnapsackSlice(100)
	s, _ := cupel.NewCountConstrainedKnapsackSlice([]cupel.CountQuotaEntry{entry}, k, cupel.ScarcityDegrade)
	budget, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 600, TargetTokens: 600})
	r, _ := s.SliceDetailed([]cupel.ScoredItem{tool("tool-a", 0.9), tool("tool-b", 0.8), tool("tool-c", 0.7)}, budget)
	for _, it := range r.Selected {
		fmt.Println("selected", it.Content())
	}
	for _, c := range r.CapExcluded {
		fmt.Printf("capped %s (kind %s, cap %d, count %d)\n", c.Item.Content(), c.Kind, c.Cap, c.Count)
	}
	// Output:
	// selected tool-a
	// selected tool-b
	// capped tool-c (kind tool, cap 2, count 2)
}
