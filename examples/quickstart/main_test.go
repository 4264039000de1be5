package main

import (
	"fmt"
	"log"
	"log/slog"
	"os"
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/chat"
	"github.com/cupel-go/go-cupel/cupel/policy"
	"github.com/cupel-go/go-cupel/cupeltest"
)

// The README shows main.go whole, and this output after it.
func Example() {
	main()
	// Output:
	// You are a helpful assistant.
	// grep output: ...
	// User: what changed in v2?
	// left out "CHANGELOG v2: ...": BudgetExceeded: 1200 tokens requested, 483 available
}

func TestAgentTurn(t *testing.T) {
	pipeline, err := newPipeline()
	if err != nil {
		t.Fatal(err)
	}
	budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 1000, TargetTokens: 800})
	if err != nil {
		t.Fatal(err)
	}
	var report cupel.SelectionReport
	if _, err := pipeline.Run(candidates(), budget, cupel.WithReport(&report)); err != nil {
		t.Fatal(err)
	}
	cupeltest.Should(t, &report).
		IncludeItemWithKind(cupel.KindSystemPrompt).
		ExcludeItemWithReason(cupel.ExclusionBudgetExceeded).
		HaveBudgetUtilizationAbove(0.3, budget) // 317 of 1,000 tokens
}

// myScorer scores an item by its length in tokens, up to 100.
type myScorer struct{}

func (myScorer) Score(item *cupel.ContextItem, _ []*cupel.ContextItem) float64 {
	return min(float64(item.Tokens()), 100) / 100
}

func TestMyScorer(t *testing.T) {
	cupeltest.RunScorerTests(t, myScorer{}) // one subtest per property: deterministic, no mutation, finite, concurrent use, edge cases, fast path agrees
}

// A preset instead of a policy of your own.
func Example_preset() {
	spec, err := policy.Preset("chat") // the preset as a policy file would say it
	if err != nil {
		log.Fatal(err)
	}
	chat, err := spec.Build()
	if err != nil {
		log.Fatal(err)
	}
	pipeline, err := cupel.NewPipeline(chat)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(spec.Slicer, spec.Placer, pipeline != nil)
	// Output: greedy chronological true
}

// A run's trace events as log/slog records.
func Example_slog() {
	pipeline, err := newPipeline()
	if err != nil {
		log.Fatal(err)
	}
	budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 1000, TargetTokens: 800})
	if err != nil {
		log.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	trace := cupel.NewDiagnosticTraceCollector(cupel.DetailStage, cupel.NewSlogObserver(logger, slog.LevelInfo))
	if _, err := pipeline.Run(candidates(), budget, cupel.WithTrace(trace)); err != nil {
		log.Fatal(err)
	}
}

// A conversation as chat turns, selected under a budget.
func Example_chat() {
	counter := cupel.TokenCounterFunc(func(s string) (int, error) { return (len(s) + 3) / 4, nil }) // or cupeltiktoken's
	budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 1000, TargetTokens: 800})
	if err != nil {
		log.Fatal(err)
	}
	h, err := chat.NewHistory(counter, chat.HistoryOptions{}) // chat.Policy: newest turns first, chronological order
	if err != nil {
		log.Fatal(err)
	}
	err = h.Append(
		chat.Turn{Role: chat.RoleSystem, Content: "You answer in one line."}, // pinned
		chat.Turn{Role: chat.RoleUser, Content: "Weather in Paris?"},
		chat.Turn{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "call_1", Name: "weather", Arguments: `{"city":"Paris"}`}}},
		chat.Turn{Role: chat.RoleTool, ToolCallID: "call_1", Content: "18 C, sunny"}, // one item with its call
	)
	if err != nil {
		log.Fatal(err)
	}
	sel, err := h.Select(budget) // sel.Turns to send, sel.Report says what was dropped and why
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(sel.Turns), "turns,", len(sel.Report.Excluded), "dropped")
	// Output: 4 turns, 0 dropped
}
