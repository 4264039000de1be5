package chat_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/chat"
)

// A stand-in tokenizer for the examples: one token per word. A real
// application counts with its model's tokenizer (the cupeltiktoken module).
var wordsCounter = cupel.TokenCounterFunc(func(s string) (int, error) { return len(strings.Fields(s)), nil })

func ExampleHistory() {
	h, err := chat.NewHistory(wordsCounter, chat.HistoryOptions{})
	if err != nil {
		log.Fatal(err)
	}
	err = h.Append(
		chat.Turn{Role: chat.RoleSystem, Content: "You answer in one line."},
		chat.Turn{Role: chat.RoleUser, Content: "What is the weather in Paris today?"},
		chat.Turn{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "call_1", Name: "weather", Arguments: `{"city":"Paris"}`}}},
		chat.Turn{Role: chat.RoleTool, ToolCallID: "call_1", Name: "weather", Content: "18 C and sunny"},
		chat.Turn{Role: chat.RoleAssistant, Content: "18 C and sunny."},
		chat.Turn{Role: chat.RoleUser, Content: "ok"},
		chat.Turn{Role: chat.RoleAssistant, Content: "ok"},
		chat.Turn{Role: chat.RoleUser, Content: "And tomorrow?"},
	)
	if err != nil {
		log.Fatal(err)
	}
	budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 20, TargetTokens: 20})
	if err != nil {
		log.Fatal(err)
	}
	sel, err := h.Select(budget)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range sel.Turns {
		switch {
		case len(t.ToolCalls) > 0:
			fmt.Printf("%s calls %s(%s)\n", t.Role, t.ToolCalls[0].Name, t.ToolCalls[0].Arguments)
		case t.ToolCallID != "":
			fmt.Printf("%s answers %s: %s\n", t.Role, t.ToolCallID, t.Content)
		default:
			fmt.Printf("%s: %s\n", t.Role, t.Content)
		}
	}
	for _, ex := range sel.Report.Excluded {
		fmt.Printf("dropped %q: %s\n", ex.Item.Content(), ex.Reason)
	}
	// Output:
	// system: You answer in one line.
	// assistant calls weather({"city":"Paris"})
	// tool answers call_1: 18 C and sunny
	// assistant: 18 C and sunny.
	// user: ok
	// assistant: ok
	// user: And tomorrow?
	// dropped "[1] user: What is the weather in Paris today?": BudgetExceeded: 7 tokens requested, 0 available
}

func ExampleItems() {
	turns := []chat.Turn{
		{Role: chat.RoleSystem, Content: "Be brief."},
		{Role: chat.RoleUser, Content: "ok"},
		{Role: chat.RoleAssistant, Content: "ok"},
		{Role: chat.RoleUser, Content: "ok"},
	}
	items, err := chat.Items(turns, wordsCounter, chat.Options{})
	if err != nil {
		log.Fatal(err)
	}
	for _, it := range items {
		role, _ := it.MetadataValue(chat.RoleKey)
		fmt.Printf("%q %s pinned=%v tokens=%d\n", it.Content(), role, it.Pinned(), it.Tokens())
	}
	back, err := chat.Turns(items)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(back), "turns back")
	// Output:
	// "[0] system: Be brief." system pinned=true tokens=2
	// "[1] user: ok" user pinned=false tokens=1
	// "[2] assistant: ok" assistant pinned=false tokens=1
	// "[3] user: ok" user pinned=false tokens=1
	// 4 turns back
}

// Calibrate the estimation margin from what the provider reported: each
// pair is the count a selection estimated for a request and the usage the
// provider's response gave for it.
func ExampleCalibrate() {
	pairs := []chat.Usage{
		{Estimated: 3120, Reported: 3410},
		{Estimated: 5980, Reported: 6390},
		{Estimated: 7410, Reported: 8170},
		{Estimated: 2050, Reported: 2160},
		{Estimated: 6600, Reported: 7550},
	}
	d, err := chat.Calibrate(pairs, 0.99)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("ratio %.3f (%.3f to %.3f), mean error %.1f%%\n", d.MeanRatio, d.MinRatio, d.MaxRatio, 100*d.MeanError)
	fmt.Printf("margin for %.0f%% of requests: %.1f%%\n", 100*d.Coverage, d.MarginPercent)
	// Output:
	// ratio 1.092 (1.054 to 1.144), mean error 8.4%
	// margin for 99% of requests: 12.6%
}
