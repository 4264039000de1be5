package chat_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel/chat"
)

func user() chat.Shape                     { return chat.Shape{Role: chat.RoleUser} }
func assistant(calls ...string) chat.Shape { return chat.Shape{Role: chat.RoleAssistant, Calls: calls} }
func tool(id string) chat.Shape            { return chat.Shape{Role: chat.RoleTool, Results: []string{id}} }
func results(ids ...string) chat.Shape     { return chat.Shape{Role: chat.RoleUser, Results: ids} }

var openai = chat.ShapeRules{}
var anthropic = chat.ShapeRules{ResultsInNextMessage: true, FirstUser: true}

var _ = Describe("CheckShapes", func() {
	It("accepts well-paired conversations of both providers", func() {
		Expect(chat.CheckShapes([]chat.Shape{{Role: chat.RoleSystem}, user(), assistant("a", "b"), tool("b"), tool("a"), assistant(), user()}, openai)).To(Succeed())
		Expect(chat.CheckShapes([]chat.Shape{user(), assistant("a", "b"), results("a", "b"), assistant()}, anthropic)).To(Succeed())
		Expect(chat.CheckShapes([]chat.Shape{assistant(), user()}, openai)).To(Succeed(), "OpenAI lets an assistant message open")
		Expect(chat.CheckShapes([]chat.Shape{user(), user(), assistant()}, anthropic)).To(Succeed(), "merged by the API unless Alternate")
		Expect(chat.CheckShapes(nil, openai)).To(Succeed())
	})

	DescribeTable("names the message and the rule it breaks",
		func(msgs []chat.Shape, rules chat.ShapeRules, index int, rule chat.Rule, detail string) {
			err := chat.CheckShapes(msgs, rules)
			Expect(err).To(MatchError(chat.ErrRefused))
			var ce *chat.ConversationError
			Expect(errors.As(err, &ce)).To(BeTrue())
			Expect(ce.Index).To(Equal(index))
			Expect(ce.Rule).To(Equal(rule))
			Expect(ce.Error()).To(ContainSubstring(detail))
		},
		Entry("OpenAI: starts with a tool message", []chat.Shape{{Role: chat.RoleSystem}, tool("a"), user()}, openai, 1, chat.RuleStartsWithResult, "starts with a tool result"),
		Entry("OpenAI: result of no call", []chat.Shape{user(), assistant("a"), tool("a"), tool("z")}, openai, 3, chat.RuleOrphanResult, `answers "z"`),
		Entry("OpenAI: result after a user message", []chat.Shape{user(), assistant("a"), tool("a"), user(), tool("a")}, openai, 4, chat.RuleOrphanResult, `answers "a"`),
		Entry("OpenAI: a call answered twice", []chat.Shape{user(), assistant("a"), tool("a"), tool("a")}, openai, 3, chat.RuleOrphanResult, `answers "a"`),
		Entry("OpenAI: a call left unanswered before the next message", []chat.Shape{user(), assistant("a", "b"), tool("a"), user()}, openai, 1, chat.RuleUnansweredCall, `call "b" has no result`),
		Entry("OpenAI: a call left unanswered at the end", []chat.Shape{user(), assistant("a")}, openai, 1, chat.RuleUnansweredCall, `call "a"`),
		Entry("Anthropic: starts with tool results", []chat.Shape{results("a"), assistant()}, anthropic, 0, chat.RuleStartsWithResult, "message 0"),
		Entry("Anthropic: starts with an assistant message", []chat.Shape{assistant(), user()}, anthropic, 0, chat.RuleFirstUser, `role "assistant"`),
		Entry("Anthropic: results not right after the call", []chat.Shape{user(), assistant("a"), user(), results("a")}, anthropic, 1, chat.RuleUnansweredCall, `call "a"`),
		Entry("Anthropic: a result of another call", []chat.Shape{user(), assistant("a"), results("a", "x")}, anthropic, 2, chat.RuleOrphanResult, `answers "x"`),
		Entry("Anthropic: a call not answered by the next message", []chat.Shape{user(), assistant("a", "b"), results("b")}, anthropic, 1, chat.RuleUnansweredCall, `call "a"`),
		Entry("Anthropic, strict: two user messages in a row", []chat.Shape{user(), assistant(), user(), user()}, chat.ShapeRules{ResultsInNextMessage: true, FirstUser: true, Alternate: true}, 3, chat.RuleAlternate, "two user messages in a row"),
	)
})
