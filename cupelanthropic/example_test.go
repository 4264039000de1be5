package cupelanthropic_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupelanthropic"
)

func ExampleTrim() {
	system := []anthropic.TextBlockParam{{Text: "You are a weather bot. Answer in one sentence."}}
	msgs := []anthropic.MessageParam{
		anthropic.NewUserMessage(anthropic.NewTextBlock("Hi! I am planning a long weekend in Europe and would love some ideas.")),
		anthropic.NewAssistantMessage(anthropic.NewTextBlock("Lisbon, Prague and Paris are lovely in spring.")),
		anthropic.NewUserMessage(anthropic.NewTextBlock("What is the weather in Paris?")),
		anthropic.NewAssistantMessage(anthropic.NewToolUseBlock("toolu_1", map[string]string{"city": "Paris"}, "weather")),
		anthropic.NewUserMessage(anthropic.NewToolResultBlock("toolu_1", "18 C, sunny", false)),
		anthropic.NewAssistantMessage(anthropic.NewTextBlock("It is 18 C and sunny in Paris.")),
	}
	// A rough counter (a token per 4 bytes) with a 20% margin; see the
	// package documentation for exact counts.
	counter := cupel.TokenCounterFunc(func(s string) (int, error) { return (len(s) + 3) / 4, nil })
	budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 50, TargetTokens: 50, EstimationSafetyMarginPercent: 20})
	if err != nil {
		log.Fatal(err)
	}
	keptSystem, kept, report, err := cupelanthropic.Trim(system, msgs, counter, budget, cupelanthropic.TrimOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("system:", keptSystem[0].Text)
	for _, m := range kept {
		var blocks []string
		for _, b := range m.Content {
			blocks = append(blocks, *b.GetType())
		}
		fmt.Printf("%s: %s\n", m.Role, strings.Join(blocks, ", "))
	}
	for _, ex := range report.Excluded {
		fmt.Printf("dropped %.30q: %s\n", ex.Item.Content(), ex.Reason.Variant)
	}
	// Output:
	// system: You are a weather bot. Answer in one sentence.
	// user: text
	// assistant: tool_use
	// user: tool_result
	// assistant: text
	// dropped "[2] assistant: Lisbon, Prague ": BudgetExceeded
	// dropped "[1] user: Hi! I am planning a ": Filtered
}
