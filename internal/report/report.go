// Package report writes the reports of a conformance run for
// cupel-conform: human text, JUnit XML, TAP, Markdown, a shields.io badge,
// and the diff of two JSON reports.
package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/cupel-go/go-cupel/internal/safetext"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/explore"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// outcomeMessage is "outcome: message", saying the outcome once when the
// message already starts with it ("unsupported: unsupported: …" never).
func outcomeMessage(st protocol.Outcome, msg string) string {
	if msg == "" {
		return string(st)
	}
	if l := strings.ToLower(msg); strings.HasPrefix(l, string(st)+":") || strings.HasPrefix(l, string(st)+" ") {
		return msg
	}
	return string(st) + ": " + msg
}

// implementationName is the implementation's name as its hello gave it,
// or "(unknown)" when it gave none (it did not start).
func implementationName(r *runner.Report) string {
	if r.Implementation.Name == "" {
		return "(unknown)"
	}
	return r.Implementation.Name
}

// casesCount is "1 case" or "N cases".
func casesCount(n int) string {
	if n == 1 {
		return "1 case"
	}
	return fmt.Sprintf("%d cases", n)
}

// reasonOf is an unsupported case's reason without a leading
// "unsupported:".
func reasonOf(c runner.CaseResult) string {
	m := strings.TrimSpace(c.Message)
	if l := strings.ToLower(m); strings.HasPrefix(l, "unsupported:") {
		m = strings.TrimSpace(m[len("unsupported:"):])
	}
	if m == "" {
		m = "(no reason given)"
	}
	return m
}

// warningMessage is what JUnit and TAP say of a warning: a case the
// target does not require.
func warningMessage(c runner.CaseResult, v runner.Verdict) string {
	return fmt.Sprintf("%s case, not required for %s: %s", c.Tier, v.Target.Title(), outcomeMessage(c.Outcome, c.Message))
}

// levelTest says whether the "conformance level" test of JUnit, TAP and
// the go test -json stream passes: it exists only when the run has a
// target and did not stop without a verdict (the infrastructure test
// stands for it then), and fails exactly when the verdict's level misses
// it.
func levelTest(r *runner.Report, v runner.Verdict) (exists, ok bool, msg string) {
	if v.Target == "" || r.Infrastructure != "" {
		return false, true, ""
	}
	if v.Level.AtLeast(v.Target) {
		return true, true, fmt.Sprintf("%s reaches the target %s", v.LevelText, v.Target.Title())
	}
	return true, false, fmt.Sprintf("%s misses the target %s", v.LevelText, v.Target.Title())
}

// InfrastructureTestName is the name of the test case of the JUnit
// report, the test point of the TAP report and the test of the go test
// -json stream that stands for a run that stopped without a verdict
// ([runner.Report.Infrastructure]): the one test that fails, once, with
// the error and the implementation's stderr tail. The cases not run are
// skipped, and there is no "conformance level" test.
const InfrastructureTestName = "infrastructure"

// infrastructureStderr is what the infrastructure test says under the
// error, one line a slice entry: the implementation's stderr tail, or nil.
// The lines are implementation text: each format makes them safe as it
// makes the rest of its text safe.
func infrastructureStderr(r *runner.Report) []string {
	if r.InfrastructureStderr == "" {
		return nil
	}
	return append([]string{"stderr (tail):"}, strings.Split(safetext.Block(r.InfrastructureStderr, "  | "), "\n")...)
}

// FailureDetail is what the text report says of a case under its header
// line, without colour: the message, the details (the diff), the inputs
// and the stderr tail. The JUnit and TAP reports carry it too.
func FailureDetail(c runner.CaseResult, suite *casefile.Suite) string {
	var b strings.Builder
	writeDetail(&b, c, suite)
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "  ")
	}
	return strings.Join(lines, "\n")
}

