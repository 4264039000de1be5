// Command cachesim simulates a long chat with tool calls, trimmed to a token
// budget before every model call by a chat.History, and measures how much of
// each request repeats the previous request's prefix: what a provider's
// prompt cache can serve again.
//
//	go run ./examples/cachesim -turns 500 -budget 8000 -seed 1 -policy cache
//
// The conversation is generated from the seed: a pinned system prompt, then
// user messages, assistant answers and tool exchanges (an assistant call and
// its result) of varied length. The model is called after every user
// message and every tool result. For each call it prints one JSON line,
//
//	{"turn": i, "selected": [turn indices sent, in order], "tokens": [each one's tokens]}
//
// where i is the newest turn of the conversation, then a summary line with
// the totals and the cost of the calls under Anthropic's published prompt
// cache prices (cache reads at 0.1 times the input price, 5-minute cache
// writes at 1.25 times, nothing cached below 1,024 tokens), in units of the
// price of one input token and in dollars at a base price of $3 per million
// input tokens.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/chat"
)

// Anthropic's prompt cache pricing, as multiples of the base input price,
// and the smallest prefix it caches (Anthropic's prompt caching
// documentation).
const (
	cacheReadPrice  = 0.1
	cacheWritePrice = 1.25
	minCachePrefix  = 1024
	dollarsPerToken = 3.0 / 1e6
	perTurnTokens   = 4
)

// Config are the simulator's settings, one per flag.
type Config struct {
	Turns    int
	Budget   int
	Seed     uint64
	Policy   string
	LowWater float64
}

// Request is one model call.
type Request struct {
	Turn     int   `json:"turn"`
	Selected []int `json:"selected"`
	Tokens   []int `json:"tokens"`
}

// Summary totals a run.
type Summary struct {
	Policy   string `json:"policy"`
	Turns    int    `json:"turns"`
	Budget   int    `json:"budget"`
	Seed     uint64 `json:"seed"`
	Requests int    `json:"requests"`
	// InputTokens are the tokens sent, over all requests.
	InputTokens int `json:"input_tokens"`
	// RepeatedTokens are the tokens of each request's leading turns that
	// are the previous request's leading turns, the same turns with the
	// same counts (what a prompt cache can serve again).
	RepeatedTokens int     `json:"repeated_tokens"`
	RepeatedShare  float64 `json:"repeated_share"`
	// AverageKept is the average tokens of a request, as a share of the
	// budget in AverageKeptShare.
	AverageKept      float64 `json:"average_kept"`
	AverageKeptShare float64 `json:"average_kept_share"`
	// Evictions counts the requests whose first turn after the system
	// prompt differs from the previous request's.
	Evictions int `json:"evictions"`
	// CostUncached is the cost with no caching at all; CostCached with a
	// cache breakpoint at the end of every request, reads of the repeated
	// prefix and writes of the rest (a prefix under 1,024 tokens is neither
	// read nor written). In units of one input token's price.
	CostUncached float64 `json:"cost_uncached"`
	CostCached   float64 `json:"cost_cached"`
	// DollarsUncached and DollarsCached are the costs at $3 per million
	// input tokens.
	DollarsUncached float64 `json:"dollars_uncached"`
	DollarsCached   float64 `json:"dollars_cached"`
}

// words counts white-space separated words: the simulator's tokenizer.
var words = cupel.TokenCounterFunc(func(s string) (int, error) { return len(strings.Fields(s)), nil })

// conversation generates n turns from the seed.
func conversation(n int, seed uint64) []chat.Turn {
	r := rand.New(rand.NewPCG(seed, 26))
	vocab := strings.Fields("the order parcel ships from our warehouse in Lyon and should arrive within three days unless customs hold it for inspection please confirm the address tracking number refund policy applies to items returned within thirty days")
	text := func(lo, hi int) string {
		k := lo + r.IntN(hi-lo+1)
		b := make([]string, k)
		for i := range b {
			b[i] = vocab[r.IntN(len(vocab))]
		}
		return strings.Join(b, " ")
	}
	turns := []chat.Turn{{Role: chat.RoleSystem, Content: "You are Acme's support agent. " + text(150, 250)}}
	call := 0
	for len(turns) < n {
		turns = append(turns, chat.Turn{Role: chat.RoleUser, Content: text(10, 150)})
		for r.IntN(3) == 0 && len(turns)+2 <= n { // tool exchanges
			call++
			id := fmt.Sprintf("call_%d", call)
			turns = append(turns,
				chat.Turn{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: id, Name: "lookup_order", Arguments: `{"query": "` + text(2, 8) + `"}`}}},
				chat.Turn{Role: chat.RoleTool, ToolCallID: id, Name: "lookup_order", Content: text(50, 700)})
		}
		if len(turns) < n {
			turns = append(turns, chat.Turn{Role: chat.RoleAssistant, Content: text(30, 400)})
		}
	}
	turns = turns[:n]
	for i := range turns {
		turns[i].Raw = i // each turn carries its index through the selection
	}
	return turns
}

