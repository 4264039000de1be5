package chat_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel/chat"
)

var _ = Describe("OmittedNote", func() {
	It("says how many turns were dropped, after the pinned ones, inside the budget, with either eviction", func() {
		turns := longConversation(120)
		sawNote, sawNone := false, false
		for _, ev := range []chat.Eviction{chat.EvictWindow, chat.EvictCache} {
			for target := 30; target <= 700; target += 23 {
				sel, err := chat.Select(turns, &wordCounter{}, budget(target), chat.HistoryOptions{Eviction: ev, OmittedNote: true})
				Expect(err).NotTo(HaveOccurred())
				Expect(sel.Result.TotalTokens+sel.NoteTokens).To(BeNumerically("<=", target), "%v, budget %d", ev, target)
				dropped := len(turns) - (len(sel.Turns))
				if sel.NoteTokens == 0 {
					Expect(sel.Turns).To(HaveLen(len(turns)), "no note: nothing dropped")
					sawNone = true
					continue
				}
				dropped++ // the note is not a turn of the conversation
				Expect(sel.Turns[0]).To(Equal(turns[0]))
				Expect(sel.Turns[1]).To(Equal(chat.Turn{Role: chat.RoleSystem, Content: fmt.Sprintf("[%d earlier messages omitted]", dropped)}), "%v, budget %d", ev, target)
				Expect(sel.NoteTokens).To(Equal(4))
				sawNote = true
			}
		}
		Expect(sawNote && sawNone).To(BeTrue())

		sel, err := chat.Select(turns[:3], &wordCounter{}, budget(13), chat.HistoryOptions{OmittedNote: true})
		Expect(err).NotTo(HaveOccurred())
		Expect(sel.Turns[1].Content).To(Equal("[1 earlier message omitted]"))

		sel, err = chat.Select(turns, &wordCounter{}, budget(300), chat.HistoryOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(sel.NoteTokens).To(BeZero(), "off by default")
		Expect(sel.Turns[1].Role).NotTo(Equal(chat.RoleSystem))
	})

	It("follows every system turn that opens the conversation, on the first selection and the next", func() {
		turns := append([]chat.Turn{{Role: chat.RoleSystem, Content: "You are terse."}, {Role: chat.RoleDeveloper, Content: "Answer in French."}}, longConversation(60)[1:]...)
		for _, ev := range []chat.Eviction{chat.EvictWindow, chat.EvictCache} {
			h, err := chat.NewHistory(&wordCounter{}, chat.HistoryOptions{Eviction: ev, OmittedNote: true})
			Expect(err).NotTo(HaveOccurred())
			for i, t := range turns {
				Expect(h.Append(t)).To(Succeed())
				if i < 40 {
					continue
				}
				sel, err := h.Select(budget(100))
				Expect(err).NotTo(HaveOccurred())
				Expect(sel.NoteTokens).NotTo(BeZero(), "%v, %d turns", ev, i+1)
				Expect(sel.Turns[:2]).To(Equal(turns[:2]), "%v, %d turns", ev, i+1)
				Expect(sel.Turns[2].Content).To(MatchRegexp(`^\[\d+ earlier messages omitted\]$`), "%v, %d turns", ev, i+1)
				Expect(sel.Turns[3].Role).NotTo(Equal(chat.RoleSystem))
			}
		}
	})
})
