package cupelopenai_test

import (
	"errors"
	"fmt"
	"math/rand/v2"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/openai/openai-go/v3"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/chat"
	"github.com/cupel-go/go-cupel/cupelopenai"
	"github.com/cupel-go/go-cupel/cupeltiktoken"
)

type msgs = []openai.ChatCompletionMessageParamUnion

func calls(text string, ids ...string) openai.ChatCompletionMessageParamUnion {
	a := &openai.ChatCompletionAssistantMessageParam{}
	if text != "" {
		a.Content.OfString = openai.String(text)
	}
	for _, id := range ids {
		a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
			ID: id, Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: "lookup", Arguments: `{"q":"` + id + `"}`},
		}})
	}
	return openai.ChatCompletionMessageParamUnion{OfAssistant: a}
}

var _ = Describe("Validate", func() {
	It("accepts a well-paired conversation", func() {
		Expect(cupelopenai.Validate(msgs{openai.SystemMessage("s"), openai.UserMessage("u"), calls("", "a", "b"), openai.ToolMessage("r", "b"), openai.ToolMessage("r", "a"), openai.AssistantMessage("done")})).To(Succeed())
	})

	DescribeTable("rejects each rule's violation, naming the message",
		func(m msgs, index int, rule chat.Rule) {
			err := cupelopenai.Validate(m)
			Expect(err).To(MatchError(chat.ErrRefused))
			var ce *chat.ConversationError
			Expect(errors.As(err, &ce)).To(BeTrue())
			Expect(ce.Index).To(Equal(index))
			Expect(ce.Rule).To(Equal(rule))
		},
		Entry("starts with a tool message", msgs{openai.SystemMessage("s"), openai.ToolMessage("r", "a")}, 1, chat.RuleStartsWithResult),
		Entry("a tool message without its call", msgs{openai.UserMessage("u"), openai.AssistantMessage("x"), openai.ToolMessage("r", "a")}, 2, chat.RuleOrphanResult),
		Entry("a tool message after a user message", msgs{openai.UserMessage("u"), calls("", "a"), openai.ToolMessage("r", "a"), openai.UserMessage("u"), openai.ToolMessage("r", "a")}, 4, chat.RuleOrphanResult),
		Entry("a call unanswered", msgs{openai.UserMessage("u"), calls("", "a", "b"), openai.ToolMessage("r", "a"), openai.UserMessage("u")}, 1, chat.RuleUnansweredCall),
	)

	It("passes the conversion error of a message with no variant", func() {
		Expect(cupelopenai.Validate(msgs{openai.UserMessage("u"), {}})).To(MatchError(cupelopenai.ErrUnsupportedMessage))
	})
})

// weather is the cookbook's worked example: one tool and two messages.
func weather() (msgs, []openai.ChatCompletionToolUnionParam) {
	tool := openai.ChatCompletionFunctionTool(openai.FunctionDefinitionParam{
		Name:        "get_current_weather",
		Description: openai.String("Get the current weather in a given location"),
		Parameters: openai.FunctionParameters{
			"type": "object",
			"properties": map[string]any{
				"location": map[string]any{"type": "string", "description": "The city and state, e.g. San Francisco, CA"},
				"unit":     map[string]any{"type": "string", "description": "The unit of temperature to return", "enum": []any{"celsius", "fahrenheit"}},
			},
			"required": []string{"location"},
		},
	})
	return msgs{
		openai.SystemMessage("You are a helpful assistant that can answer to questions about the weather."),
		openai.UserMessage("What's the weather like in San Francisco?"),
	}, []openai.ChatCompletionToolUnionParam{tool}
}

// promptTokens counts a request as Trim does: the messages' items with
// OpenAI's framing, the reply's primer and the tools.
func promptTokens(m msgs, tools []openai.ChatCompletionToolUnionParam, counter cupel.TokenCounter, costs cupelopenai.ToolCosts) int {
	items, err := cupelopenai.Items(m, counter, chat.Options{PerTurnTokens: cupelopenai.TokensPerMessage + 1, PerNameTokens: cupelopenai.TokensPerName})
	Expect(err).NotTo(HaveOccurred())
	n := cupelopenai.TokensReplyPrimer
	for _, it := range items {
		n += it.Tokens()
	}
	t, err := cupelopenai.ToolTokens(tools, counter, costs)
	Expect(err).NotTo(HaveOccurred())
	return n + t
}

