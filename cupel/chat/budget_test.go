package chat_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/chat"
)

var _ = Describe("RequestBudget", func() {
	It("takes the fixed tokens off the window and reserves the reply, so the effective budget is what the turns may use", func() {
		window, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 1000, TargetTokens: 1000, EstimationSafetyMarginPercent: 10})
		b, err := chat.RequestBudget(window, 150, 200)
		Expect(err).NotTo(HaveOccurred())
		Expect(b.MaxTokens()).To(Equal(850))
		Expect(b.TargetTokens()).To(Equal(850))
		Expect(b.OutputReserve()).To(Equal(200))
		Expect(b.EstimationSafetyMarginPercent()).To(Equal(10.0))
		Expect(b.Effective(50).TargetTokens()).To(Equal(540), "(1000 - 150 - 200 - 50) * 0.9")

		_, err = chat.RequestBudget(window, 900, 200)
		Expect(err).To(MatchError(cupel.ErrInvalidBudget))
		_, err = chat.RequestBudget(window, -1, 0)
		Expect(err).To(MatchError(ContainSubstring("do not fit a window of 1000")))
	})

	It("counts PerNameTokens for every turn with a name", func() {
		items, err := chat.Items([]chat.Turn{{Role: chat.RoleUser, Content: "a b", Name: "jane"}, {Role: chat.RoleUser, Content: "a b"}}, &wordCounter{}, chat.Options{PerTurnTokens: 3, PerNameTokens: 1})
		Expect(err).NotTo(HaveOccurred())
		Expect(items[0].Tokens()).To(Equal(3 + 2 + 1 + 1))
		Expect(items[1].Tokens()).To(Equal(3 + 2))
		_, err = chat.Items(nil, &wordCounter{}, chat.Options{PerNameTokens: -1})
		Expect(err).To(MatchError(cupel.ErrInvalidArgument))
	})

	It("reports a trimmed request's estimate in parts: the turns, the omitted note and the fixed tokens", func() {
		turns := longConversation(60)
		sel, err := chat.Select(turns, &wordCounter{}, budget(100), chat.HistoryOptions{OmittedNote: true})
		Expect(err).NotTo(HaveOccurred())
		Expect(sel.NoteTokens).NotTo(BeZero())
		t := sel.Trimmed(150)
		Expect(t.SelectionReport).To(BeIdenticalTo(sel.Report))
		Expect(t.TurnTokens).To(Equal(sel.Result.TotalTokens))
		Expect(t.NoteTokens).To(Equal(sel.NoteTokens))
		Expect(t.FixedTokens).To(Equal(150))
		words := 0
		for _, turn := range sel.Turns {
			words += len(strings.Fields(turn.Content)) + len(strings.Fields(turn.Name))
			for _, c := range turn.ToolCalls {
				words += len(strings.Fields(c.Name)) + len(strings.Fields(c.Arguments))
			}
		}
		Expect(t.Estimated()).To(Equal(words+150), "every word sent, note included, and the fixed tokens")
		Expect(t.Included).To(HaveLen(len(sel.Result.Items)), "the report's fields")
	})
})
