package cupelanthropic_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/chat"
	"github.com/cupel-go/go-cupel/cupelanthropic"
)

// supportParams is a request of a long support conversation: a system
// prompt, one tool, and 60 rounds of a question and an answer.
func supportParams() anthropic.MessageNewParams {
	params := anthropic.MessageNewParams{
		Model:     anthropic.ModelClaudeSonnet5_5,
		MaxTokens: 1024,
		System:    []anthropic.TextBlockParam{{Text: "You are Acme's support agent."}},
		Tools: []anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{
			Name:        "lookup_order",
			Description: anthropic.String("Look an order up by its number."),
			InputSchema: anthropic.ToolInputSchemaParam{Properties: map[string]any{"order": map[string]any{"type": "string"}}},
		}}},
	}
	for i := range 60 {
		params.Messages = append(params.Messages,
			anthropic.NewUserMessage(anthropic.NewTextBlock(fmt.Sprintf("Round %d: where is my order? %s", i, strings.Repeat("Please check. ", 20)))),
			anthropic.NewAssistantMessage(anthropic.NewTextBlock(fmt.Sprintf("Order %d ships tomorrow. %s", i, strings.Repeat("Thanks for waiting. ", 30)))))
	}
	params.Messages = append(params.Messages, anthropic.NewUserMessage(anthropic.NewTextBlock("And the refund?")))
	return params
}

// A cache-friendly trim with tools and a reply reserve: the README's
// example.
func ExampleTrim_cache() {
	params := supportParams()
	counter := cupel.TokenCounterFunc(func(s string) (int, error) { return (len(s) + 3) / 4, nil }) // a rough estimate
	window, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 16_000, TargetTokens: 16_000})
	if err != nil {
		log.Fatal(err)
	}
	system, msgs, report, err := cupelanthropic.Trim(params.System, params.Messages, counter, window, cupelanthropic.TrimOptions{
		HistoryOptions:  chat.HistoryOptions{Eviction: chat.EvictCache}, // drop to 65% of the budget, then keep the prefix
		Tools:           params.Tools,                                   // counted, taken out of the window
		ReplyReserve:    int(params.MaxTokens),                          // max_tokens, taken out too
		CacheBreakpoint: true,                                           // cache_control at the end: the next request reads it
	})
	if err != nil {
		log.Fatal(err)
	}
	params.System, params.Messages = system, msgs // send with client.Messages.New(ctx, params)

	// What Trim estimates the request's input at: pair it with the
	// response's input tokens in a chat.Usage for chat.Calibrate.
	fmt.Printf("kept %d of %d messages, first %s, dropped %d items\n", len(msgs), 121, msgs[0].Role, len(report.Excluded))
	fmt.Printf("input estimated at %d tokens: %d of system and messages, %d of tools\n", report.Estimated(), report.TurnTokens, report.FixedTokens)
	fmt.Println("breakpoint on the last message:", strings.Contains(marshalExample(msgs[len(msgs)-1]), `"cache_control":{"type":"ephemeral"}`))
	// Output:
	// kept 85 of 121 messages, first user, dropped 36 items
	// input estimated at 10265 tokens: 9882 of system and messages, 383 of tools
	// breakpoint on the last message: true
}

func marshalExample(m anthropic.MessageParam) string {
	b, err := m.MarshalJSON()
	if err != nil {
		log.Fatal(err)
	}
	return string(b)
}