// tokens is what the History counts for a turn: its text fields and the
// framing. The simulator checks that a request's tokens add up to the
// selection's total.
func tokens(t chat.Turn) int {
	n := perTurnTokens
	for _, s := range []string{t.Content, t.Name} {
		c, _ := words.Count(s)
		n += c
	}
	for _, c := range t.ToolCalls {
		a, _ := words.Count(c.Name)
		b, _ := words.Count(c.Arguments)
		n += a + b
	}
	return n
}

// Run simulates cfg and writes the request lines and the summary to w.
func Run(w io.Writer, cfg Config) (Summary, error) {
	var eviction chat.Eviction
	switch cfg.Policy {
	case "window":
		eviction = chat.EvictWindow
	case "cache":
		eviction = chat.EvictCache
	default:
		return Summary{}, fmt.Errorf("cachesim: -policy must be window or cache (got %q)", cfg.Policy)
	}
	if cfg.Turns < 1 {
		return Summary{}, fmt.Errorf("cachesim: -turns must be >= 1 (got %d)", cfg.Turns)
	}
	budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: cfg.Budget, TargetTokens: cfg.Budget})
	if err != nil {
		return Summary{}, fmt.Errorf("cachesim: -budget: %w", err)
	}
	h, err := chat.NewHistory(words, chat.HistoryOptions{Options: chat.Options{PerTurnTokens: perTurnTokens}, Eviction: eviction, LowWater: cfg.LowWater})
	if err != nil {
		return Summary{}, fmt.Errorf("cachesim: %w", err)
	}
	turns := conversation(cfg.Turns, cfg.Seed)
	sum := Summary{Policy: cfg.Policy, Turns: cfg.Turns, Budget: cfg.Budget, Seed: cfg.Seed}
	enc := json.NewEncoder(w)
	var prev Request
	for i, t := range turns {
		if err := h.Append(t); err != nil {
			return Summary{}, err
		}
		if t.Role != chat.RoleUser && t.Role != chat.RoleTool {
			continue // the model answers user messages and tool results
		}
		sel, err := h.Select(budget)
		if err != nil {
			return Summary{}, err
		}
		req := Request{Turn: i}
		total := 0
		for _, st := range sel.Turns {
			index := st.Raw.(int)
			req.Selected = append(req.Selected, index)
			req.Tokens = append(req.Tokens, tokens(turns[index]))
			total += req.Tokens[len(req.Tokens)-1]
		}
		if total != sel.Result.TotalTokens {
			return Summary{}, fmt.Errorf("cachesim: turn %d: the turns' tokens add up to %d, the selection's to %d", i, total, sel.Result.TotalTokens)
		}
		repeated := 0
		for k := range req.Selected {
			if k >= len(prev.Selected) || prev.Selected[k] != req.Selected[k] || prev.Tokens[k] != req.Tokens[k] {
				break
			}
			repeated += req.Tokens[k]
		}
		if repeated != sel.PrefixTokens {
			return Summary{}, fmt.Errorf("cachesim: turn %d: %d tokens repeat the previous request, the selection says %d", i, repeated, sel.PrefixTokens)
		}
		if sum.Requests > 0 && len(req.Selected) > 1 && len(prev.Selected) > 1 && req.Selected[1] != prev.Selected[1] {
			sum.Evictions++
		}
		sum.Requests++
		sum.InputTokens += total
		sum.RepeatedTokens += repeated
		sum.CostUncached += float64(total)
		switch {
		case total < minCachePrefix:
			sum.CostCached += float64(total)
		case repeated >= minCachePrefix:
			sum.CostCached += cacheReadPrice*float64(repeated) + cacheWritePrice*float64(total-repeated)
		default:
			sum.CostCached += cacheWritePrice * float64(total)
		}
		if err := enc.Encode(req); err != nil {
			return Summary{}, err
		}
		prev = req
	}
	if sum.Requests > 0 {
		sum.RepeatedShare = round(float64(sum.RepeatedTokens) / float64(sum.InputTokens))
		sum.AverageKept = round(float64(sum.InputTokens) / float64(sum.Requests))
		sum.AverageKeptShare = round(sum.AverageKept / float64(cfg.Budget))
	}
	sum.CostCached = round(sum.CostCached)
	sum.DollarsUncached = round(sum.CostUncached * dollarsPerToken)
	sum.DollarsCached = round(sum.CostCached * dollarsPerToken)
	return sum, enc.Encode(map[string]Summary{"summary": sum})
}

func round(x float64) float64 {
	const k = 1e4
	if x < 0 {
		return -round(-x)
	}
	return float64(int64(x*k+0.5)) / k
}

func main() {
	var cfg Config
	flag.IntVar(&cfg.Turns, "turns", 500, "turns in the conversation")
	flag.IntVar(&cfg.Budget, "budget", 8000, "token budget of every request")
	flag.Uint64Var(&cfg.Seed, "seed", 1, "seed of the generated conversation")
	flag.StringVar(&cfg.Policy, "policy", "cache", "eviction: window (newest turns that fit) or cache (chat.EvictCache)")
	flag.Float64Var(&cfg.LowWater, "lowwater", 0, "share of the budget the cache policy drops to (0: chat.DefaultLowWater)")
	flag.Parse()
	if _, err := Run(os.Stdout, cfg); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
