package cupelanthropic_test

import (
	"encoding/json"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/chat"
	"github.com/cupel-go/go-cupel/cupelanthropic"
)

// request is a Messages request's system prompt and messages as the API
// receives them: a cached system block, an image, thinking, two parallel
// tool_use blocks and their tool_results (one an error) with text beside
// them, and repeated short turns.
const request = `{
 "system": [
  {"type":"text","text":"You are a travel assistant."},
  {"type":"text","text":"Company policy: metric units, no bookings.","cache_control":{"type":"ephemeral"}}
 ],
 "messages": [
  {"role":"user","content":[{"type":"text","text":"Where is this, and what is the weather there and in Rome?"},{"type":"image","source":{"type":"url","url":"https://example.com/p.jpg"}}]},
  {"role":"assistant","content":[
    {"type":"thinking","thinking":"The photo shows the Eiffel Tower.","signature":"sig-1"},
    {"type":"text","text":"That is Paris. Checking the weather."},
    {"type":"tool_use","id":"toolu_1","name":"weather","input":{"city":"Paris"}},
    {"type":"tool_use","id":"toolu_2","name":"weather","input":{"city":"Rome"}}]},
  {"role":"user","content":[
    {"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"18 C, sunny"}]},
    {"type":"tool_result","tool_use_id":"toolu_2","content":"service down","is_error":true},
    {"type":"text","text":"Thanks!"}]},
  {"role":"assistant","content":[{"type":"text","text":"Paris is 18 C and sunny; Rome's service is down."}]},
  {"role":"user","content":[{"type":"text","text":"ok"}]},
  {"role":"assistant","content":[{"type":"text","text":"ok"}]},
  {"role":"user","content":[{"type":"text","text":"And tomorrow in Paris?"}]}
 ]
}`

func parse() ([]anthropic.TextBlockParam, []anthropic.MessageParam) {
	var req struct {
		System   []anthropic.TextBlockParam `json:"system"`
		Messages []anthropic.MessageParam   `json:"messages"`
	}
	Expect(json.Unmarshal([]byte(request), &req)).To(Succeed())
	return req.System, req.Messages
}

func marshal(v any) string {
	b, err := json.Marshal(v)
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}

// quarter estimates a token per four bytes, a stand-in for a tokenizer.
var quarter = cupel.TokenCounterFunc(func(s string) (int, error) { return (len(s) + 3) / 4, nil })

