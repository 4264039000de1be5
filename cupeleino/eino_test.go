package cupeleino_test

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/cloudwego/eino/schema"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/chat"
	"github.com/cupel-go/go-cupel/cupeleino"
)

// quarter estimates a token per four bytes, a stand-in for a tokenizer.
var quarter = cupel.TokenCounterFunc(func(s string) (int, error) { return (len(s) + 3) / 4, nil })

func conversation() []*schema.Message {
	idx := 0
	return []*schema.Message{
		schema.SystemMessage("You are a travel assistant."),
		{Role: schema.User, Name: "jane", UserInputMultiContent: []schema.MessageInputPart{
			{Type: schema.ChatMessagePartTypeText, Text: "Where is this, and the weather there?"},
			{Type: schema.ChatMessagePartTypeImageURL, Image: &schema.MessageInputImage{}},
		}, Extra: map[string]any{"trace": "t-1"}},
		{Role: schema.Assistant, ReasoningContent: "It is the Eiffel Tower.", ToolCalls: []schema.ToolCall{
			{Index: &idx, ID: "call_1", Type: "function", Function: schema.FunctionCall{Name: "weather", Arguments: `{"city":"Paris"}`}, Extra: map[string]any{"k": 1}},
		}, ResponseMeta: &schema.ResponseMeta{FinishReason: "tool_calls", Usage: &schema.TokenUsage{PromptTokens: 40}}},
		schema.ToolMessage("18 C, sunny", "call_1", schema.WithToolName("weather")),
		schema.AssistantMessage("Paris: 18 C and sunny.", nil),
		schema.UserMessage("ok"),
		schema.AssistantMessage("ok", nil),
		schema.UserMessage("And tomorrow?"),
	}
}

func marshal(v any) string {
	b, err := json.Marshal(v)
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}

