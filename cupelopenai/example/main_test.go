package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/chat"
	"github.com/cupel-go/go-cupel/cupelopenai"
	"github.com/cupel-go/go-cupel/cupeltest"
	"github.com/cupel-go/go-cupel/cupeltiktoken"
)

// TestTrim checks the selection with the Should chain, then checks the
// messages to send on their own: recounted with the tokenizer they fit the
// window, they are the newest stretch of the conversation, and no tool
// message lacks its call.
func TestTrim(t *testing.T) {
	kept, report, err := Trim()
	if err != nil {
		t.Fatal(err)
	}
	budget, err := Budget()
	if err != nil {
		t.Fatal(err)
	}
	index := func(n int) func(*cupel.ContextItem) bool {
		return func(it *cupel.ContextItem) bool { i, _ := it.MetadataValue(chat.IndexKey); return i == n }
	}
	cupeltest.Should(t, report.SelectionReport).
		IncludeItemWithKind(cupel.KindSystemPrompt).
		IncludeItemMatching(func(in cupel.IncludedItem) bool { return in.Item.Content() == "[240] assistant: ok" }).
		ExcludeItemWithReason(cupel.ExclusionBudgetExceeded).
		// The newest dropped item is round 12's tool exchange, whose order
		// listing (609 tokens) did not fit the 11 tokens left.
		ExcludeItemWithBudgetDetails(index(68), 609, 11).
		// The older ones were left out to keep the conversation without a
		// gap, though some would have fitted the 11 tokens left.
		ExcludeItemMatchingWithReason(index(1), cupel.ExclusionFiltered).
		ExcludeItemMatchingWithReason(index(67), cupel.ExclusionFiltered).
		HaveAtLeastNExclusions(50).
		ExcludedItemsAreSortedByScoreDescending().
		// Utilization is measured against the whole window (spec chapter 45
		// (Cupel.Testing Vocabulary)): 6,982 of 8,192 tokens, the 1,024 kept
		// for the answer included, is 0.85.
		HaveBudgetUtilizationAbove(0.8, budget)

	// Recount what is sent, independently of the items.
	counter := cupeltiktoken.Cl100kBase()
	turns, err := cupelopenai.ToTurns(kept)
	if err != nil {
		t.Fatal(err)
	}
	sent := 0
	for _, turn := range turns {
		for _, s := range []string{turn.Content, turn.Name} {
			n, _ := counter.Count(s)
			sent += n
		}
		for _, c := range turn.ToolCalls {
			a, _ := counter.Count(c.Name)
			b, _ := counter.Count(c.Arguments)
			sent += a + b
		}
		sent += cupelopenai.TokensPerMessage
	}
	if sent > ContextWindow-AnswerReserve {
		t.Errorf("the kept messages count %d tokens, over the %d available", sent, ContextWindow-AnswerReserve)
	}
	// The estimate Trim returns is what is sent: each message's role (one
	// token) besides, and the reply primer.
	if want := sent + len(turns) + cupelopenai.TokensReplyPrimer; report.Estimated() != want {
		t.Errorf("Trim estimates %d input tokens (%d + %d + %d), the messages sent count %d", report.Estimated(), report.TurnTokens, report.NoteTokens, report.FixedTokens, want)
	}

	all := Conversation()
	if kept[0].OfSystem == nil {
		t.Errorf("the system prompt is not first")
	}
	// After the system prompt, the newest messages, without a gap.
	wantTail, _ := json.Marshal(all[len(all)-len(kept)+1:])
	gotTail, _ := json.Marshal(kept[1:])
	if string(gotTail) != string(wantTail) {
		t.Errorf("the kept messages are not the newest stretch of the conversation")
	}
	calls := map[string]bool{}
	for i, m := range kept {
		for _, c := range m.GetToolCalls() {
			if id := c.GetID(); id != nil {
				calls[*id] = true
			}
		}
		if m.OfTool != nil && !calls[m.OfTool.ToolCallID] {
			t.Errorf("message %d answers tool call %s, which was dropped", i, m.OfTool.ToolCallID)
		}
	}
}

func TestRun(t *testing.T) {
	var b strings.Builder
	if err := run(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"gpt-4, 8192-token window, 1024 kept for the answer",
		"conversation: 241 messages",
		"Pinned   34 tokens  [0] system: You are Acme's support agent.",
		"1 × BudgetExceeded\n  56 × Filtered\n",
		"Filtered: by chat.NewestFirstSlice (older than a turn that did not fit)",
		"they are messages 1 to 69, the oldest after the system prompt",
		"BudgetExceeded: 609 tokens requested, 11 available",
		"estimated input: 7157 tokens, 3 to prime the reply included",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, b.String())
		}
	}
}
