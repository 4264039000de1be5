package chat_test

import (
	"errors"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/chat"
	"github.com/cupel-go/go-cupel/cupel/policy"
)

// conversation: a system prompt, a repeated "ok", and a tool exchange of two
// calls and their two results.
func conversation() []chat.Turn {
	return []chat.Turn{
		{Role: chat.RoleSystem, Content: "You are a weather bot."},                       // 0: 5 words
		{Role: chat.RoleUser, Content: "ok"},                                             // 1: 1
		{Role: chat.RoleAssistant, Content: "ok"},                                        // 2: 1
		{Role: chat.RoleUser, Content: "weather in Paris and Rome please", Name: "jane"}, // 3: 6+1
		{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "c1", Name: "weather", Arguments: `{"city": "Paris"}`}, {ID: "c2", Name: "weather", Arguments: `{"city": "Rome"}`}}, Raw: "raw-assistant"}, // 4: 1+2+1+2
		{Role: chat.RoleTool, Name: "weather", ToolCallID: "c1", Content: "18 C sunny"},                                                                                                                       // 5: 3+1
		{Role: chat.RoleTool, Name: "weather", ToolCallID: "c2", Content: "21 C cloudy"},                                                                                                                      // 6: 3+1
		{Role: chat.RoleAssistant, Content: "Paris 18 C, Rome 21 C."},                                                                                                                                         // 7: 6
		{Role: chat.RoleUser, Content: "ok"}, // 8: 1
	}
}

// paired reports the first tool result in turns whose call is not among the
// turns before it, or "" when every result follows its call.
func unpairedResult(turns []chat.Turn) string {
	calls := map[string]bool{}
	for _, t := range turns {
		for _, c := range t.ToolCalls {
			calls[c.ID] = true
		}
		if t.ToolCallID != "" && !calls[t.ToolCallID] {
			return t.ToolCallID
		}
	}
	return ""
}