var _ = Describe("converting", func() {
	It("reads role, text, name, tool calls and the call answered", func() {
		turns, err := cupeleino.ToTurns(conversation())
		Expect(err).NotTo(HaveOccurred())
		Expect(turns[1].Content).To(Equal("Where is this, and the weather there?"))
		Expect(turns[1].Name).To(Equal("jane"))
		Expect(turns[2].Content).To(Equal("It is the Eiffel Tower."))
		Expect(turns[2].ToolCalls).To(Equal([]chat.ToolCall{{ID: "call_1", Name: "weather", Arguments: `{"city":"Paris"}`}}))
		Expect(turns[3].Role).To(Equal(chat.RoleTool))
		Expect(turns[3].ToolCallID).To(Equal("call_1"))
		Expect(turns[3].Name).To(Equal("weather"))
	})

	It("gives back the very messages, every field kept", func() {
		msgs := conversation()
		before := marshal(msgs)
		turns, err := cupeleino.ToTurns(msgs)
		Expect(err).NotTo(HaveOccurred())
		back, err := cupeleino.FromTurns(turns)
		Expect(err).NotTo(HaveOccurred())
		for i := range msgs {
			Expect(back[i]).To(BeIdenticalTo(msgs[i]))
		}
		Expect(marshal(msgs)).To(Equal(before), "not modified")
	})

	It("builds messages from turns that did not come from eino", func() {
		msgs, err := cupeleino.FromTurns([]chat.Turn{
			{Role: chat.RoleSystem, Content: "Be brief."},
			{Role: chat.RoleAssistant, Name: "bot", ToolCalls: []chat.ToolCall{{ID: "c1", Name: "weather", Arguments: "{}"}}},
			{Role: chat.RoleTool, Name: "weather", Content: "sunny", ToolCallID: "c1"},
			{Role: chat.RoleUser, Content: "ok", Name: "jane"},
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(msgs).To(Equal([]*schema.Message{
			{Role: schema.System, Content: "Be brief."},
			{Role: schema.Assistant, Name: "bot", ToolCalls: []schema.ToolCall{{ID: "c1", Type: "function", Function: schema.FunctionCall{Name: "weather", Arguments: "{}"}}}},
			{Role: schema.Tool, ToolName: "weather", Content: "sunny", ToolCallID: "c1"},
			{Role: schema.User, Content: "ok", Name: "jane"},
		}))
	})

	It("rejects what it cannot convert, naming the message", func() {
		_, err := cupeleino.ToTurns([]*schema.Message{schema.UserMessage("a"), nil})
		Expect(err).To(MatchError(cupeleino.ErrUnsupported))
		Expect(err.Error()).To(ContainSubstring("message 1: nil"))
		_, err = cupeleino.ToTurns([]*schema.Message{{Content: "a"}})
		Expect(err).To(MatchError(ContainSubstring("message 0: no role")))
		_, err = cupeleino.FromTurns([]chat.Turn{{Content: "x"}})
		Expect(err).To(MatchError(cupeleino.ErrUnsupported))
	})
})

var _ = Describe("Trim and Rewriter", func() {
	It("keeps the system message and the newest messages that open with a user message, tool calls with their results, at every budget", func() {
		msgs := conversation()
		items, err := cupeleino.Items(msgs, quarter, chat.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(items).To(HaveLen(7))
		total, pinned := 0, 0
		for _, it := range items {
			total += it.Tokens()
			if it.Pinned() {
				pinned += it.Tokens()
			}
		}
		for target := total; target >= pinned; target-- {
			budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: target, TargetTokens: target})
			Expect(err).NotTo(HaveOccurred())
			kept, report, err := cupeleino.Trim(msgs, quarter, budget, cupeleino.TrimOptions{})
			Expect(err).NotTo(HaveOccurred())
			Expect(len(report.Included) + len(report.Excluded)).To(Equal(len(items)))
			Expect(kept[0]).To(BeIdenticalTo(msgs[0]))
			Expect(kept[1:]).To(Equal(msgs[len(msgs)-len(kept)+1:]), "budget %d", target)
			if len(kept) > 1 {
				Expect(kept[1].Role).To(Equal(schema.User), "budget %d", target)
			}
			Expect(cupeleino.ValidateOptions{FirstUser: true}.Validate(kept)).To(Succeed(), "budget %d", target)
		}
	})

	It("trims through the hook, reports, and hands back the messages when it cannot", func() {
		budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 20, TargetTokens: 20})
		Expect(err).NotTo(HaveOccurred())
		var reports []*cupel.SelectionReport
		var errs []error
		hook := cupeleino.Rewriter(quarter, budget, cupeleino.RewriterOptions{
			OnReport: func(_ context.Context, r *cupel.SelectionReport) { reports = append(reports, r) },
			OnError:  func(_ context.Context, err error) { errs = append(errs, err) },
		})
		msgs := conversation()
		out := hook(context.Background(), msgs)
		Expect(len(out)).To(BeNumerically("<", len(msgs)))
		Expect(out[0]).To(BeIdenticalTo(msgs[0]))
		Expect(out[len(out)-1]).To(BeIdenticalTo(msgs[len(msgs)-1]))
		Expect(reports).To(HaveLen(1))
		Expect(reports[0].Excluded).NotTo(BeEmpty())
		Expect(errs).To(BeEmpty())

		tiny, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 2, TargetTokens: 2})
		out = cupeleino.Rewriter(quarter, tiny, cupeleino.RewriterOptions{
			OnError: func(_ context.Context, err error) { errs = append(errs, err) },
		})(context.Background(), msgs)
		Expect(out).To(Equal(msgs))
		Expect(errs).To(HaveLen(1))
		Expect(errors.Is(errs[0], cupel.ErrPinnedExceedsBudget)).To(BeTrue())

		out = cupeleino.Rewriter(quarter, tiny, cupeleino.RewriterOptions{})(context.Background(), msgs)
		Expect(out).To(Equal(msgs), "no callbacks set")
	})
})
