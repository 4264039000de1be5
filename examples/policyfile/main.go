// Command policyfile selects the context of a support agent's turn with a
// policy read from a TOML file: the scorer, slicer and placer, with their
// configuration, the deduplication switch and the overflow strategy.
//
//	go run ./examples/policyfile                        # the policy.toml of this directory
//	go run ./examples/policyfile -policy my-policy.toml
//	go run ./examples/policyfile -policy my-policy.json
//
// The file is decoded with policy.Decode, strictly (an unknown key is an
// error, so a typo never silently falls back to a default), which
// validates every value and names the field at fault:
//
//	my-policy.toml: cupel: invalid configuration: policy.Spec: scorers[0].weight: weight must be positive (got -1)
//
// The candidates and the budget are those of examples/agentcontext. Decay
// scorers read a clock; -now sets it (by default the moment of the turn,
// so that the output is reproducible).
package main

import (
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/policy"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/examples/agentcontext"
)

// defaultPolicy is policy.toml, embedded so that the command runs from any
// directory.
//
//go:embed policy.toml
var defaultPolicy []byte

// turnTime is the moment of the agent's turn, one minute after its latest
// message.
const turnTime = "2026-11-22T09:36:00Z"

func main() {
	os.Exit(realMain(os.Args[1:], os.Stdout, os.Stderr))
}

// realMain runs the command with args and returns its exit code: 0, 1 when
// the policy is invalid or the run fails, 2 for a usage error.
func realMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("policyfile", flag.ContinueOnError)
	fs.SetOutput(stderr)
	policyPath := fs.String("policy", "", "read the policy from `FILE` (.toml or .json; default: the embedded policy.toml)")
	now := fs.String("now", turnTime, "the decay scorers' clock, RFC 3339")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "unexpected arguments: %s\n", strings.Join(fs.Args(), " "))
		return 2
	}
	name, data := "policy.toml", defaultPolicy
	if *policyPath != "" {
		var err error
		if data, err = os.ReadFile(*policyPath); err != nil {
			fmt.Fprintln(stderr, err)
			return 2
		}
		name = *policyPath
	}
	clock, err := time.Parse(time.RFC3339, *now)
	if err != nil {
		fmt.Fprintf(stderr, "-now: %v\n", err)
		return 2
	}
	if err := run(stdout, name, data, clock); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}

// run builds the policy in data (read from the file called name), selects
// the turn's context with it and writes the window and the exclusions.
func run(w io.Writer, name string, data []byte, now time.Time) error {
	clock := scorer.ClockFunc(func() time.Time { return now })
	spec, err := policy.Decode(name, data)
	if err != nil {
		return err
	}
	pol, err := spec.Build(policy.WithClock(clock))
	if err != nil {
		return err
	}
	pipeline, err := cupel.NewPipeline(pol)
	if err != nil {
		return err
	}
	budget := agentcontext.Budget()
	var report cupel.SelectionReport
	result, err := pipeline.Run(agentcontext.Items(), budget, cupel.WithReport(&report))
	if err != nil {
		return fmt.Errorf("%s: the run failed: %w", name, err)
	}

	scorer := "composite"
	if len(spec.Scorers) == 1 {
		scorer = spec.Scorers[0].Type
	}
	fmt.Fprintf(w, "policy %s: %s scorer, %s slicer, %s placer\n", name, scorer, spec.Slicer, spec.Placer)
	fmt.Fprintf(w, "budget: %d tokens, target %d, output reserve %d\n\n",
		budget.MaxTokens(), budget.TargetTokens(), budget.OutputReserve())
	fmt.Fprintf(w, "context window: %d items, %d tokens\n", len(result.Items), result.TotalTokens)
	for i, in := range report.Included {
		fmt.Fprintf(w, "%3d  %-12s %5d  %.3f  %-8s %s\n", i+1, in.Item.Kind(), in.Item.Tokens(), in.Score, in.Reason, short(in.Item.Content()))
	}
	fmt.Fprintf(w, "\nleft out: %d items\n", len(report.Excluded))
	for _, ex := range report.Excluded {
		fmt.Fprintf(w, "     %-12s %5d  %.3f  %s\n          %s\n", ex.Item.Kind(), ex.Item.Tokens(), ex.Score, short(ex.Item.Content()), ex.Reason)
	}
	return nil
}

// short cuts s to 60 characters for display.
func short(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:59]) + "…"
	}
	return s
}
