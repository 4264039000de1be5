package slicer_test

import (
	"context"
	"fmt"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

func ExampleGreedy() {
	items := []cupel.ScoredItem{
		{Item: cupel.MustItem(cupel.ItemSpec{Content: "long answer", Tokens: 600}), Score: 0.9},
		{Item: cupel.MustItem(cupel.ItemSpec{Content: "short note", Tokens: 100}), Score: 0.5},
		{Item: cupel.MustItem(cupel.ItemSpec{Content: "system hint", Tokens: 0}), Score: 0.1},
		{Item: cupel.MustItem(cupel.ItemSpec{Content: "medium doc", Tokens: 400}), Score: 0.4},
	}
	budget, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 1000, TargetTokens: 800})
	selected, _ := slicer.NewGreedy().Slice(items, budget)
	for _, it := range selected {
		fmt.Println(it.Content())
	}
	// Output:
	// system hint
	// short note
	// long answer
}

func ExampleKnapsack() {
	items := []cupel.ScoredItem{
		{Item: cupel.MustItem(cupel.ItemSpec{Content: "dense", Tokens: 100}), Score: 0.5},
		{Item: cupel.MustItem(cupel.ItemSpec{Content: "x", Tokens: 150}), Score: 0.6},
		{Item: cupel.MustItem(cupel.ItemSpec{Content: "y", Tokens: 150}), Score: 0.6},
	}
	budget, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 300, TargetTokens: 300})
	k, _ := slicer.NewKnapsack(50)
	selected, _ := k.Slice(items, budget)
	for _, it := range selected {
		fmt.Println(it.Content())
	}
	// Output:
	// y
	// x
}

func ExampleCountConstrainedKnapsack() {
	tool := func(name string, score float64) cupel.ScoredItem {
		return cupel.ScoredItem{Item: cupel.MustItem(cupel.ItemSpec{Content: name, Tokens: 100, Kind: "tool"}), Score: score}
	}
	entry, _ := slicer.NewCountQuotaEntry("tool", 1, 2)
	k, _ := slicer.NewKnapsack(100)
	s, _ := slicer.NewCountConstrainedKnapsack([]slicer.CountQuotaEntry{entry}, k, slicer.ScarcityDegrade)
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

func ExampleQuota() {
	item := func(name string, kind cupel.ContextKind, tokens int, score float64) cupel.ScoredItem {
		return cupel.ScoredItem{Item: cupel.MustItem(cupel.ItemSpec{Content: name, Tokens: tokens, Kind: kind}), Score: score}
	}
	// Documents get at least 40% of the budget, messages at most 30%.
	quotas, _ := slicer.NewQuotaSet(slicer.Require("Document", 40), slicer.Cap("Message", 30))
	q, _ := slicer.NewQuota(quotas, slicer.NewGreedy())
	sorted := []cupel.ScoredItem{
		item("chat-1", "Message", 200, 0.9),
		item("chat-2", "Message", 200, 0.8),
		item("spec", "Document", 300, 0.7),
		item("notes", "Document", 300, 0.2),
	}
	budget, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 1000, TargetTokens: 1000})
	selected, _ := q.Slice(sorted, budget)
	for _, it := range selected {
		fmt.Println(it.Kind(), it.Content())
	}
	// Output:
	// Message chat-1
	// Document spec
	// Document notes
}

func ExampleCountQuota() {
	item := func(name string, kind cupel.ContextKind, score float64) cupel.ScoredItem {
		return cupel.ScoredItem{Item: cupel.MustItem(cupel.ItemSpec{Content: name, Tokens: 100, Kind: kind}), Score: score}
	}
	// At least one memory and two tools, at most two tools.
	memory, _ := slicer.NewCountQuotaEntry("Memory", 1, 3)
	tools, _ := slicer.NewCountQuotaEntry("ToolOutput", 2, 2)
	s, _ := slicer.NewCountQuota([]slicer.CountQuotaEntry{memory, tools}, slicer.NewGreedy(), slicer.ScarcityDegrade)
	sorted := []cupel.ScoredItem{
		item("grep", "ToolOutput", 0.9),
		item("ls", "ToolOutput", 0.8),
		item("cat", "ToolOutput", 0.7),
		item("hello", "Message", 0.6),
	}
	budget, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 1000, TargetTokens: 1000})
	r, _ := s.SliceDetailed(sorted, budget)
	for _, it := range r.Selected {
		fmt.Println("selected", it.Content())
	}
	for _, c := range r.CapExcluded {
		fmt.Println("capped", c.Item.Content())
	}
	for _, sf := range r.Shortfalls {
		fmt.Printf("short of %s: %d of %d\n", sf.Kind, sf.SatisfiedCount, sf.RequiredCount)
	}
	// Output:
	// selected grep
	// selected ls
	// selected hello
	// capped cat
	// short of Memory: 0 of 1
}

func ExampleStream() {
	pulled := 0
	source := func(yield func(cupel.ScoredItem) bool) {
		for i := range 100 {
			pulled++
			it := cupel.MustItem(cupel.ItemSpec{Content: fmt.Sprint("item-", i), Tokens: 100})
			if !yield(cupel.ScoredItem{Item: it, Score: 1}) {
				return
			}
		}
	}
	s, _ := slicer.NewStream(4)
	budget, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 1000, TargetTokens: 1000})
	selected, _ := s.SliceSeq(context.Background(), source, budget)
	fmt.Println(len(selected), "selected,", pulled, "pulled")
	// Output: 10 selected, 12 pulled
}
