package cupelopenai_test

import (
	"encoding/json"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/openai/openai-go/v3"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/chat"
	"github.com/cupel-go/go-cupel/cupelopenai"
	"github.com/cupel-go/go-cupel/cupeltiktoken"
)

// conversationJSON is a request's messages as the API receives them: every
// role, text and image parts, two parallel tool calls and their results, a
// custom tool call, a refusal, and the legacy function_call.
const conversationJSON = `[
 {"role":"system","content":"You are a travel assistant.","name":"policy"},
 {"role":"developer","content":[{"type":"text","text":"Answer in metric units."}]},
 {"role":"user","content":[{"type":"text","text":"What is this place, and the weather there and in Rome?"},{"type":"image_url","image_url":{"url":"https://example.com/p.jpg","detail":"low"}}],"name":"jane"},
 {"role":"assistant","content":"Let me check.","tool_calls":[
   {"id":"call_1","type":"function","function":{"name":"weather","arguments":"{\"city\":\"Paris\"}"}},
   {"id":"call_2","type":"function","function":{"name":"weather","arguments":"{\"city\":\"Rome\"}"}}]},
 {"role":"tool","tool_call_id":"call_1","content":"18 C, sunny"},
 {"role":"tool","tool_call_id":"call_2","content":[{"type":"text","text":"21 C, cloudy"}]},
 {"role":"assistant","content":[{"type":"text","text":"The Eiffel Tower, Paris: 18 C."},{"type":"refusal","refusal":"I cannot identify people."}]},
 {"role":"assistant","tool_calls":[{"id":"call_3","type":"custom","custom":{"name":"sql","input":"SELECT 1"}}]},
 {"role":"tool","tool_call_id":"call_3","content":"1"},
 {"role":"assistant","refusal":"No.","function_call":{"name":"lookup","arguments":"{}"}},
 {"role":"function","name":"lookup","content":"found"},
 {"role":"user","content":"ok"}
]`

func conversation() []openai.ChatCompletionMessageParamUnion {
	var msgs []openai.ChatCompletionMessageParamUnion
	Expect(json.Unmarshal([]byte(conversationJSON), &msgs)).To(Succeed())
	return msgs
}

func marshal(v any) string {
	b, err := json.Marshal(v)
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}

