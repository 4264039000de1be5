package chat_test

import (
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/chat"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

// longConversation returns n turns alternating user and assistant, every
// tenth assistant turn a tool exchange.
func longConversation(n int) []chat.Turn {
	turns := []chat.Turn{{Role: chat.RoleSystem, Content: "You are terse."}}
	for i := 1; len(turns) < n; i++ {
		switch {
		case i%10 == 0:
			id := fmt.Sprintf("call-%d", i)
			turns = append(turns,
				chat.Turn{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: id, Name: "search", Arguments: fmt.Sprintf(`{"q": "topic %d"}`, i)}}},
				chat.Turn{Role: chat.RoleTool, ToolCallID: id, Name: "search", Content: fmt.Sprintf("result %d: three short lines of text", i)})
		case i%2 == 1:
			turns = append(turns, chat.Turn{Role: chat.RoleUser, Content: fmt.Sprintf("question %d about the topic", i)})
		default:
			turns = append(turns, chat.Turn{Role: chat.RoleAssistant, Content: fmt.Sprintf("answer %d, in a few words", i)})
		}
	}
	return turns[:n]
}

var _ = Describe("History", func() {
	It("counts a new turn once, and a tool result without recounting its call", func() {
		wc := &wordCounter{}
		h, err := chat.NewHistory(wc, chat.HistoryOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(h.Append(longConversation(1000)...)).To(Succeed())
		Expect(h.Len()).To(Equal(1000))
		before := wc.calls.Load()
		tokens := h.Tokens()

		Expect(h.Append(chat.Turn{Role: chat.RoleUser, Content: "one more question"})).To(Succeed())
		Expect(wc.calls.Load() - before).To(Equal(int64(1)))
		Expect(h.Tokens()).To(Equal(tokens + 3))

		Expect(h.Append(chat.Turn{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "z", Name: "f", Arguments: "{}"}}})).To(Succeed())
		n := len(h.Items())
		callItem := h.Items()[n-1]
		before = wc.calls.Load()
		Expect(h.Append(chat.Turn{Role: chat.RoleTool, ToolCallID: "z", Content: "done"})).To(Succeed())
		Expect(wc.calls.Load()-before).To(Equal(int64(1)), "only the result's content")
		Expect(h.Items()).To(HaveLen(n), "the result joins its call's item")
		exchange := h.Items()[n-1]
		Expect(exchange).NotTo(BeIdenticalTo(callItem))
		Expect(exchange.Tokens()).To(Equal(callItem.Tokens() + 1))
		Expect(callItem.Tokens()).To(Equal(2), "the item handed out before is unchanged")
	})

	It("appends nothing when one of the turns is invalid", func() {
		h, _ := chat.NewHistory(&wordCounter{}, chat.HistoryOptions{})
		Expect(h.Append(conversation()[:5]...)).To(Succeed()) // ends with the open exchange c1, c2
		items, turns, tokens := h.Items(), h.Turns(), h.Tokens()
		err := h.Append(
			chat.Turn{Role: chat.RoleTool, ToolCallID: "c1", Content: "18 C"},
			chat.Turn{Role: chat.RoleTool, ToolCallID: "nope", Content: "?"},
		)
		Expect(err).To(MatchError(chat.ErrInvalidTurn))
		Expect(h.Items()).To(Equal(items))
		Expect(h.Turns()).To(Equal(turns))
		Expect(h.Tokens()).To(Equal(tokens))
		Expect(h.Append(conversation()[5:]...)).To(Succeed(), "the exchange is still open")
		Expect(h.Items()).To(HaveLen(7))
	})

	It("selects the newest turns that fit, without a gap, and says truly why it dropped the others", func() {
		h, _ := chat.NewHistory(&wordCounter{}, chat.HistoryOptions{})
		Expect(h.Append(longConversation(60)...)).To(Succeed())
		items := h.Items()
		sawCut := false
		for target := 4; target <= h.Tokens(); target += 3 {
			sel, err := h.Select(budget(target))
			Expect(err).NotTo(HaveOccurred())
			Expect(sel.Result.TotalTokens).To(BeNumerically("<=", target))
			Expect(sel.Turns[0].Role).To(Equal(chat.RoleSystem))
			Expect(unpairedResult(sel.Turns)).To(BeEmpty())
			Expect(len(sel.Report.Included) + len(sel.Report.Excluded)).To(Equal(len(items)))
			// The kept items are the system prompt and the newest ones.
			kept := sel.Result.Items[1:]
			Expect(kept).To(Equal(items[len(items)-len(kept):]), "budget %d", target)
			if len(sel.Report.Excluded) == 0 {
				continue
			}
			// The newest dropped item did not fit; the older ones are Filtered
			// by the cut, in the excluded list and the events alike.
			cut := items[len(items)-len(kept)-1]
			budgetExceeded := 0
			for _, ex := range sel.Report.Excluded {
				if ex.Item == cut {
					Expect(ex.Reason.Variant).To(BeElementOf(cupel.ExclusionBudgetExceeded, cupel.ExclusionPinnedOverride))
					if ex.Reason.Variant == cupel.ExclusionBudgetExceeded {
						Expect(ex.Reason.ItemTokens()).To(BeNumerically(">", ex.Reason.AvailableTokens()))
					}
					budgetExceeded++
					continue
				}
				Expect(ex.Reason).To(Equal(cupel.Filtered(chat.CutFilterName)))
				sawCut = true
			}
			Expect(budgetExceeded).To(Equal(1))
			for _, ev := range sel.Report.Events {
				if ev.Item != nil && ev.Item != cut && ev.Exclusion.Variant != "" {
					Expect(ev.Exclusion.Variant).To(Equal(cupel.ExclusionFiltered))
					Expect(ev.Text()).To(Equal("Filtered: by " + chat.CutFilterName))
				}
			}
		}
		Expect(sawCut).To(BeTrue())
	})

	It("uses the policy it is given", func() {
		greedy := cupel.Policy{Scorer: scorer.NewRecency(), Slicer: slicer.NewGreedy(), Placer: placer.NewChronological()}
		h, err := chat.NewHistory(&wordCounter{}, chat.HistoryOptions{Policy: &greedy, Options: chat.Options{Start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}})
		Expect(err).NotTo(HaveOccurred())
		Expect(h.Append(conversation()...)).To(Succeed())
		ts, _ := h.Items()[1].Timestamp()
		Expect(ts).To(Equal(time.Date(2026, 1, 1, 0, 0, 1, 0, time.UTC)))
		sel, err := h.Select(budget(10))
		Expect(err).NotTo(HaveOccurred())
		// Greedy by score per token keeps the old one-word turns and drops the
		// long recent answer, which NewestFirstSlice would keep first.
		var contents []string
		for _, t := range sel.Turns {
			contents = append(contents, t.Content)
		}
		Expect(contents).To(Equal([]string{"You are a weather bot.", "ok", "ok", "ok"}))

		// A NewestFirstSlice given by pointer gets the cut's reasons too.
		ptr := chat.Policy()
		ptr.Slicer = &chat.NewestFirstSlice{}
		h, err = chat.NewHistory(&wordCounter{}, chat.HistoryOptions{Policy: &ptr})
		Expect(err).NotTo(HaveOccurred())
		Expect(h.Append(conversation()...)).To(Succeed())
		sel, err = h.Select(budget(10))
		Expect(err).NotTo(HaveOccurred())
		Expect(sel.Report.Excluded).To(ContainElement(HaveField("Reason", cupel.Filtered(chat.CutFilterName))))

		_, err = chat.NewHistory(&wordCounter{}, chat.HistoryOptions{Policy: &cupel.Policy{}})
		Expect(err).To(MatchError(cupel.ErrInvalidConfig))
	})

	It("reports a pinned system prompt larger than the budget", func() {
		h, _ := chat.NewHistory(&wordCounter{}, chat.HistoryOptions{})
		Expect(h.Append(conversation()...)).To(Succeed())
		_, err := h.Select(budget(3))
		Expect(err).To(MatchError(cupel.ErrPinnedExceedsBudget))
	})
})

