package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cupel-go/go-cupel/internal/testtool"
)

// TestTargets checks the targets of chat.EvictCache at 500 turns and an
// 8,000-token budget on five seeds: at least 85% of the input tokens sent
// repeat the previous request's prefix (a sliding window repeats far
// fewer), and the average request keeps at least 60% of the budget. Under
// -race it checks two of the seeds (testtool.Iterations): the simulator
// runs in one goroutine, and the plain pass checks all five.
func TestTargets(t *testing.T) {
	for seed := uint64(1); seed <= uint64(testtool.Iterations(5, 2)); seed++ {
		cache := run(t, Config{Turns: 500, Budget: 8000, Seed: seed, Policy: "cache"})
		window := run(t, Config{Turns: 500, Budget: 8000, Seed: seed, Policy: "window"})
		if cache.RepeatedShare < 0.85 {
			t.Errorf("seed %d: cache repeats %.3f of the input tokens, want >= 0.85", seed, cache.RepeatedShare)
		}
		if cache.AverageKeptShare < 0.60 {
			t.Errorf("seed %d: cache keeps %.3f of the budget on average, want >= 0.60", seed, cache.AverageKeptShare)
		}
		if window.RepeatedShare > 0.35 {
			t.Errorf("seed %d: window repeats %.3f of the input tokens, want at most 0.35", seed, window.RepeatedShare)
		}
		if cache.DollarsCached > window.DollarsUncached/3 {
			t.Errorf("seed %d: the cache policy costs $%.2f with caching, the window $%.2f: want a third or less", seed, cache.DollarsCached, window.DollarsUncached)
		}
	}
}

// run runs the simulator and checks its output: one line per request whose
// tokens stay in the budget and whose turns are in conversation order,
// then the summary, which agrees with the lines.
func run(t *testing.T, cfg Config) Summary {
	t.Helper()
	var out bytes.Buffer
	sum, err := Run(&out, cfg)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	requests, input := 0, 0
	var last string
	for sc.Scan() {
		line := sc.Text()
		last = line
		if strings.HasPrefix(line, `{"summary"`) {
			break
		}
		var r Request
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("line %d: %v", requests+1, err)
		}
		total := 0
		for k, n := range r.Tokens {
			total += n
			if k > 0 && r.Selected[k] <= r.Selected[k-1] {
				t.Fatalf("turn %d: selected out of order: %v", r.Turn, r.Selected)
			}
		}
		if total > cfg.Budget || len(r.Selected) != len(r.Tokens) || r.Selected[0] != 0 || r.Selected[len(r.Selected)-1] != r.Turn {
			t.Fatalf("turn %d: %d tokens, selected %v: want the system prompt, the newest turn and at most the budget", r.Turn, total, r.Selected)
		}
		requests++
		input += total
	}
	if requests != sum.Requests || input != sum.InputTokens || !strings.HasPrefix(last, `{"summary"`) {
		t.Fatalf("%d requests of %d tokens printed, summary %+v", requests, input, sum)
	}
	return sum
}

func TestFlags(t *testing.T) {
	for _, cfg := range []Config{{Turns: 10, Budget: 100, Policy: "lru"}, {Turns: 0, Budget: 100, Policy: "cache"}, {Turns: 10, Budget: -1, Policy: "cache"}} {
		if _, err := Run(&bytes.Buffer{}, cfg); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
}
