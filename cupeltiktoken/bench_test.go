package cupeltiktoken_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer/codec"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/chat"
	"github.com/cupel-go/go-cupel/cupeltiktoken"
)

// benchTexts returns n chat-sized texts (a few sentences each, mixed prose,
// numbers, code and punctuation), all different.
func benchTexts(n int) ([]string, int64) {
	parts := []string{
		"Could you look at why the nightly build failed on the arm64 runner?",
		"The test `TestHistoryAppend` timed out after 600s; the log shows 1,024 goroutines waiting on a mutex.",
		"func (h *History) Append(turns ...Turn) error { return nil }",
		"Sure: the lock is taken twice on the error path, line 87 and line 112.",
		"Résumé: naïve café owners in São Paulo paid €12.50 for 3 croissants 🥐.",
	}
	texts := make([]string, n)
	var total int64
	for i := range texts {
		var b strings.Builder
		for k := 0; k < 3+i%4; k++ {
			b.WriteString(parts[(i+k)%len(parts)])
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "(turn %d)", i)
		texts[i] = b.String()
		total += int64(len(texts[i]))
	}
	return texts, total
}

// BenchmarkCount compares counting throughput (MB/s over the texts) of the
// library's own Count with a Counter whose cache is off, cold (every text
// new) and warm (every text counted before).
func BenchmarkCount(b *testing.B) {
	texts, total := benchTexts(500)
	for _, enc := range []string{"cl100k_base", "o200k_base"} {
		var lib *codec.Codec
		var counter func(...cupeltiktoken.Option) *cupeltiktoken.Counter
		if enc == "cl100k_base" {
			lib, counter = codec.NewCl100kBase(), cupeltiktoken.Cl100kBase
		} else {
			lib, counter = codec.NewO200kBase(), cupeltiktoken.O200kBase
		}
		run := func(name string, count func(string) (int, error), reset func()) {
			b.Run(enc+"/"+name, func(b *testing.B) {
				b.SetBytes(total)
				b.ReportAllocs()
				for b.Loop() {
					if reset != nil {
						b.StopTimer()
						reset()
						b.StartTimer()
					}
					for _, t := range texts {
						if _, err := count(t); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		}
		run("library", lib.Count, nil)
		off := counter(cupeltiktoken.WithCacheSize(0))
		run("counter-nocache", off.Count, nil)
		cold := counter()
		run("counter-cold", func(s string) (int, error) { return cold.Count(s) }, func() { cold = counter() })
		warm := counter()
		for _, t := range texts {
			_, _ = warm.Count(t)
		}
		run("counter-warm", warm.Count, nil)
	}
}

// BenchmarkHistoryNewTurn is the chat package's benchmark with the real
// tokenizer: a new turn on a 1,000-turn conversation, selected again with a
// History, against counting every turn again.
func BenchmarkHistoryNewTurn(b *testing.B) {
	texts, _ := benchTexts(1001)
	turns := make([]chat.Turn, 1000)
	for i := range turns {
		turns[i] = chat.Turn{Role: []chat.Role{chat.RoleUser, chat.RoleAssistant}[i%2], Content: texts[i]}
	}
	next := chat.Turn{Role: chat.RoleUser, Content: texts[1000]}
	budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 8000, TargetTokens: 8000})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("history", func(b *testing.B) {
		counter := cupeltiktoken.O200kBase(cupeltiktoken.WithCacheSize(0))
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			h, err := chat.NewHistory(counter, chat.HistoryOptions{})
			if err != nil {
				b.Fatal(err)
			}
			if err := h.Append(turns...); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if err := h.Append(next); err != nil {
				b.Fatal(err)
			}
			if _, err := h.Select(budget); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("recount", func(b *testing.B) {
		counter := cupeltiktoken.O200kBase(cupeltiktoken.WithCacheSize(0))
		all := append(turns[:len(turns):len(turns)], next)
		b.ReportAllocs()
		for b.Loop() {
			h, err := chat.NewHistory(counter, chat.HistoryOptions{})
			if err != nil {
				b.Fatal(err)
			}
			if err := h.Append(all...); err != nil {
				b.Fatal(err)
			}
			if _, err := h.Select(budget); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("recount-cached-counter", func(b *testing.B) {
		counter := cupeltiktoken.O200kBase()
		all := append(turns[:len(turns):len(turns)], next)
		for _, t := range all {
			_, _ = counter.Count(t.Content)
		}
		b.ReportAllocs()
		for b.Loop() {
			h, err := chat.NewHistory(counter, chat.HistoryOptions{})
			if err != nil {
				b.Fatal(err)
			}
			if err := h.Append(all...); err != nil {
				b.Fatal(err)
			}
			if _, err := h.Select(budget); err != nil {
				b.Fatal(err)
			}
		}
	})
}
