package cupelanthropic_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/chat"
	"github.com/cupel-go/go-cupel/cupelanthropic"
	"github.com/cupel-go/go-cupel/cupeltest"
)

type msgs = []anthropic.MessageParam

var (
	text = func(s string) anthropic.ContentBlockParamUnion { return anthropic.NewTextBlock(s) }
	use  = func(id string) anthropic.ContentBlockParamUnion {
		return anthropic.NewToolUseBlock(id, map[string]string{"q": id}, "lookup")
	}
	result = func(id string) anthropic.ContentBlockParamUnion {
		return anthropic.NewToolResultBlock(id, "found "+id, false)
	}
	thinking = func(sig string) anthropic.ContentBlockParamUnion {
		return anthropic.NewThinkingBlock(sig, "let me look it up")
	}
	user = anthropic.NewUserMessage
	asst = anthropic.NewAssistantMessage
)

var _ = Describe("Validate", func() {
	It("accepts a conversation the API accepts", func() {
		Expect(cupelanthropic.Validate(msgs{user(text("hi")), asst(thinking("s1"), use("a"), use("b")), user(result("a"), result("b"), text("thanks")), asst(text("ok"))})).To(Succeed())
		Expect(cupelanthropic.Validate(msgs{user(text("hi")), user(text("again")), asst(text("ok"))})).To(Succeed(), "merged by the current API")
		// Thinking is only required in the current tool loop.
		Expect(cupelanthropic.Validate(msgs{user(text("hi")), asst(use("a")), user(result("a")), asst(text("x")), user(text("next")), asst(thinking("s"), use("b")), user(result("b"))})).To(Succeed())
	})

	DescribeTable("rejects each rule's violation, naming the message",
		func(m msgs, opts cupelanthropic.ValidateOptions, index int, rule chat.Rule) {
			err := opts.Validate(m)
			Expect(err).To(MatchError(chat.ErrRefused))
			var ce *chat.ConversationError
			Expect(errors.As(err, &ce)).To(BeTrue())
			Expect(ce.Index).To(Equal(index))
			Expect(ce.Rule).To(Equal(rule))
		},
		Entry("no messages", msgs{}, cupelanthropic.ValidateOptions{}, 0, chat.RuleNoMessages),
		Entry("starts with an assistant message", msgs{asst(text("hello")), user(text("hi"))}, cupelanthropic.ValidateOptions{}, 0, chat.RuleFirstUser),
		Entry("starts with tool results", msgs{user(result("a")), asst(text("x"))}, cupelanthropic.ValidateOptions{}, 0, chat.RuleStartsWithResult),
		Entry("a result without its call", msgs{user(text("hi")), asst(text("x")), user(result("a"))}, cupelanthropic.ValidateOptions{}, 2, chat.RuleOrphanResult),
		Entry("a call unanswered", msgs{user(text("hi")), asst(use("a"), use("b")), user(result("a"))}, cupelanthropic.ValidateOptions{}, 1, chat.RuleUnansweredCall),
		Entry("a call answered too late", msgs{user(text("hi")), asst(use("a")), user(text("?")), user(result("a"))}, cupelanthropic.ValidateOptions{}, 1, chat.RuleUnansweredCall),
		Entry("tool results after text", msgs{user(text("hi")), asst(use("a")), user(text("here"), result("a"))}, cupelanthropic.ValidateOptions{}, 2, chat.RuleResultsFirst),
		Entry("an unsigned thinking block", msgs{user(text("hi")), asst(thinking(""), text("x"))}, cupelanthropic.ValidateOptions{}, 1, chat.RuleThinking),
		Entry("the tool loop's call without its thinking", msgs{user(text("hi")), asst(thinking("s"), use("a")), user(result("a")), asst(use("b")), user(result("b"))}, cupelanthropic.ValidateOptions{}, 3, chat.RuleThinking),
		Entry("an empty text block", msgs{user(text("hi")), asst(text(" "))}, cupelanthropic.ValidateOptions{}, 1, chat.RuleEmptyText),
		Entry("roles not alternating, when asked", msgs{user(text("hi")), user(text("again"))}, cupelanthropic.ValidateOptions{Alternate: true}, 1, chat.RuleAlternate),
	)
})

// randomConversation builds a valid conversation from the SDK's types:
// user turns of varied length, tool loops of one to three parallel calls
// with thinking, and answers.
func randomConversation(r *rand.Rand) msgs {
	words := func(n int) string { return strings.TrimSpace(strings.Repeat("word ", 1+r.IntN(n))) }
	var m msgs
	call := 0
	for range 3 + r.IntN(12) {
		m = append(m, user(text(words(40))))
		for range r.IntN(3) {
			blocks := []anthropic.ContentBlockParamUnion{thinking(fmt.Sprint("sig", call)), text(words(5))}
			var results []anthropic.ContentBlockParamUnion
			for range 1 + r.IntN(3) {
				call++
				id := fmt.Sprintf("toolu_%d", call)
				blocks = append(blocks, use(id))
				results = append(results, anthropic.NewToolResultBlock(id, words(60), false))
			}
			m = append(m, asst(blocks...), user(results...))
		}
		if r.IntN(4) > 0 {
			m = append(m, asst(text(words(50))))
		}
	}
	return m
}

