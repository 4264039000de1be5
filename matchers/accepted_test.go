package matchers_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel/chat"
	"github.com/cupel-go/go-cupel/matchers"
)

// anthropicShapes validates message shapes by Anthropic's pairing and role
// rules: a stand-in for an SDK adapter's Validate.
func anthropicShapes(m []chat.Shape) error {
	return chat.CheckShapes(m, chat.ShapeRules{ResultsInNextMessage: true, FirstUser: true})
}

var _ = Describe("BeAcceptedBy", func() {
	good := []chat.Shape{{Role: chat.RoleUser}, {Role: chat.RoleAssistant, Calls: []string{"a"}}, {Role: chat.RoleUser, Results: []string{"a"}}}
	bad := good[1:]

	It("accepts what the validator accepts and says why it refuses the rest", func() {
		Expect(good).To(matchers.BeAcceptedBy(anthropicShapes))
		Expect(bad).NotTo(matchers.BeAcceptedBy(anthropicShapes))
		m := matchers.BeAcceptedBy(anthropicShapes)
		Expect(m.FailureMessage(bad)).To(Equal("BeAcceptedBy failed: the provider would refuse the conversation: chat: conversation the provider refuses: message 0: first message is not a user message: role \"assistant\"."))
		Expect(m.NegatedFailureMessage(good)).To(ContainSubstring("Expected the provider to refuse"))
	})

	It("fails on a value of another type, under To and NotTo alike", func() {
		m := matchers.BeAcceptedBy(anthropicShapes)
		_, err := m.Match("not a conversation")
		Expect(err).To(MatchError(ContainSubstring("BeAcceptedBy expects a []chat.Shape")))
		Expect(InterceptGomegaFailure(func() { Expect(42).NotTo(m) })).To(MatchError(ContainSubstring("BeAcceptedBy expects")))
		Expect(fmtString(m)).To(Equal("BeAcceptedBy(<validator>)"))
	})
})

func fmtString(m interface{ String() string }) string { return m.String() }
