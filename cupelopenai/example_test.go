package cupelopenai_test

import (
	"fmt"
	"log"

	"github.com/openai/openai-go/v3"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupelopenai"
	"github.com/cupel-go/go-cupel/cupeltiktoken"
)

func ExampleTrim() {
	weatherCall := openai.ChatCompletionAssistantMessageParam{
		ToolCalls: []openai.ChatCompletionMessageToolCallUnionParam{{OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
			ID:       "call_1",
			Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: "weather", Arguments: `{"city":"Paris"}`},
		}}},
	}
	msgs := []openai.ChatCompletionMessageParamUnion{
		openai.SystemMessage("You are a weather bot. Answer in one sentence."),
		openai.UserMessage("Hi! I am planning a long weekend in Europe and would love some ideas for where to go."),
		openai.AssistantMessage("Lisbon, Prague and Paris are all lovely in spring; tell me what you like and I will narrow it down."),
		openai.UserMessage("What is the weather in Paris?"),
		{OfAssistant: &weatherCall},
		openai.ToolMessage("18 C, sunny", "call_1"),
		openai.AssistantMessage("It is 18 C and sunny in Paris."),
		openai.UserMessage("ok"),
	}
	counter := cupeltiktoken.Cl100kBase()
	budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 80, TargetTokens: 80})
	if err != nil {
		log.Fatal(err)
	}
	kept, report, err := cupelopenai.Trim(msgs, counter, budget, cupelopenai.TrimOptions{})
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range kept {
		turn, _ := cupelopenai.ToTurn(m)
		if len(turn.ToolCalls) > 0 {
			fmt.Printf("%s calls %s(%s)\n", turn.Role, turn.ToolCalls[0].Name, turn.ToolCalls[0].Arguments)
			continue
		}
		fmt.Printf("%s: %s\n", turn.Role, turn.Content)
	}
	for _, ex := range report.Excluded {
		fmt.Printf("dropped %.40q: %s\n", ex.Item.Content(), ex.Reason)
	}
	// Output:
	// system: You are a weather bot. Answer in one sentence.
	// user: What is the weather in Paris?
	// assistant calls weather({"city":"Paris"})
	// tool: 18 C, sunny
	// assistant: It is 18 C and sunny in Paris.
	// user: ok
	// dropped "[2] assistant: Lisbon, Prague and Paris ": BudgetExceeded: 29 tokens requested, 14 available
	// dropped "[1] user: Hi! I am planning a long weeke": Filtered: by chat.NewestFirstSlice (older than a turn that did not fit)
}