var _ = Describe("Trim, on random conversations", func() {
	It("always returns a conversation Validate accepts, and keeps the newest user message whenever it fits, at every budget, with either eviction", func() {
		counter := cupel.TokenCounterFunc(func(s string) (int, error) { return len(strings.Fields(s)), nil })
		r := rand.New(rand.NewPCG(26, 4))
		system := []anthropic.TextBlockParam{{Text: "You are helpful."}}
		startsAssistant := 0
		for range 15 {
			m := randomConversation(r)
			Expect(cupelanthropic.Validate(m)).To(Succeed())
			items, err := cupelanthropic.Items(system, m, counter, chat.Options{})
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
			for m[userMsg].Role != anthropic.MessageParamRoleUser || strings.Contains(marshal(m[userMsg]), "tool_result") {
				userMsg--
			}
			pinned := items[0].Tokens()
			for _, ev := range []chat.Eviction{chat.EvictWindow, chat.EvictCache} {
				for window := pinned; window <= total+10; window += 1 + r.IntN(25) {
					b, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: window, TargetTokens: window})
					Expect(err).NotTo(HaveOccurred())
					// What the old Trim kept: the newest messages that fit.
					old, err := chat.Select(must(cupelanthropic.ToTurns(system, m)), counter, b, chat.HistoryOptions{})
					Expect(err).NotTo(HaveOccurred())
					if len(old.Turns) > 1 && old.Turns[1].Role == chat.RoleAssistant {
						startsAssistant++
					}
					_, kept, _, err := cupelanthropic.Trim(system, m, counter, b, cupelanthropic.TrimOptions{HistoryOptions: chat.HistoryOptions{Eviction: ev}, Exact: true})
					if pinned+fromUser <= window {
						Expect(err).NotTo(HaveOccurred())
						Expect(len(kept)).To(BeNumerically(">=", len(m)-userMsg), "%v, window %d: the newest user message fits", ev, window)
					}
					if err != nil {
						Expect(err).To(MatchError(chat.ErrRefused))
						continue
					}
					cupeltest.ShouldBeAccepted(GinkgoT(), kept, cupelanthropic.Validate)
				}
			}
		}
		Expect(startsAssistant).To(BeNumerically(">", 0), "the newest messages that fit often open with an assistant message")
	})
})

func must[T any](v T, err error) T {
	Expect(err).NotTo(HaveOccurred())
	return v
}

var _ = Describe("CacheBreakpoint", func() {
	It("marks the last block of the last kept message that can carry one, on a copy", func() {
		m := msgs{user(text("hi")), asst(thinking("s"), use("a")), user(result("a"), text("and?"))}
		before := marshal(m)
		b, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 1000, TargetTokens: 1000})
		_, kept, _, err := cupelanthropic.Trim(nil, m, quarter, b, cupelanthropic.TrimOptions{CacheBreakpoint: true})
		Expect(err).NotTo(HaveOccurred())
		Expect(marshal(m)).To(Equal(before), "the caller's messages are unchanged")
		Expect(marshal(kept[2].Content[1])).To(MatchJSON(`{"type":"text","text":"and?","cache_control":{"type":"ephemeral"}}`))
		Expect(marshal(kept[:2])).To(Equal(marshal(m[:2])))
		Expect(strings.Count(marshal(kept), "cache_control")).To(Equal(1))
	})
})

var _ = Describe("Trim's budget", func() {
	It("takes the tools, with the tool-use system prompt, and the reply reserve out of the window, and applies the default margin unless exact", func() {
		m := msgs{user(text(strings.Repeat("word ", 99) + "end"))} // 100 words
		words := cupel.TokenCounterFunc(func(s string) (int, error) { return len(strings.Fields(s)), nil })
		tools := []anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{Name: "lookup", InputSchema: anthropic.ToolInputSchemaParam{}}}}
		toolJSON, _ := tools[0].MarshalJSON()
		toolCost := cupelanthropic.ToolUseSystemTokens + len(strings.Fields(string(toolJSON)))
		fits := func(window int, opts cupelanthropic.TrimOptions) bool {
			b, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: window, TargetTokens: window})
			Expect(err).NotTo(HaveOccurred())
			_, _, _, err = cupelanthropic.Trim(nil, m, words, b, opts)
			return err == nil
		}
		exact := cupelanthropic.TrimOptions{Tools: tools, ReplyReserve: 200, Exact: true}
		Expect(fits(100+toolCost+200, exact)).To(BeTrue())
		Expect(fits(100+toolCost+200-1, exact)).To(BeFalse(), "one token short")
		// The default margin: 100 tokens need 125 of budget once the tools and reply are out.
		estimate := cupelanthropic.TrimOptions{Tools: tools, ReplyReserve: 200}
		Expect(fits(125+toolCost+200, estimate)).To(BeTrue())
		Expect(fits(124+toolCost+200, estimate)).To(BeFalse())
	})
})
