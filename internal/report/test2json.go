package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// TestEvent is one event of the stream `go test -json` writes (the
// format of cmd/test2json): what gotestsum and other Go test tools read.
type TestEvent struct {
	Time    time.Time `json:"Time"`
	Action  string    `json:"Action"`
	Package string    `json:"Package,omitempty"`
	Test    string    `json:"Test,omitempty"`
	Elapsed *float64  `json:"Elapsed,omitempty"`
	Output  string    `json:"Output,omitempty"`
}

// Test2JSONPackage is the package name a run's test2json stream gives its
// tests: "cupel-conform/" and the implementation's name.
func Test2JSONPackage(r *runner.Report) string {
	name := r.Implementation.Name
	if name == "" {
		name = "implementation"
	}
	return "cupel-conform/" + strings.ReplaceAll(name, " ", "_")
}

// WriteTest2JSON writes the report as the event stream of `go test -json`,
// rendering the run's [runner.Verdict]: one test per case, named by the
// case id, in the package [Test2JSONPackage]. A gated case fails (its
// failure detail is its output); a warning is skipped with the reason; a
// case not run is skipped; any other case passes. Each case is a subtest
// of a test named by its tier, which fails when one of its cases does; a
// case left out by the filters or by --failfast is not in the stream. A
// run that stopped without a verdict has one failing test,
// "infrastructure", whose output is the error and the implementation's
// stderr tail. Otherwise, when the run has a target level, a last test,
// "conformance level", fails exactly when the level misses it. The
// package passes exactly when the verdict does, and its output ends with
// the verdict line. suite, when set, lets failures show their inputs.
func WriteTest2JSON(w io.Writer, r *runner.Report, suite *casefile.Suite) error {
	v := r.Verdict()
	class := v.Classes()
	pkg := Test2JSONPackage(r)
	enc := json.NewEncoder(w)
	now := r.Started
	emit := func(action, test, output string, elapsed *runner.Seconds) error {
		e := TestEvent{Time: now, Action: action, Package: pkg, Test: test, Output: output}
		if elapsed != nil {
			s := time.Duration(*elapsed).Seconds()
			e.Elapsed = &s
		}
		return enc.Encode(e)
	}
	if err := emit("start", "", "", nil); err != nil {
		return err
	}
	test := func(name, action string, lines []string, d runner.Seconds) error {
		if err := emit("run", name, "", nil); err != nil {
			return err
		}
		if err := emit("output", name, "=== RUN   "+name+"\n", nil); err != nil {
			return err
		}
		for _, l := range lines {
			if err := emit("output", name, "    "+l+"\n", nil); err != nil {
				return err
			}
		}
		now = now.Add(time.Duration(d))
		word := map[string]string{"pass": "PASS", "fail": "FAIL", "skip": "SKIP"}[action]
		if err := emit("output", name, fmt.Sprintf("--- %s: %s (%.2fs)\n", word, name, time.Duration(d).Seconds()), nil); err != nil {
			return err
		}
		return emit(action, name, "", &d)
	}
	// A case the filters left out, or that --failfast did not run, is not
	// in the stream, as go test -run and -failfast leave such tests out.
	// Each case is a subtest of its tier, as t.Run makes them: Go tools
	// read a test name's first "/" as the step from a test to its subtest,
	// and a subtest without its parent test is none of theirs.
	for _, tier := range casefile.Tiers {
		var cases []runner.CaseResult
		for _, c := range r.Cases {
			if c.Tier == tier && c.Outcome != protocol.OutcomeSkip {
				cases = append(cases, c)
			}
		}
		if len(cases) == 0 {
			continue
		}
		if err := emit("run", tier, "", nil); err != nil {
			return err
		}
		if err := emit("output", tier, "=== RUN   "+tier+"\n", nil); err != nil {
			return err
		}
		start, action := now, "pass"
		for _, c := range cases {
			a, lines := caseTest(r, c, class[c.ID], v, suite)
			if a == "fail" {
				action = "fail"
			}
			if err := test(c.ID, a, lines, c.Duration); err != nil {
				return err
			}
		}
		d := runner.Seconds(now.Sub(start))
		if err := emit("output", tier, fmt.Sprintf("--- %s: %s (%.2fs)\n", strings.ToUpper(action), tier, time.Duration(d).Seconds()), nil); err != nil {
			return err
		}
		if err := emit(action, tier, "", &d); err != nil {
			return err
		}
	}
	if r.Infrastructure != "" {
		lines := strings.Split(tapSafe(strings.Join(append([]string{r.Infrastructure}, infrastructureStderr(r)...), "\n")), "\n")
		if err := test(InfrastructureTestName, "fail", lines, 0); err != nil {
			return err
		}
	}
	if exists, ok, why := levelTest(r, v); exists {
		action := "pass"
		if !ok {
			action = "fail"
		}
		if err := test(LevelTestName, action, []string{why + " (" + r.LevelReason + ")"}, 0); err != nil {
			return err
		}
	}
	now = r.Started.Add(time.Duration(r.Duration))
	tail := append(requirementSummary(r), tapSafe(v.Line()))
	word, action := "ok  ", "pass"
	if !v.Passed {
		word, action = "FAIL", "fail"
		tail = append(tail, "FAIL")
	}
	for _, l := range tail {
		if err := emit("output", "", l+"\n", nil); err != nil {
			return err
		}
	}
	if err := emit("output", "", fmt.Sprintf("%s\t%s\t%.3fs\n", word, pkg, time.Duration(r.Duration).Seconds()), nil); err != nil {
		return err
	}
	return emit(action, "", "", &r.Duration)
}

// detailLines is a gated case's failure detail, one line a slice entry.
func detailLines(r *runner.Report, c runner.CaseResult, suite *casefile.Suite) []string {
	d := strings.TrimRight(tapSafe(FailureDetail(c, suite)), "\n")
	if d == "" {
		return []string{string(c.Outcome)}
	}
	lines := strings.Split(d, "\n")
	if first, _, _ := strings.Cut(tapSafe(c.Message), "\n"); first != "" && strings.HasPrefix(first, lines[0]) {
		lines[0] = outcomeMessage(c.Outcome, first) // say what came of the case
	}
	return append(requirementText(r, c), lines...)
}

// caseTest is the action of a case's test, by its class, and its output
// lines: a gated case fails with its failure detail; a warning is skipped
// with the reason; a case not run is skipped; any other case passes.
func caseTest(r *runner.Report, c runner.CaseResult, class runner.Class, v runner.Verdict, suite *casefile.Suite) (string, []string) {
	switch class {
	case runner.ClassGated:
		return "fail", detailLines(r, c, suite)
	case runner.ClassWarning:
		return "skip", []string{tapSafe(warningMessage(c, v))}
	}
	if !c.Ran() {
		return "skip", []string{tapSafe(outcomeMessage(c.Outcome, c.Message))}
	}
	if c.Outcome == protocol.OutcomeXFail {
		return "pass", []string{tapSafe(outcomeMessage(c.Outcome, c.Message))}
	}
	return "pass", nil
}