var _ = Describe("NewestFirstSlice", func() {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	item := func(content string, tokens, minute int) *cupel.ContextItem {
		spec := cupel.ItemSpec{Content: content, Tokens: tokens}
		if minute >= 0 {
			spec.Timestamp = cupel.Ptr(t0.Add(time.Duration(minute) * time.Minute))
		}
		return cupel.MustItem(spec)
	}
	It("takes the newest items while they fit and stops at the first that does not", func() {
		old, long, recent, newest := item("old", 1, 0), item("long", 10, 1), item("recent", 2, 2), item("newest", 2, 3)
		undated, negative := item("undated", 1, -1), item("negative", -1, 4)
		sorted := []cupel.ScoredItem{{Item: old, Score: 0.9}, {Item: undated, Score: 0.8}, {Item: newest, Score: 0.1}, {Item: long}, {Item: negative}, {Item: recent}, {Item: nil}}
		got, err := chat.NewestFirstSlice{}.Slice(sorted, budget(5))
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal([]*cupel.ContextItem{newest, recent}), "old would fit, but long is in the way")

		got, _ = chat.NewestFirstSlice{}.Slice(sorted, budget(16))
		Expect(got).To(Equal([]*cupel.ContextItem{newest, recent, long, old, undated}))
		Expect(sorted[0].Item).To(BeIdenticalTo(old), "input untouched")

		got, _ = chat.NewestFirstSlice{}.Slice(nil, budget(5))
		Expect(got).To(BeEmpty())
	})
})

var _ = Describe("Select", func() {
	It("selects from a whole conversation as a History of it does", func() {
		turns := longConversation(60)
		h, err := chat.NewHistory(&wordCounter{}, chat.HistoryOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(h.Append(turns...)).To(Succeed())
		want, err := h.Select(budget(120))
		Expect(err).NotTo(HaveOccurred())

		got, err := chat.Select(turns, &wordCounter{}, budget(120), chat.HistoryOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(got.Turns).To(Equal(want.Turns))
		Expect(got.Turns).NotTo(BeEmpty())
		Expect(len(got.Turns)).To(BeNumerically("<", len(turns)))
		Expect(got.Report.Excluded).To(HaveLen(len(want.Report.Excluded)))
	})

	It("passes an invalid turn's error through", func() {
		_, err := chat.Select([]chat.Turn{{Role: chat.RoleTool, ToolCallID: "nowhere", Content: "x"}}, &wordCounter{}, budget(100), chat.HistoryOptions{})
		Expect(err).To(MatchError(chat.ErrInvalidTurn))
	})
})