var _ = Describe("counting a request", func() {
	It("matches the cookbook's worked example, checked against the API: 101 tokens for gpt-4o, 105 for gpt-4", func() {
		m, tools := weather()
		Expect(promptTokens(m, tools, cupeltiktoken.O200kBase(), cupelopenai.ToolCostsGPT4o)).To(Equal(101))
		Expect(promptTokens(m, tools, cupeltiktoken.Cl100kBase(), cupelopenai.ToolCostsGPT4)).To(Equal(105))
	})

	It("counts every role as one token, as the framing assumes", func() {
		for _, c := range []cupel.TokenCounter{cupeltiktoken.O200kBase(), cupeltiktoken.Cl100kBase()} {
			for _, role := range []string{"system", "developer", "user", "assistant", "tool", "function"} {
				Expect(c.Count(role)).To(Equal(1), role)
			}
		}
	})

	It("counts the recipe's framing on a corpus: 3 per message, the role, 1 per name, 3 to prime the reply", func() {
		// The recipe (OpenAI Cookbook, num_tokens_from_messages): for each
		// message, 3 plus the tokens of every value (role, content, name),
		// plus 1 for a name; plus 3.
		counter := cupeltiktoken.O200kBase()
		recipe := func(m msgs) int {
			n := 3
			for _, x := range m {
				n += 3
				role := "assistant" // the variant says the role; a param built in Go leaves Role empty
				switch {
				case x.OfSystem != nil:
					role = "system"
				case x.OfUser != nil:
					role = "user"
				}
				c, _ := counter.Count(role)
				n += c
				if s := x.GetContent().AsAny(); s != nil {
					if p, ok := s.(*string); ok {
						c, _ := counter.Count(*p)
						n += c
					}
				}
				if name := x.GetName(); name != nil {
					c, _ := counter.Count(*name)
					n += c + 1
				}
			}
			return n
		}
		r := rand.New(rand.NewPCG(7, 7))
		words := []string{"weather", "Paris", "is", "sunny", "today,", "and", "tomorrow", "rain", "éclair", "🙂", "42", "the", "order", "A-1444"}
		text := func() string {
			s := ""
			for range 1 + r.IntN(30) {
				s += words[r.IntN(len(words))] + " "
			}
			return s
		}
		for range 50 {
			var m msgs
			for range 1 + r.IntN(12) {
				var x openai.ChatCompletionMessageParamUnion
				switch r.IntN(3) {
				case 0:
					x = openai.SystemMessage(text())
				case 1:
					x = openai.UserMessage(text())
					if r.IntN(2) == 0 {
						x.OfUser.Name = openai.String(fmt.Sprintf("user_%d", r.IntN(100)))
					}
				default:
					x = openai.AssistantMessage(text())
				}
				m = append(m, x)
			}
			Expect(promptTokens(m, nil, counter, cupelopenai.ToolCostsGPT4o)).To(Equal(recipe(m)))
		}
	})

	It("takes the tools, the primer and the reply reserve out of the window before selection", func() {
		m, tools := weather()
		counter := cupeltiktoken.O200kBase()
		all := promptTokens(m, tools, counter, cupelopenai.ToolCostsGPT4o) // 101
		for _, reply := range []int{0, 50} {
			fits, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: all + reply, TargetTokens: all + reply})
			kept, _, err := cupelopenai.Trim(m, counter, fits, cupelopenai.TrimOptions{Tools: tools, ReplyReserve: reply})
			Expect(err).NotTo(HaveOccurred())
			Expect(kept).To(HaveLen(2))
			short, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: all + reply - 1, TargetTokens: all + reply - 1})
			kept, _, err = cupelopenai.Trim(m, counter, short, cupelopenai.TrimOptions{Tools: tools, ReplyReserve: reply})
			Expect(err).NotTo(HaveOccurred())
			Expect(kept).To(HaveLen(1), "one token short: the user message goes")
		}
		tiny, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 40, TargetTokens: 40})
		_, _, err := cupelopenai.Trim(m, counter, tiny, cupelopenai.TrimOptions{Tools: tools})
		Expect(err).To(MatchError(cupel.ErrInvalidBudget), "the tools alone do not fit")
	})
})
