package chat

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
)

// benchTurns returns a system prompt and n-1 turns of a few words each,
// every tenth turn a tool call with its result.
func benchTurns(n int) []Turn {
	turns := []Turn{{Role: RoleSystem, Content: "You are a helpful assistant who answers briefly."}}
	for i := 1; len(turns) < n; i++ {
		if i%10 == 0 {
			id := fmt.Sprint("call_", i)
			turns = append(turns,
				Turn{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: id, Name: "search", Arguments: fmt.Sprintf(`{"query": "item %d"}`, i)}}},
				Turn{Role: RoleTool, ToolCallID: id, Name: "search", Content: fmt.Sprintf("result %d: a short paragraph of search output with some words in it", i)})
			continue
		}
		turns = append(turns, Turn{Role: []Role{RoleUser, RoleAssistant}[i%2], Content: fmt.Sprintf("turn %d says something of ordinary length, a sentence or two of chat", i)})
	}
	return turns[:n]
}

type countingWords struct{ calls atomic.Int64 }

func (c *countingWords) Count(s string) (int, error) {
	c.calls.Add(1)
	return len(strings.Fields(s)), nil
}

// BenchmarkHistoryNewTurn measures what an application pays per new turn of
// a 1,000-turn conversation: with a History (one count, then the selection),
// and rebuilding the items from the turns (every turn counted again).
// counts/op is the number of TokenCounter calls.
func BenchmarkHistoryNewTurn(b *testing.B) {
	turns := benchTurns(1000)
	next := Turn{Role: RoleUser, Content: "and one more question about the last answer"}
	budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 4000, TargetTokens: 4000})
	if err != nil {
		b.Fatal(err)
	}

	b.Run("history", func(b *testing.B) {
		counter := &countingWords{}
		base, err := NewHistory(counter, HistoryOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if err := base.Append(turns...); err != nil {
			b.Fatal(err)
		}
		counter.calls.Store(0)
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			h := *base // the 1,000-turn history; the append lands past its end
			if err := h.Append(next); err != nil {
				b.Fatal(err)
			}
			if _, err := h.Select(budget); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(counter.calls.Load())/float64(b.N), "counts/op")
	})

	b.Run("recount", func(b *testing.B) {
		counter := &countingWords{}
		all := append(turns[:len(turns):len(turns)], next)
		p, err := cupel.NewPipeline(Policy())
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			items, err := Items(all, counter, Options{})
			if err != nil {
				b.Fatal(err)
			}
			var rep cupel.SelectionReport
			if _, err := p.Run(items, budget, cupel.WithReport(&rep)); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(counter.calls.Load())/float64(b.N), "counts/op")
	})
}
