package cupelopenai_test

import (
	"fmt"
	"math/rand/v2"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/openai/openai-go/v3"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/chat"
	"github.com/cupel-go/go-cupel/cupelopenai"
	"github.com/cupel-go/go-cupel/matchers"
)

// randomConversation builds a valid conversation from the SDK's types: a
// system message, then rounds of a user message, tool exchanges of one to
// three parallel calls, and assistant answers of varied length.
func randomConversation(r *rand.Rand) msgs {
	text := func(n int) string { return strings.Repeat("word ", 1+r.IntN(n)) }
	m := msgs{openai.SystemMessage("You are helpful. " + text(10))}
	call := 0
	for range 3 + r.IntN(12) {
		m = append(m, openai.UserMessage(text(40)))
		for range r.IntN(3) {
			var ids []string
			for range 1 + r.IntN(3) {
				call++
				ids = append(ids, fmt.Sprintf("call_%d", call))
			}
			m = append(m, calls(text(5), ids...))
			for _, id := range ids {
				m = append(m, openai.ToolMessage(text(60), id))
			}
		}
		if r.IntN(4) > 0 {
			m = append(m, openai.AssistantMessage(text(50)))
		}
	}
	return m
}

var _ = Describe("Trim, on random conversations", func() {
	It("always returns a conversation Validate accepts, and keeps the newest user message whenever it fits, at every budget, with either eviction", func() {
		counter := cupel.TokenCounterFunc(func(s string) (int, error) { return len(strings.Fields(s)), nil })
		r := rand.New(rand.NewPCG(26, 3))
		framing := chat.Options{PerTurnTokens: cupelopenai.TokensPerMessage + 1, PerNameTokens: cupelopenai.TokensPerName}
		for range 15 {
			m := randomConversation(r)
			Expect(cupelopenai.Validate(m)).To(Succeed())
			items, err := cupelopenai.Items(m, counter, framing)
			Expect(err).NotTo(HaveOccurred())
			total, newestUser, fromUser := 0, -1, 0
			for k, it := range items {
				total += it.Tokens()
				if role, _ := it.MetadataValue(chat.RoleKey); role == "user" {
					newestUser, fromUser = k, 0
				}
				if newestUser >= 0 {
					fromUser += it.Tokens()
				}
			}
			pinned := items[0].Tokens()
			userMsg := len(m) - 1
			for m[userMsg].OfUser == nil {
				userMsg--
			}
			for _, ev := range []chat.Eviction{chat.EvictWindow, chat.EvictCache} {
				for window := pinned + cupelopenai.TokensReplyPrimer; window <= total+10; window += 1 + r.IntN(25) {
					b, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: window, TargetTokens: window})
					Expect(err).NotTo(HaveOccurred())
					kept, _, err := cupelopenai.Trim(m, counter, b, cupelopenai.TrimOptions{HistoryOptions: chat.HistoryOptions{Eviction: ev}})
					Expect(err).NotTo(HaveOccurred())
					Expect(kept).To(matchers.BeAcceptedBy(cupelopenai.Validate), "%v, window %d", ev, window)
					if pinned+fromUser+cupelopenai.TokensReplyPrimer <= window {
						// Both evictions keep the system message and a suffix.
						Expect(len(kept)-1).To(BeNumerically(">=", len(m)-userMsg), "%v, window %d", ev, window)
					}
				}
			}
		}
	})
})