func writeDetail(b *strings.Builder, c runner.CaseResult, suite *casefile.Suite) {
	if len(c.Details) == 0 || !strings.HasPrefix(c.Message, c.Details[0]) {
		if c.Message != "" {
			fmt.Fprintf(b, "  %s\n", safetext.Lines(c.Message, "  "))
		}
	} // else the message is the first problem and a count of the others, all listed below
	writeProblems(b, c.Details, DefaultMaxFailures)
	if suite != nil {
		if cs := suite.Case(c.ID); cs != nil && c.Outcome != protocol.OutcomeUnsupported && c.Outcome != protocol.OutcomeSkip && c.Outcome != protocol.OutcomeNotRun && c.SuiteError == nil {
			b.WriteString("  inputs:\n")
			writeInputs(b, cs)
			if c.Actual != nil && c.Actual.Output != nil && c.Actual.Output.Diagnostics != nil && cs.Expect.Diagnostics == nil {
				d := c.Actual.Output.Diagnostics
				b.WriteString("  actual selection report:\n")
				for _, e := range d.Included {
					fmt.Fprintf(b, "    included %s\n", safetext.Lines(runner.DescribeItem(e, cs), "      "))
				}
				for _, e := range d.Excluded {
					fmt.Fprintf(b, "    excluded %s\n", safetext.Lines(runner.DescribeItem(e, cs), "      "))
				}
			}
		}
	}
	if c.Stderr != "" {
		fmt.Fprintf(b, "  stderr (tail):\n%s\n", safetext.Block(c.Stderr, "    | "))
	}
}

// writeProblems writes details, the problems of a failed comparison, each
// a line followed by its indented lines of diff: the first limit problems
// (0: all), then how many more the JSON report has.
func writeProblems(b *strings.Builder, details []string, limit int) {
	shown := 0
	for i, d := range details {
		if !strings.HasPrefix(d, " ") {
			if limit > 0 && shown == limit {
				more := 0
				for _, d := range details[i:] {
					if !strings.HasPrefix(d, " ") {
						more++
					}
				}
				noun := "problems"
				if more == 1 {
					noun = "problem"
				}
				fmt.Fprintf(b, "  … and %d more %s (see the JSON report)\n", more, noun)
				return
			}
			shown++
		}
		fmt.Fprintf(b, "  %s\n", safetext.Lines(d, "  "))
	}
}

func writeInputs(b *strings.Builder, c *casefile.Case) {
	in := c.Input
	// The case's protocol form without its items, keys sorted.
	var cfg map[string]json.RawMessage
	if j, err := json.Marshal(casefile.Input{Spec: in.Spec, Budget: in.Budget}); err == nil && json.Unmarshal(j, &cfg) == nil {
		delete(cfg, "items")
		if j, err := json.Marshal(cfg); err == nil {
			fmt.Fprintf(b, "    config: %s\n", j)
		}
	}
	const maxItems = 20
	for i, it := range in.Items {
		if i == maxItems {
			fmt.Fprintf(b, "    … %d more items\n", len(in.Items)-maxItems)
			break
		}
		j, _ := json.Marshal(it)
		fmt.Fprintf(b, "    %s\n", j)
	}
}

func withoutStderr(c runner.CaseResult) runner.CaseResult {
	c.Stderr = "" // JUnit has it in system-err
	return c
}

func oneLineMsg(s string) string { return strings.ReplaceAll(s, "\n", " ") }

// ErrNotRunReport is the error of ReadReport for a file that is not the
// JSON report of a run.
var ErrNotRunReport = errors.New("want the JSON report of a run (cupel-conform run --json FILE, schema " + runner.ReportSchema + ")")

// ReadReport reads a JSON report written by runner.Report.WriteJSON.
func ReadReport(path string) (*runner.Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var head struct {
		Schema string `json:"schema"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("%s is not JSON (%v): %w", path, err, ErrNotRunReport)
	}
	switch {
	case slices.Contains(runner.ReportSchemas, head.Schema):
	case slices.Contains(explore.ReportSchemas, head.Schema):
		return nil, fmt.Errorf("%s is the report of an exploration (cupel-conform explore --json): %w", path, ErrNotRunReport)
	default:
		return nil, fmt.Errorf("%s has schema %q: %w", path, head.Schema, ErrNotRunReport)
	}
	var r runner.Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &r, nil
}
