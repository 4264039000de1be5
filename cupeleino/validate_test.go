package cupeleino_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/cloudwego/eino/schema"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/chat"
	"github.com/cupel-go/go-cupel/cupeleino"
	"github.com/cupel-go/go-cupel/matchers"
)

type msgs = []*schema.Message

func calling(ids ...string) *schema.Message {
	var calls []schema.ToolCall
	for _, id := range ids {
		calls = append(calls, schema.ToolCall{ID: id, Type: "function", Function: schema.FunctionCall{Name: "lookup", Arguments: `{"q":"` + id + `"}`}})
	}
	return schema.AssistantMessage("", calls)
}

var _ = Describe("Validate", func() {
	It("accepts a well-paired conversation", func() {
		Expect(cupeleino.Validate(msgs{schema.SystemMessage("s"), schema.UserMessage("u"), calling("a", "b"), schema.ToolMessage("r", "b"), schema.ToolMessage("r", "a"), schema.AssistantMessage("ok", nil)})).To(Succeed())
	})

	DescribeTable("rejects each rule's violation, naming the message",
		func(m msgs, opts cupeleino.ValidateOptions, index int, rule chat.Rule) {
			err := opts.Validate(m)
			Expect(err).To(MatchError(chat.ErrRefused))
			var ce *chat.ConversationError
			Expect(errors.As(err, &ce)).To(BeTrue())
			Expect(ce.Index).To(Equal(index))
			Expect(ce.Rule).To(Equal(rule))
		},
		Entry("starts with a tool message", msgs{schema.SystemMessage("s"), schema.ToolMessage("r", "a")}, cupeleino.ValidateOptions{}, 1, chat.RuleStartsWithResult),
		Entry("a tool message without its call", msgs{schema.UserMessage("u"), schema.AssistantMessage("x", nil), schema.ToolMessage("r", "a")}, cupeleino.ValidateOptions{}, 2, chat.RuleOrphanResult),
		Entry("a call unanswered", msgs{schema.UserMessage("u"), calling("a", "b"), schema.ToolMessage("r", "a"), schema.UserMessage("u")}, cupeleino.ValidateOptions{}, 1, chat.RuleUnansweredCall),
		Entry("an assistant message first, when asked", msgs{schema.SystemMessage("s"), schema.AssistantMessage("hi", nil)}, cupeleino.ValidateOptions{FirstUser: true}, 1, chat.RuleFirstUser),
		Entry("roles not alternating, when asked", msgs{schema.UserMessage("u"), schema.UserMessage("u")}, cupeleino.ValidateOptions{Alternate: true}, 1, chat.RuleAlternate),
	)
})

var _ = Describe("Trim, on random conversations", func() {
	It("always returns a conversation Validate accepts, opening with a user message, and keeps the newest user message whenever it fits, at every budget, with either eviction", func() {
		counter := cupel.TokenCounterFunc(func(s string) (int, error) { return len(strings.Fields(s)), nil })
		r := rand.New(rand.NewPCG(26, 5))
		words := func(n int) string { return strings.Repeat("word ", 1+r.IntN(n)) }
		for range 15 {
			m := msgs{schema.SystemMessage("You are helpful.")}
			call := 0
			for range 3 + r.IntN(12) {
				m = append(m, schema.UserMessage(words(40)))
				for range r.IntN(3) {
					var ids []string
					for range 1 + r.IntN(3) {
						call++
						ids = append(ids, fmt.Sprint("call_", call))
					}
					m = append(m, calling(ids...))
					for _, id := range ids {
						m = append(m, schema.ToolMessage(words(60), id))
					}
				}
				if r.IntN(4) > 0 {
					m = append(m, schema.AssistantMessage(words(50), nil))
				}
			}
			Expect(cupeleino.Validate(m)).To(Succeed())
			items, err := cupeleino.Items(m, counter, chat.Options{})
			Expect(err).NotTo(HaveOccurred())
			total, fromUser := 0, 0
			for _, it := range items {
				total += it.Tokens()
				if role, _ := it.MetadataValue(chat.RoleKey); role == "user" {
					fromUser = 0
				}
				fromUser += it.Tokens()
			}
			userMsg := len(m) - 1
			for m[userMsg].Role != schema.User {
				userMsg--
			}
			pinned := items[0].Tokens()
			for _, ev := range []chat.Eviction{chat.EvictWindow, chat.EvictCache} {
				for window := pinned; window <= total+10; window += 1 + r.IntN(25) {
					b, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: window, TargetTokens: window})
					kept, _, err := cupeleino.Trim(m, counter, b, cupeleino.TrimOptions{HistoryOptions: chat.HistoryOptions{Eviction: ev}})
					Expect(err).NotTo(HaveOccurred())
					Expect(kept).To(matchers.BeAcceptedBy(cupeleino.ValidateOptions{FirstUser: true}.Validate), "%v, window %d", ev, window)
					if pinned+fromUser <= window {
						Expect(len(kept)).To(BeNumerically(">=", len(m)-userMsg+1), "%v, window %d", ev, window)
					}
				}
			}
		}
	})
})

var _ = Describe("Trim's budget", func() {
	It("takes the tool tokens and the reply reserve out of the window", func() {
		m := msgs{schema.UserMessage(strings.Repeat("word ", 100))}
		words := cupel.TokenCounterFunc(func(s string) (int, error) { return len(strings.Fields(s)), nil })
		kept := func(window int) int {
			b, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: window, TargetTokens: window})
			out, _, err := cupeleino.Trim(m, words, b, cupeleino.TrimOptions{ToolTokens: 300, ReplyReserve: 200})
			Expect(err).NotTo(HaveOccurred())
			return len(out)
		}
		Expect(kept(600)).To(Equal(1))
		Expect(kept(599)).To(Equal(0))
	})
})
