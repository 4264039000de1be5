package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/policy.golden")

// TestDefaultPolicy checks the selection that policy.toml makes, against
// testdata/policy.golden (go test ./examples/policyfile -update rewrites it).
func TestDefaultPolicy(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := realMain(nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit code %d\n%s", code, stderr.String())
	}
	golden := filepath.Join("testdata", "policy.golden")
	if *update {
		if err := os.WriteFile(golden, stdout.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := stdout.String(); got != string(want) {
		t.Errorf("output differs from %s (rerun with -update if the change is intended):\n%s", golden, got)
	}
	// What the policy is for, independently of the golden file: the pinned
	// system prompt and the latest user turn are in; the duplicate
	// document and the two oversized items are out.
	out := stdout.String()
	for _, s := range []string{
		"policy policy.toml: composite scorer, knapsack slicer, u-shaped placer\n",
		"  1  SystemPrompt   180  1.000  Pinned ",
		"Message         18  0.630  Scored   user: It says my account is locked.",
		"left out: 3 items\n",
		"Deduplicated: duplicate of",
		"BudgetExceeded: 1400 tokens requested",
		"BudgetExceeded: 900 tokens requested",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q", s)
		}
	}
}

// TestPolicyFiles runs the command on policy files of testdata/ and checks
// the exit code and a line of its output or error.
func TestPolicyFiles(t *testing.T) {
	for _, tc := range []struct {
		file string
		code int
		want string
	}{
		// JSON works too, decoded as strictly.
		{"greedy-chronological.json", 0, "policy testdata/greedy-chronological.json: recency scorer, greedy slicer, chronological placer\n"},
		// A typo is an error, not a silent default.
		{"unknown-key.toml", 1, "testdata/unknown-key.toml: cupel: invalid configuration: unknown keys: bucket_sise\n"},
		// An invalid value names the field.
		{"negative-weight.toml", 1, "testdata/negative-weight.toml: cupel: invalid configuration: policy.Spec: scorers[1].weight: weight must be positive (got -1)\n"},
		// An invalid TOML document names the line.
		{"syntax-error.toml", 1, "testdata/syntax-error.toml: cupel: invalid configuration: toml: line "},
		// Throw: the selection does not fit the target.
		{"overflow-throw.toml", 1, "testdata/overflow-throw.toml: the run failed: cupel: selected items require 1640 tokens, exceeding target budget of 1200\n"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := realMain([]string{"-policy", filepath.Join("testdata", tc.file)}, &stdout, &stderr)
			if code != tc.code {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, stdout.String(), stderr.String())
			}
			if got := stdout.String() + stderr.String(); !strings.Contains(got, tc.want) {
				t.Errorf("output lacks %q:\n%s", tc.want, got)
			}
		})
	}
}

// TestUsage checks the usage errors.
func TestUsage(t *testing.T) {
	for _, args := range [][]string{
		{"-policy", "testdata/no-such-file.toml"},
		{"-now", "yesterday"},
		{"extra"},
		{"-no-such-flag"},
	} {
		var stdout, stderr bytes.Buffer
		if code := realMain(args, &stdout, &stderr); code != 2 {
			t.Errorf("%q: exit code %d, want 2\n%s", args, code, stderr.String())
		}
	}
}