var _ = Describe("converting", func() {
	It("reads the system blocks and every message's role, text, tool_use and tool_result", func() {
		turns, err := cupelanthropic.ToTurns(parse())
		Expect(err).NotTo(HaveOccurred())
		type view struct {
			Role       chat.Role
			Content    string
			ToolCallID string
			ToolCalls  []chat.ToolCall
		}
		var got []view
		for _, t := range turns {
			got = append(got, view{t.Role, t.Content, t.ToolCallID, t.ToolCalls})
		}
		Expect(got).To(Equal([]view{
			{Role: "system", Content: "You are a travel assistant."},
			{Role: "system", Content: "Company policy: metric units, no bookings."},
			{Role: "user", Content: "Where is this, and what is the weather there and in Rome?"},
			{Role: "assistant", Content: "The photo shows the Eiffel Tower.\nThat is Paris. Checking the weather.", ToolCalls: []chat.ToolCall{
				{ID: "toolu_1", Name: "weather", Arguments: `{"city":"Paris"}`},
				{ID: "toolu_2", Name: "weather", Arguments: `{"city":"Rome"}`}}},
			{Role: "user", Content: "18 C, sunny\nservice down\nThanks!", ToolCallID: "toolu_1"},
			{Role: "assistant", Content: "Paris is 18 C and sunny; Rome's service is down."},
			{Role: "user", Content: "ok"},
			{Role: "assistant", Content: "ok"},
			{Role: "user", Content: "And tomorrow in Paris?"},
		}))
	})

	It("gives back the system blocks and messages as they were, fields it does not read included", func() {
		system, msgs := parse()
		msgs[0].SetExtraFields(map[string]any{"x_trace": "abc"})
		turns, err := cupelanthropic.ToTurns(system, msgs)
		Expect(err).NotTo(HaveOccurred())
		s, m, err := cupelanthropic.FromTurns(turns)
		Expect(err).NotTo(HaveOccurred())
		Expect(marshal(s)).To(Equal(marshal(system)))
		Expect(marshal(m)).To(Equal(marshal(msgs)))
		Expect(marshal(s)).To(ContainSubstring(`"cache_control":{"type":"ephemeral"}`))
		Expect(marshal(m)).To(ContainSubstring(`"signature":"sig-1"`))
		Expect(marshal(m)).To(ContainSubstring(`"is_error":true`))
		Expect(marshal(m)).To(ContainSubstring(`"x_trace":"abc"`))
	})

	It("builds blocks and messages from turns that did not come from the SDK", func() {
		s, m, err := cupelanthropic.FromTurns([]chat.Turn{
			{Role: chat.RoleSystem, Content: "Be brief."},
			{Role: chat.RoleUser, Content: "Weather?"},
			{Role: chat.RoleAssistant, Content: "Checking.", ToolCalls: []chat.ToolCall{{ID: "t1", Name: "weather", Arguments: `{"city":"Paris"}`}, {ID: "t2", Name: "now"}}},
			{Role: chat.RoleTool, Content: "sunny", ToolCallID: "t1"},
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(marshal(s)).To(MatchJSON(`[{"type":"text","text":"Be brief."}]`))
		Expect(marshal(m)).To(MatchJSON(`[
			{"role":"user","content":[{"type":"text","text":"Weather?"}]},
			{"role":"assistant","content":[{"type":"text","text":"Checking."},
				{"type":"tool_use","id":"t1","name":"weather","input":{"city":"Paris"}},
				{"type":"tool_use","id":"t2","name":"now","input":{}}]},
			{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"sunny"}],"is_error":false}]}]`))
	})

	It("rejects what it cannot convert, naming where", func() {
		_, err := cupelanthropic.ToTurns(nil, []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("a")), {}})
		Expect(err).To(MatchError(cupelanthropic.ErrUnsupported))
		Expect(err.Error()).To(ContainSubstring("messages[1]: no role"))
		_, _, err = cupelanthropic.FromTurns([]chat.Turn{{Role: "narrator"}})
		Expect(err).To(MatchError(ContainSubstring(`turns[0]: role "narrator" has no Anthropic message`)))
		_, _, err = cupelanthropic.FromTurns([]chat.Turn{{Role: chat.RoleTool}})
		Expect(err).To(MatchError(cupelanthropic.ErrUnsupported))
		_, _, err = cupelanthropic.FromTurns([]chat.Turn{{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "x", Arguments: "not json"}}}})
		Expect(err).To(MatchError(ContainSubstring("turns[0].ToolCalls[0]: arguments are not JSON")))
		// A tool_result whose tool_use is not in the message before it.
		_, err = cupelanthropic.Items(nil, []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewToolResultBlock("toolu_9", "x", false))}, quarter, chat.Options{})
		Expect(err).To(MatchError(chat.ErrInvalidTurn))
	})
})

