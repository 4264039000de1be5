package main

import (
	"strings"
	"testing"
)

// TestRun checks that the example prints, for each run, the root span, the
// five stage spans, exclusion events for every reason and included items.
func TestRun(t *testing.T) {
	var b strings.Builder
	if err := run(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"=== StageOnly:", "=== StageAndExclusions:", "=== Full:", "=== Full, OverflowTruncate:", "=== Full, failed run:",
		"cupel.pipeline  [", `cupel.verbosity = "StageOnly"`, `cupel.verbosity = "Full"`, "cupel.budget.max_tokens = 200",
		"├── cupel.stage.classify", "├── cupel.stage.score", "├── cupel.stage.deduplicate", "├── cupel.stage.slice", "└── cupel.stage.place",
		"cupel.stage.item_count_in = 10", "cupel.stage.item_count_out = 9", "cupel.exclusion.count = 3",
		`cupel.exclusion.reason="NegativeTokens"`, `cupel.exclusion.reason="Deduplicated"`, `cupel.exclusion.reason="CountCapExceeded"`,
		`cupel.exclusion.reason="PinnedOverride"`, `cupel.exclusion.reason="BudgetExceeded"`,
		`• cupel.item.included @`, `cupel.item.kind="SystemPrompt" cupel.item.tokens=20 cupel.item.score=1`,
		"ERROR: cupel: pinned items require 20 tokens",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if n := strings.Count(out, "cupel.stage.place  ["); n != 4 {
		t.Errorf("%d place spans, want 4 (one per successful run)", n)
	}
	if t.Failed() {
		t.Log(out)
	}
}