var _ = Describe("Items", func() {
	It("builds one item per turn and one per tool exchange, with role, index, turns, increasing timestamps and counted tokens", func() {
		items, err := chat.Items(conversation(), &wordCounter{}, chat.Options{PerTurnTokens: 3})
		Expect(err).NotTo(HaveOccurred())
		Expect(items).To(HaveLen(7))

		var roles []string
		var indexes []int
		for _, it := range items {
			r, _ := it.MetadataValue(chat.RoleKey)
			i, _ := it.MetadataValue(chat.IndexKey)
			roles = append(roles, r.(string))
			indexes = append(indexes, i.(int))
		}
		Expect(roles).To(Equal([]string{"system", "user", "assistant", "user", "assistant", "assistant", "user"}))
		Expect(indexes).To(Equal([]int{0, 1, 2, 3, 4, 7, 8}))
		for k := 1; k < len(items); k++ {
			prev, _ := items[k-1].Timestamp()
			cur, ok := items[k].Timestamp()
			Expect(ok).To(BeTrue())
			Expect(cur.After(prev)).To(BeTrue())
		}
		ts, _ := items[4].Timestamp()
		Expect(ts).To(Equal(chat.DefaultStart.Add(4e9)))

		sys := items[0]
		Expect(sys.Pinned()).To(BeTrue())
		Expect(sys.Kind()).To(Equal(cupel.KindSystemPrompt))
		Expect(sys.Tokens()).To(Equal(5 + 3))

		Expect(items[3].Content()).To(Equal("[3] user (jane): weather in Paris and Rome please"))
		Expect(items[3].Tokens()).To(Equal(6 + 1 + 3))

		ex := items[4]
		Expect(ex.Kind()).To(Equal(cupel.KindToolOutput))
		Expect(ex.Source()).To(Equal(cupel.SourceTool))
		Expect(ex.Pinned()).To(BeFalse())
		Expect(ex.Tokens()).To(Equal((1 + 2 + 1 + 2 + 3) + (3 + 1 + 3) + (3 + 1 + 3)))
		Expect(ex.Content()).To(Equal("[4] assistant calls weather({\"city\": \"Paris\"}) id=c1\n" +
			"[4] assistant calls weather({\"city\": \"Rome\"}) id=c2\n" +
			"[5] tool (weather): 18 C sunny\n" +
			"[6] tool (weather): 21 C cloudy"))
		v, _ := ex.MetadataValue(chat.TurnsKey)
		Expect(v.([]chat.Turn)).To(HaveLen(3))
		Expect(items[1].Kind()).To(Equal(cupel.KindMessage))
	})

	It("converts back to the same turns, Raw values included", func() {
		in := conversation()
		items, err := chat.Items(in, &wordCounter{}, chat.Options{})
		Expect(err).NotTo(HaveOccurred())
		out, err := chat.Turns(items)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(in))
		Expect(out[4].Raw).To(Equal("raw-assistant"))
	})

	It("does not depend on the caller's turns after the call, nor change them", func() {
		in := conversation()
		items, err := chat.Items(in, &wordCounter{}, chat.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(in).To(Equal(conversation()))
		in[4].ToolCalls[0].Name = "changed"
		in[1].Content = "changed"
		out, _ := chat.Turns(items)
		Expect(out).To(Equal(conversation()))
		out[4].ToolCalls[0].ID = "changed too"
		again, _ := chat.Turns(items)
		Expect(again).To(Equal(conversation()))
	})

	It("keeps identical short turns through a deduplicating pipeline, unless asked to deduplicate", func() {
		items, err := chat.Items(conversation(), &wordCounter{}, chat.Options{})
		Expect(err).NotTo(HaveOccurred())
		chatSpec, err := policy.Preset("chat")
		Expect(err).NotTo(HaveOccurred())
		chatPreset, err := chatSpec.Build()
		Expect(err).NotTo(HaveOccurred())
		Expect(chatPreset.DisableDeduplication).To(BeFalse())
		for _, pol := range []cupel.Policy{chat.Policy(), chatPreset} {
			p, err := cupel.NewPipeline(pol)
			Expect(err).NotTo(HaveOccurred())
			var rep cupel.SelectionReport
			res, err := p.Run(items, budget(1000), cupel.WithReport(&rep))
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Items).To(HaveLen(7))
			Expect(rep.Excluded).To(BeEmpty())
		}

		dedup, err := chat.Items(conversation(), &wordCounter{}, chat.Options{Deduplicate: true})
		Expect(err).NotTo(HaveOccurred())
		Expect(dedup[1].Content()).To(Equal("user: ok"))
		p, _ := cupel.NewPipeline(chat.Policy())
		var rep cupel.SelectionReport
		res, err := p.Run(dedup, budget(1000), cupel.WithReport(&rep))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Items).To(HaveLen(6))
		Expect(rep.Excluded).To(HaveLen(1))
		Expect(rep.Excluded[0].Item).To(BeIdenticalTo(dedup[1]), "the older user ok, scored lower by recency")
		Expect(rep.Excluded[0].Reason.Variant).To(Equal(cupel.ExclusionDeduplicated))
	})

	It("never selects a tool result without its call, at any budget", func() {
		h, err := chat.NewHistory(&wordCounter{}, chat.HistoryOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(h.Append(conversation()...)).To(Succeed())
		sawWithout, sawWith := false, false
		for target := h.Tokens(); target >= 5; target-- {
			sel, err := h.Select(budget(target))
			Expect(err).NotTo(HaveOccurred())
			Expect(unpairedResult(sel.Turns)).To(BeEmpty(), fmt.Sprint("budget ", target))
			calls, results := 0, 0
			for _, t := range sel.Turns {
				calls += len(t.ToolCalls)
				if t.ToolCallID != "" {
					results++
				}
			}
			Expect(results).To(Equal(calls), "the exchange is whole or absent")
			if calls == 0 {
				sawWithout = true
			} else {
				sawWith = true
			}
			Expect(sel.Turns[0].Role).To(Equal(chat.RoleSystem), "pinned")
		}
		Expect(sawWith && sawWithout).To(BeTrue(), "the budgets cover both cases")
	})

	DescribeTable("rejects a turn it cannot convert, naming it",
		func(turns []chat.Turn, index int, field, reason string) {
			_, err := chat.Items(turns, &wordCounter{}, chat.Options{})
			Expect(err).To(MatchError(chat.ErrInvalidTurn))
			var te *chat.TurnError
			Expect(errors.As(err, &te)).To(BeTrue())
			Expect(te.Index).To(Equal(index))
			Expect(te.Field).To(Equal(field))
			Expect(te.Error()).To(ContainSubstring(reason))
		},
		Entry("blank role", []chat.Turn{{Role: "user", Content: "a"}, {Role: " ", Content: "b"}}, 1, "Role", "must not be blank"),
		Entry("tool call without id", []chat.Turn{{Role: "assistant", ToolCalls: []chat.ToolCall{{ID: "x"}, {Name: "f"}}}}, 0, "ToolCalls[1].ID", "must not be empty"),
		Entry("result with no call", []chat.Turn{{Role: "user", Content: "a"}, {Role: "tool", ToolCallID: "c9", Content: "r"}}, 1, "ToolCallID", `answers no tool call of the assistant turn before it ("c9")`),
		Entry("result after another turn", []chat.Turn{{Role: "assistant", ToolCalls: []chat.ToolCall{{ID: "c1"}}}, {Role: "user", Content: "a"}, {Role: "tool", ToolCallID: "c1"}}, 2, "ToolCallID", "a tool result must follow its call"),
		Entry("result of another call", []chat.Turn{{Role: "assistant", ToolCalls: []chat.ToolCall{{ID: "c1"}}}, {Role: "tool", ToolCallID: "c2"}}, 1, "ToolCallID", "answers no tool call"),
		Entry("first turn a result", []chat.Turn{{Role: "tool", ToolCallID: "c1"}}, 0, "ToolCallID", "answers no tool call"),
		Entry("tool turn without a call id", []chat.Turn{{Role: "assistant", ToolCalls: []chat.ToolCall{{ID: "c1"}}}, {Role: "tool", ToolCallID: "c1"}, {Role: "tool", Content: "r"}}, 2, "ToolCallID", "must not be empty on a tool turn"),
	)

	It("reports a failed count and a nil counter", func() {
		boom := errors.New("boom")
		_, err := chat.Items(conversation(), cupel.TokenCounterFunc(func(s string) (int, error) {
			if s == "ok" {
				return 0, boom
			}
			return 1, nil
		}), chat.Options{})
		Expect(err).To(MatchError(cupel.ErrTokenCount))
		Expect(err).To(MatchError(boom))
		var tce *cupel.TokenCountError
		Expect(errors.As(err, &tce)).To(BeTrue())
		Expect(tce.Index).To(Equal(1))
		_, err = chat.Items(conversation(), nil, chat.Options{})
		Expect(err).To(MatchError(cupel.ErrInvalidArgument))
		_, err = chat.Items(conversation(), &wordCounter{}, chat.Options{PerTurnTokens: -1})
		Expect(err).To(MatchError(cupel.ErrInvalidArgument))
	})

	It("gives back only chat items", func() {
		_, err := chat.Turns([]*cupel.ContextItem{cupel.MustItem(cupel.ItemSpec{Content: "not chat"})})
		Expect(err).To(MatchError(chat.ErrNotChatItem))
		Expect(err.Error()).To(ContainSubstring(`items[0] ("not chat")`))
		_, err = chat.Turns([]*cupel.ContextItem{nil})
		Expect(err).To(MatchError(chat.ErrNotChatItem))
	})
})
