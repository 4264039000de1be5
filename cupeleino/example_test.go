package cupeleino_test

import (
	"context"
	"fmt"
	"log"

	"github.com/cloudwego/eino/flow/agent/react"
	"github.com/cloudwego/eino/schema"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupeleino"
)

func ExampleRewriter() {
	// A rough counter (a token per 4 bytes); an application uses its
	// model's tokenizer, e.g. the cupeltiktoken module's.
	counter := cupel.TokenCounterFunc(func(s string) (int, error) { return (len(s) + 3) / 4, nil })
	budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 40, TargetTokens: 40})
	if err != nil {
		log.Fatal(err)
	}
	hook := cupeleino.Rewriter(counter, budget, cupeleino.RewriterOptions{
		OnReport: func(_ context.Context, r *cupel.SelectionReport) {
			fmt.Printf("kept %d, dropped %d\n", len(r.Included), len(r.Excluded))
		},
		OnError: func(_ context.Context, err error) { log.Print(err) },
	})

	// The agent calls the hook before every model call, on its history.
	cfg := &react.AgentConfig{MessageRewriter: hook}

	history := []*schema.Message{
		schema.SystemMessage("You are a weather bot."),
		schema.UserMessage("Hi! I am planning a long weekend in Europe; any ideas?"),
		schema.AssistantMessage("Lisbon, Prague and Paris are lovely in spring.", nil),
		schema.UserMessage("Weather in Paris?"),
		schema.AssistantMessage("", []schema.ToolCall{{ID: "call_1", Type: "function", Function: schema.FunctionCall{Name: "weather", Arguments: `{"city":"Paris"}`}}}),
		schema.ToolMessage("18 C, sunny", "call_1"),
	}
	for _, m := range cfg.MessageRewriter(context.Background(), history) {
		fmt.Printf("%s: %q %d tool calls\n", m.Role, m.Content, len(m.ToolCalls))
	}
	// Output:
	// kept 3, dropped 2
	// system: "You are a weather bot." 0 tool calls
	// user: "Weather in Paris?" 0 tool calls
	// assistant: "" 1 tool calls
	// tool: "18 C, sunny" 0 tool calls
}
