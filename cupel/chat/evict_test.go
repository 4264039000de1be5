package chat_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/chat"
)

// nonPinned returns the tokens of the selected items after the pinned ones.
func nonPinned(sel chat.Selection) int {
	n := 0
	for _, it := range sel.Result.Items {
		if !it.Pinned() {
			n += it.Tokens()
		}
	}
	return n
}

// firstIndex returns the conversation index of the first non-pinned
// selected item, or -1.
func firstIndex(sel chat.Selection) int {
	for _, it := range sel.Result.Items {
		if !it.Pinned() {
			i, _ := it.MetadataValue(chat.IndexKey)
			return i.(int)
		}
	}
	return -1
}

var _ = Describe("EvictCache", func() {
	const target = 120
	turns := longConversation(400)

	// replay appends turns one at a time and selects after each, as an
	// application does, returning the selections.
	replay := func(opts chat.HistoryOptions) []chat.Selection {
		h, err := chat.NewHistory(&wordCounter{}, opts)
		Expect(err).NotTo(HaveOccurred())
		var out []chat.Selection
		for _, t := range turns {
			Expect(h.Append(t)).To(Succeed())
			sel, err := h.Select(budget(target))
			Expect(err).NotTo(HaveOccurred())
			out = append(out, sel)
		}
		return out
	}

	It("drops down to the low-water mark in one step, then keeps the prefix while the budget holds", func() {
		sels := replay(chat.HistoryOptions{Eviction: chat.EvictCache})
		pinned := sels[0].Result.TotalTokens
		avail := target - pinned
		low := int(float64(avail) * chat.DefaultLowWater)
		evictions := 0
		for i := 1; i < len(sels); i++ {
			prev, sel := sels[i-1], sels[i]
			Expect(sel.Result.TotalTokens).To(BeNumerically("<=", target))
			Expect(unpairedResult(sel.Turns)).To(BeEmpty())
			if firstIndex(prev) < 0 || firstIndex(sel) == firstIndex(prev) {
				// Nothing dropped: the previous request is this one's prefix
				// (but for a tool exchange whose result arrived since).
				Expect(len(sel.Turns)).To(BeNumerically(">", len(prev.Turns)))
				Expect(sel.Turns[:len(prev.Turns)-1]).To(Equal(prev.Turns[:len(prev.Turns)-1]), "turn %d", i)
				Expect(sel.PrefixTokens).To(BeNumerically(">=", prev.Result.TotalTokens-prev.Result.Items[len(prev.Result.Items)-1].Tokens()))
				continue
			}
			evictions++
			Expect(nonPinned(sel)).To(BeNumerically("<=", low), "turn %d: dropped down to the low-water mark", i)
			Expect(nonPinned(prev)+sel.Result.Items[len(sel.Result.Items)-1].Tokens()).To(BeNumerically(">", avail), "turn %d: dropped only when over budget", i)
			for _, ex := range sel.Report.Excluded {
				Expect(ex.Reason).To(Equal(cupel.Filtered(chat.EvictedFilterName)))
			}
		}
		Expect(evictions).To(BeNumerically(">=", 5))
		Expect(evictions).To(BeNumerically("<", len(sels)/5), "an eviction every several turns (the 41 tokens between the marks), not every turn")
	})

	It("repeats most of each request's tokens, where a window repeats only the pinned prompt", func() {
		ratio := func(sels []chat.Selection) float64 {
			prefix, total := 0, 0
			for _, s := range sels[200:] { // past the first eviction
				prefix += s.PrefixTokens
				total += s.Result.TotalTokens + s.NoteTokens
			}
			return float64(prefix) / float64(total)
		}
		Expect(ratio(replay(chat.HistoryOptions{Eviction: chat.EvictCache}))).To(BeNumerically(">", 0.85))
		Expect(ratio(replay(chat.HistoryOptions{}))).To(BeNumerically("<", 0.15))
		// The omitted note changes only when turns are dropped and repeats
		// with the prefix in between. It takes 4 of the 117 tokens, which
		// leaves less room between the marks, so evictions come a little
		// sooner in a budget this small.
		Expect(ratio(replay(chat.HistoryOptions{Eviction: chat.EvictCache, OmittedNote: true}))).To(BeNumerically(">", 0.80))
	})

	It("selects from a whole conversation as the History that grew turn by turn did", func() {
		for _, opts := range []chat.HistoryOptions{{Eviction: chat.EvictCache}, {Eviction: chat.EvictCache, OpenWithUser: true, LowWater: 0.5}} {
			sels := replay(opts)
			for _, n := range []int{1, 57, 131, 250, 399} {
				sel, err := chat.Select(turns[:n+1], &wordCounter{}, budget(target), opts)
				Expect(err).NotTo(HaveOccurred())
				Expect(sel.Turns).To(Equal(sels[n].Turns), "after turn %d", n)
			}
		}
	})
})

var _ = Describe("OpenWithUser", func() {
	It("never lets the kept turns open with an assistant turn, with either eviction, and keeps the newest user turn when it fits", func() {
		turns := longConversation(90)
		sawOpening := false
		for _, ev := range []chat.Eviction{chat.EvictWindow, chat.EvictCache} {
			for target := 6; target <= 400; target += 7 {
				opts := chat.HistoryOptions{Eviction: ev, OpenWithUser: true}
				sel, err := chat.Select(turns, &wordCounter{}, budget(target), opts)
				Expect(err).NotTo(HaveOccurred())
				Expect(sel.Result.TotalTokens).To(BeNumerically("<=", target))
				Expect(sel.Turns[0].Role).To(Equal(chat.RoleSystem))
				if len(sel.Turns) > 1 {
					Expect(sel.Turns[1].Role).To(Equal(chat.RoleUser), "%v, budget %d", ev, target)
				}
				// The newest user turn, and all after it, fit: it is kept.
				h, _ := chat.NewHistory(&wordCounter{}, chat.HistoryOptions{})
				Expect(h.Append(turns...)).To(Succeed())
				items := h.Items()
				tail := 0
				newestUser := -1
				for k := len(items) - 1; k >= 0; k-- {
					tail += items[k].Tokens()
					if r, _ := items[k].MetadataValue(chat.RoleKey); r == "user" {
						newestUser = k
						break
					}
				}
				if tail+items[0].Tokens() <= target {
					Expect(sel.Result.Items).To(ContainElement(items[newestUser]), "%v, budget %d", ev, target)
				}
				for _, ex := range sel.Report.Excluded {
					if ex.Reason == cupel.Filtered(chat.OpeningFilterName) {
						sawOpening = true
					}
				}
			}
		}
		Expect(sawOpening).To(BeTrue())
	})

	It("is refused with a policy of one's own, and the low-water mark must be a fraction", func() {
		p := chat.Policy()
		_, err := chat.NewHistory(&wordCounter{}, chat.HistoryOptions{Policy: &p, OpenWithUser: true})
		Expect(err).To(MatchError(cupel.ErrInvalidConfig))
		_, err = chat.NewHistory(&wordCounter{}, chat.HistoryOptions{Policy: &p, Eviction: chat.EvictCache})
		Expect(err).To(MatchError(cupel.ErrInvalidConfig))
		for _, lw := range []float64{-0.1, 1.5} {
			_, err = chat.NewHistory(&wordCounter{}, chat.HistoryOptions{LowWater: lw})
			Expect(err).To(MatchError(ContainSubstring("LowWater must be in (0, 1]")))
		}
	})
})
