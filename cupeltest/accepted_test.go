package cupeltest_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel/chat"
	"github.com/cupel-go/go-cupel/cupeltest"
)

// recorder is a TB that records what it is told.
type recorder struct{ errs []string }

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, a ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, a...))
}

var _ = Describe("ShouldBeAccepted", func() {
	openaiShapes := func(m []chat.Shape) error { return chat.CheckShapes(m, chat.ShapeRules{}) }

	It("reports nothing for an accepted conversation, and the rule broken otherwise", func() {
		r := &recorder{}
		Expect(cupeltest.ShouldBeAccepted(r, []chat.Shape{{Role: chat.RoleUser}}, openaiShapes)).To(BeTrue())
		Expect(r.errs).To(BeEmpty())
		Expect(cupeltest.ShouldBeAccepted(r, []chat.Shape{{Role: chat.RoleUser}, {Role: chat.RoleAssistant, Calls: []string{"c1"}}}, openaiShapes)).To(BeFalse())
		Expect(r.errs).To(Equal([]string{`ShouldBeAccepted failed: the provider would refuse the conversation: chat: conversation the provider refuses: message 1: tool call without its result: call "c1" has no result.`}))
		Expect(cupeltest.ShouldBeAccepted[[]chat.Shape](r, nil, nil)).To(BeFalse())
		Expect(r.errs[1]).To(Equal("ShouldBeAccepted failed: the validator is nil."))
	})
})