var _ = Describe("Trim", func() {
	It("keeps the whole system prompt and the newest messages that open with a user message, tool_use with tool_result, at every budget", func() {
		system, msgs := parse()
		items, err := cupelanthropic.Items(system, msgs, quarter, chat.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(items).To(HaveLen(8), "2 system blocks, the tool exchange as one item, 5 other messages")
		total, pinned := 0, 0
		for _, it := range items {
			total += it.Tokens()
			if it.Pinned() {
				pinned += it.Tokens()
			}
		}
		sawExchange, sawNone := false, false
		for target := total; target >= pinned; target-- {
			budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: target, TargetTokens: target})
			Expect(err).NotTo(HaveOccurred())
			s, m, report, err := cupelanthropic.Trim(system, msgs, quarter, budget, cupelanthropic.TrimOptions{Exact: true})
			if err != nil {
				// Not even the newest user message fits: no request the API accepts.
				Expect(err).To(MatchError(chat.ErrRefused))
				Expect(err.Error()).To(ContainSubstring("no user message fits the budget"))
				Expect(target).To(BeNumerically("<", pinned+items[len(items)-1].Tokens()))
				sawNone = true
				continue
			}
			Expect(cupelanthropic.Validate(m)).To(Succeed(), "budget %d", target)
			Expect(m[0].Role).To(Equal(anthropic.MessageParamRoleUser))
			Expect(marshal(s)).To(Equal(marshal(system)))
			Expect(len(report.Included) + len(report.Excluded)).To(Equal(len(items)))
			Expect(marshal(m)).To(Equal(marshal(msgs[len(msgs)-len(m):])), "the newest messages, budget %d", target)
			if len(m) > 0 {
				Expect(marshal(m[0])).NotTo(ContainSubstring(`"tool_result"`), "budget %d", target)
			}
			if len(m) >= 4 {
				sawExchange = true
			}
		}
		Expect(sawExchange && sawNone).To(BeTrue())
	})

	It("converts selected items back in placed order, system blocks to the system list", func() {
		system, msgs := parse()
		items, err := cupelanthropic.Items(system, msgs, quarter, chat.Options{})
		Expect(err).NotTo(HaveOccurred())
		s, m, err := cupelanthropic.Messages([]*cupel.ContextItem{items[7], items[1], items[3]})
		Expect(err).NotTo(HaveOccurred())
		Expect(marshal(s)).To(Equal(marshal(system[1:])))
		Expect(marshal(m)).To(Equal(marshal([]anthropic.MessageParam{msgs[6], msgs[1], msgs[2]})), "the exchange gives both its messages")
		_, _, err = cupelanthropic.Messages([]*cupel.ContextItem{cupel.MustItem(cupel.ItemSpec{Content: "x"})})
		Expect(err).To(MatchError(chat.ErrNotChatItem))
	})

	It("puts the omitted note last in the system prompt, and returns the input it estimates in parts", func() {
		system, msgs := parse()
		tool := anthropic.ToolUnionParam{OfTool: &anthropic.ToolParam{Name: "weather", InputSchema: anthropic.ToolInputSchemaParam{Properties: map[string]any{"city": map[string]any{"type": "string"}}}}}
		toolJSON, err := json.Marshal(tool)
		Expect(err).NotTo(HaveOccurred())
		toolTokens, _ := quarter.Count(string(toolJSON))
		budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 420, TargetTokens: 420})
		Expect(err).NotTo(HaveOccurred())
		opts := cupelanthropic.TrimOptions{HistoryOptions: chat.HistoryOptions{OmittedNote: true}, Tools: []anthropic.ToolUnionParam{tool}, Exact: true}
		s, m, report, err := cupelanthropic.Trim(system, msgs, quarter, budget, opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(len(m)).To(BeNumerically("<", len(msgs)), "some messages dropped")
		Expect(s).To(HaveLen(len(system) + 1))
		Expect(marshal(s[:len(system)])).To(Equal(marshal(system)), "the request's own blocks first, unchanged")
		Expect(s[len(system)].Text).To(Equal(fmt.Sprintf("[%d earlier messages omitted]", len(msgs)-len(m))))

		Expect(report.FixedTokens).To(Equal(cupelanthropic.ToolUseSystemTokens+toolTokens), "the tools")
		Expect(report.NoteTokens).To(BeNumerically(">", 0))
		turns := 0
		for _, in := range report.Included {
			turns += in.Item.Tokens()
		}
		Expect(report.TurnTokens).To(Equal(turns), "the kept system blocks and messages")
		Expect(report.Estimated()).To(Equal(turns + report.NoteTokens + report.FixedTokens))
		Expect(report.Estimated()).To(BeNumerically("<=", 420), "all of it inside the window")
	})
})
