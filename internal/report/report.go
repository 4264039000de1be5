// Package report writes the reports of a conformance run for
// cupel-conform: human text, JUnit XML, TAP, Markdown, a shields.io badge,
// and the diff of two JSON reports.
package report

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/protocol"
	"github.com/cupel-go/go-cupel/runner/vector"
)

// statusMessage is "status: message", saying the status once when the
// message already starts with it ("unsupported: unsupported: …" never).
func statusMessage(st protocol.Status, msg string) string {
	if msg == "" {
		return string(st)
	}
	if l := strings.ToLower(msg); strings.HasPrefix(l, string(st)+":") || strings.HasPrefix(l, string(st)+" ") {
		return msg
	}
	return string(st) + ": " + msg
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
	what := map[runner.Outcome]string{runner.OutcomeFail: "failed", runner.OutcomeUnsupported: "unsupported",
		runner.OutcomeXFail: "failed (pinned)"}[c.Outcome()]
	return fmt.Sprintf("%s case %s, not required for %s: %s", c.Tier, what, v.Target.Title(), statusMessage(c.Status, c.Message))
}

// levelTest says whether the "conformance level" test of JUnit and TAP
// passes: it exists only when the run has a target, and fails exactly when
// the verdict's level misses it.
func levelTest(v runner.Verdict) (exists, ok bool, msg string) {
	if v.Target == "" {
		return false, true, ""
	}
	if v.Level.AtLeast(v.Target) {
		return true, true, fmt.Sprintf("%s reaches the target %s", v.LevelText, v.Target.Title())
	}
	return true, false, fmt.Sprintf("%s misses the target %s", v.LevelText, v.Target.Title())
}

// FailureDetail is what the text report says of a case under its header
// line, without colour: the message, the details (the diff), the inputs
// and the stderr tail. The JUnit and TAP reports carry it too.
func FailureDetail(c runner.CaseResult, suite *vector.Suite) string {
	var b strings.Builder
	writeDetail(&b, c, suite)
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "  ")
	}
	return strings.Join(lines, "\n")
}

func writeDetail(b *strings.Builder, c runner.CaseResult, suite *vector.Suite) {
	if c.Message != "" {
		fmt.Fprintf(b, "  %s\n", TextLines(c.Message, "  "))
	}
	details := c.Details
	if len(details) > 0 && strings.HasPrefix(c.Message, details[0]) {
		details = details[1:] // the message already says it
	}
	for _, d := range details {
		fmt.Fprintf(b, "  %s\n", TextLines(d, "  "))
	}
	if suite != nil {
		if cs := suite.Case(c.ID); cs != nil && c.Status != protocol.StatusUnsupported && c.Status != protocol.StatusSkip && c.Status != protocol.StatusNotRun && c.SuiteError == nil {
			b.WriteString("  inputs:\n")
			writeInputs(b, cs)
			if c.Actual != nil && c.Actual.Output != nil && c.Actual.Output.Diagnostics != nil && cs.Expect.Diagnostics == nil {
				d := c.Actual.Output.Diagnostics
				b.WriteString("  actual selection report:\n")
				for _, e := range d.Included {
					fmt.Fprintf(b, "    included %s\n", TextLines(runner.DescribeItem(e, cs), "      "))
				}
				for _, e := range d.Excluded {
					fmt.Fprintf(b, "    excluded %s\n", TextLines(runner.DescribeItem(e, cs), "      "))
				}
			}
		}
	}
	if c.Stderr != "" {
		fmt.Fprintf(b, "  stderr (tail):\n%s\n", TextBlock(c.Stderr, "    | "))
	}
}

func writeInputs(b *strings.Builder, c *vector.Case) {
	in := c.Input
	// The case's protocol form without its items, keys sorted.
	var cfg map[string]json.RawMessage
	if j, err := json.Marshal(vector.Input{PolicySpec: in.PolicySpec, Budget: in.Budget}); err == nil && json.Unmarshal(j, &cfg) == nil {
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

// TextBlock is implementation text (a stderr tail) made safe as a block
// of lines of a report for people: cleaned as [TextLine] cleans it,
// without its trailing newlines, each line after prefix.
func TextBlock(s, prefix string) string {
	s = strings.TrimRight(cleanText(s), "\n")
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

func withoutStderr(c runner.CaseResult) runner.CaseResult {
	c.Stderr = "" // JUnit has it in system-err
	return c
}

func oneLineMsg(s string) string { return strings.ReplaceAll(s, "\n", " ") }

// ReadReport reads a JSON report written by runner.Report.WriteJSON.
func ReadReport(path string) (*runner.Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r runner.Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if r.Schema != runner.ReportSchema {
		return nil, fmt.Errorf("%s: schema %q, want %q", path, r.Schema, runner.ReportSchema)
	}
	return &r, nil
}