var _ = Describe("converting", func() {
	It("reads role, text, name, tool calls and the call answered from every kind of message", func() {
		turns, err := cupelopenai.ToTurns(conversation())
		Expect(err).NotTo(HaveOccurred())
		type view struct {
			Role          chat.Role
			Content, Name string
			ToolCallID    string
			ToolCalls     []chat.ToolCall
		}
		var got []view
		for _, t := range turns {
			got = append(got, view{t.Role, t.Content, t.Name, t.ToolCallID, t.ToolCalls})
		}
		Expect(got).To(Equal([]view{
			{Role: "system", Content: "You are a travel assistant.", Name: "policy"},
			{Role: "developer", Content: "Answer in metric units."},
			{Role: "user", Content: "What is this place, and the weather there and in Rome?", Name: "jane"},
			{Role: "assistant", Content: "Let me check.", ToolCalls: []chat.ToolCall{{ID: "call_1", Name: "weather", Arguments: `{"city":"Paris"}`}, {ID: "call_2", Name: "weather", Arguments: `{"city":"Rome"}`}}},
			{Role: "tool", Content: "18 C, sunny", ToolCallID: "call_1"},
			{Role: "tool", Content: "21 C, cloudy", ToolCallID: "call_2"},
			{Role: "assistant", Content: "The Eiffel Tower, Paris: 18 C.\nI cannot identify people."},
			{Role: "assistant", ToolCalls: []chat.ToolCall{{ID: "call_3", Name: "sql", Arguments: "SELECT 1"}}},
			{Role: "tool", Content: "1", ToolCallID: "call_3"},
			{Role: "assistant", Content: "No.", ToolCalls: []chat.ToolCall{{ID: "function_call:lookup", Name: "lookup", Arguments: "{}"}}},
			{Role: "function", Content: "found", Name: "lookup", ToolCallID: "function_call:lookup"},
			{Role: "user", Content: "ok"},
		}))
	})

	It("gives back every message as it was, fields it does not read included", func() {
		msgs := conversation()
		msgs[2].OfUser.SetExtraFields(map[string]any{"x_vendor_trace": "abc"})
		turns, err := cupelopenai.ToTurns(msgs)
		Expect(err).NotTo(HaveOccurred())
		back, err := cupelopenai.FromTurns(turns)
		Expect(err).NotTo(HaveOccurred())
		Expect(marshal(back)).To(Equal(marshal(msgs)))
		Expect(marshal(back[2])).To(ContainSubstring(`"x_vendor_trace":"abc"`))
		Expect(marshal(back[2])).To(ContainSubstring(`"detail":"low"`))
	})

	It("builds messages from turns that did not come from the SDK", func() {
		msgs, err := cupelopenai.FromTurns([]chat.Turn{
			{Role: chat.RoleSystem, Content: "Be brief.", Name: "s"},
			{Role: chat.RoleDeveloper, Content: "Metric."},
			{Role: chat.RoleUser, Content: "Weather?", Name: "jane"},
			{Role: chat.RoleAssistant, Name: "bot", ToolCalls: []chat.ToolCall{{ID: "c1", Name: "weather", Arguments: "{}"}}},
			{Role: chat.RoleTool, Content: "sunny", ToolCallID: "c1"},
			{Role: chat.RoleAssistant, Content: "Sunny."},
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(marshal(msgs)).To(MatchJSON(`[
			{"role":"system","content":"Be brief.","name":"s"},
			{"role":"developer","content":"Metric."},
			{"role":"user","content":"Weather?","name":"jane"},
			{"role":"assistant","name":"bot","tool_calls":[{"id":"c1","type":"function","function":{"name":"weather","arguments":"{}"}}]},
			{"role":"tool","content":"sunny","tool_call_id":"c1"},
			{"role":"assistant","content":"Sunny."}]`))
	})

	It("rejects what it cannot convert, naming the message", func() {
		_, err := cupelopenai.ToTurns([]openai.ChatCompletionMessageParamUnion{openai.UserMessage("a"), {}})
		Expect(err).To(MatchError(cupelopenai.ErrUnsupportedMessage))
		Expect(err.Error()).To(ContainSubstring("message 1: no variant set"))
		_, err = cupelopenai.FromTurns([]chat.Turn{{Role: "narrator", Content: "x"}})
		Expect(err).To(MatchError(ContainSubstring(`message 0: role "narrator" has no chat completion message`)))
		_, err = cupelopenai.FromTurns([]chat.Turn{{Role: chat.RoleTool, Content: "x"}})
		Expect(err).To(MatchError(cupelopenai.ErrUnsupportedMessage))
	})
})

var _ = Describe("Trim", func() {
	counter := cupeltiktoken.O200kBase()
	opts := chat.Options{PerTurnTokens: cupelopenai.TokensPerMessage}

	It("counts each message's text, name and tool calls with the tokenizer, plus the per-message tokens", func() {
		items, err := cupelopenai.Items([]openai.ChatCompletionMessageParamUnion{openai.UserMessage("tiktoken is great!")}, counter, opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(items[0].Tokens()).To(Equal(6 + 3)) // OpenAI's cookbook: 6 tokens in o200k_base
	})

	It("keeps the system messages and the newest messages that fit, tool calls with their results, at every budget", func() {
		msgs := conversation()
		items, err := cupelopenai.Items(msgs, counter, opts)
		Expect(err).NotTo(HaveOccurred())
		total := 0
		pinned := 0
		for _, it := range items {
			total += it.Tokens()
			if it.Pinned() {
				pinned += it.Tokens()
			}
		}
		// position of each message of msgs, by its JSON
		position := map[string]int{}
		for i, m := range msgs {
			position[marshal(m)] = i
		}
		for target := total; target >= pinned; target-- {
			// The window holds the messages' target and the reply's primer.
			window := target + cupelopenai.TokensReplyPrimer
			budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: window, TargetTokens: window})
			Expect(err).NotTo(HaveOccurred())
			kept, report, err := cupelopenai.Trim(msgs, counter, budget, cupelopenai.TrimOptions{HistoryOptions: chat.HistoryOptions{Options: opts}})
			Expect(err).NotTo(HaveOccurred())
			Expect(len(report.Included) + len(report.Excluded)).To(Equal(len(items)))
			Expect(kept[0].OfSystem).NotTo(BeNil())
			Expect(kept[1].OfDeveloper).NotTo(BeNil())
			// The kept messages are messages of msgs, in their order, and no
			// tool or function message lacks the assistant message calling it.
			last := -1
			calls := map[string]bool{}
			for _, m := range kept {
				p, ok := position[marshal(m)]
				Expect(ok).To(BeTrue())
				Expect(p).To(BeNumerically(">", last), "budget %d", target)
				last = p
				for _, c := range m.GetToolCalls() {
					calls[*c.GetID()] = true
				}
				if m.OfTool != nil {
					Expect(calls).To(HaveKey(m.OfTool.ToolCallID), "budget %d", target)
				}
				if m.OfFunction != nil {
					Expect(p).To(Equal(10))
					Expect(marshal(kept)).To(ContainSubstring(`"function_call":{"arguments":"{}","name":"lookup"}`))
				}
			}
			// After the system prompts, the newest messages, without a gap.
			Expect(marshal(kept[2:])).To(Equal(marshal(msgs[len(msgs)-len(kept)+2:])), "budget %d", target)
			// The newest message is kept whenever it fits.
			if target >= pinned+items[len(items)-1].Tokens() {
				Expect(marshal(kept[len(kept)-1])).To(Equal(marshal(msgs[len(msgs)-1])))
			}
		}
	})

	It("converts selected items back in placed order", func() {
		items, err := cupelopenai.Items(conversation(), counter, opts)
		Expect(err).NotTo(HaveOccurred())
		reversed := []*cupel.ContextItem{items[len(items)-1], items[0]}
		msgs, err := cupelopenai.Messages(reversed)
		Expect(err).NotTo(HaveOccurred())
		Expect(msgs[0].OfUser).NotTo(BeNil())
		Expect(msgs[1].OfSystem).NotTo(BeNil())
		_, err = cupelopenai.Messages([]*cupel.ContextItem{cupel.MustItem(cupel.ItemSpec{Content: "x"})})
		Expect(err).To(MatchError(chat.ErrNotChatItem))
	})
})

var _ = Describe("Trim's omitted note and estimate", func() {
	It("puts the note after the opening system and developer messages, and returns the input it estimates in parts", func() {
		msgs := conversation()
		counter := cupeltiktoken.O200kBase()
		items, err := cupelopenai.Items(msgs, counter, chat.Options{PerTurnTokens: cupelopenai.TokensPerMessage + 1, PerNameTokens: cupelopenai.TokensPerName})
		Expect(err).NotTo(HaveOccurred())
		pinned := 0
		for _, it := range items {
			if it.Pinned() {
				pinned += it.Tokens()
			}
		}
		window := pinned + 60 + cupelopenai.TokensReplyPrimer
		budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: window, TargetTokens: window})
		Expect(err).NotTo(HaveOccurred())
		kept, report, err := cupelopenai.Trim(msgs, counter, budget, cupelopenai.TrimOptions{HistoryOptions: chat.HistoryOptions{OmittedNote: true}})
		Expect(err).NotTo(HaveOccurred())
		Expect(marshal(kept[:2])).To(Equal(marshal(msgs[:2])), "the system and developer messages first")
		note, err := cupelopenai.ToTurn(kept[2])
		Expect(err).NotTo(HaveOccurred())
		Expect(note.Role).To(Equal(chat.RoleSystem))
		Expect(note.Content).To(Equal(fmt.Sprintf("[%d earlier messages omitted]", len(msgs)-(len(kept)-1))))
		Expect(kept[3].OfSystem).To(BeNil())
		Expect(kept[3].OfDeveloper).To(BeNil())

		Expect(report.FixedTokens).To(Equal(cupelopenai.TokensReplyPrimer), "no tools: the reply primer")
		Expect(report.NoteTokens).To(BeNumerically(">", 0))
		turns := 0
		for _, in := range report.Included {
			turns += in.Item.Tokens()
		}
		Expect(report.TurnTokens).To(Equal(turns))
		Expect(report.Estimated()).To(Equal(turns + report.NoteTokens + report.FixedTokens))
		Expect(report.Estimated()).To(BeNumerically("<=", window), "all of it inside the window")
	})
})
