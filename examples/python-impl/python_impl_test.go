package pythonimpl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cupel-go/go-cupel/internal/cli"
	"github.com/cupel-go/go-cupel/internal/offline"
	"github.com/cupel-go/go-cupel/internal/testtool"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// script is the Python program, relative to this directory (go test runs
// in the package directory).
const script = "cupel_impl.py"

// What cupel_impl.py implements. A case is supported when everything it
// needs is in these lists; every other case must come back unsupported.
var (
	supportedScorers = []string{"recency", "priority", "reflexive"}
	supportedPlacers = []string{"chronological", "u-shaped"}
)

// python3 returns the path of the Python interpreter, or skips the test.
// It asks python3 for sys.executable, so that a version manager's shim
// (pyenv's is a shell script that forks several processes) is resolved
// once rather than at every start of the program.
func python3(t *testing.T) string {
	t.Helper()
	return testtool.Python3(t, "the end-to-end tests of the Python implementation")
}

// supported reports whether cupel_impl.py implements what c needs.
func supported(c *casefile.Case) bool {
	switch c.Stage {
	case casefile.StageScoring:
		return len(c.Input.Scorers) == 1 && slices.Contains(supportedScorers, c.Input.Scorers[0].Type)
	case casefile.StagePlacing:
		return slices.Contains(supportedPlacers, c.Input.Placer)
	}
	return false
}

// wantStatus is the status each case of the suite must get.
func wantStatus(t *testing.T) map[string]protocol.Outcome {
	t.Helper()
	suite, err := casefile.LoadSuite(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(suite.Errors) > 0 {
		t.Fatalf("the embedded suite has %d load errors, first: %v", len(suite.Errors), suite.Errors[0])
	}
	want := map[string]protocol.Outcome{}
	for _, c := range suite.Cases {
		want[c.ID] = protocol.OutcomeUnsupported
		if supported(c) {
			want[c.ID] = protocol.OutcomePass
		}
	}
	return want
}

// TestPythonImplementation runs the embedded suite against cupel_impl.py
// in one session and checks the verdict of every case, per stage, and the
// level.
func TestPythonImplementation(t *testing.T) {
	py := python3(t)
	want := wantStatus(t)

	impl := protocol.NewProcess(protocol.ProcessOptions{
		Argv:           []string{py, script},
		StartupTimeout: 10 * time.Second,
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rep, err := runner.Run(ctx, impl, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Infrastructure != "" {
		t.Fatalf("no verdict: %s\nstderr:\n%s", rep.Infrastructure, rep.InfrastructureStderr)
	}
	if got := rep.Implementation.Name; got != "cupel-python-example" {
		t.Errorf("implementation name %q, want cupel-python-example", got)
	}
	if got := rep.Implementation.Capabilities.Scorers; !slices.Equal(got, supportedScorers) {
		t.Errorf("capabilities list scorers %v, want %v", got, supportedScorers)
	}

	// Every case: supported ones pass, the rest are unsupported (with a
	// reason), nothing fails or errs.
	implemented := map[string]bool{} // scorer or placer -> a required case passed
	for _, c := range rep.Cases {
		w, ok := want[c.ID]
		if !ok {
			t.Errorf("%s: not in the suite", c.ID)
			continue
		}
		delete(want, c.ID)
		if c.Outcome != w {
			t.Errorf("%s: %s (%s), want %s", c.ID, c.Outcome, c.Message, w)
			continue
		}
		if c.Outcome == protocol.OutcomeUnsupported && (c.Actual == nil || c.Actual.Reason == "") {
			t.Errorf("%s: unsupported without a reason", c.ID)
		}
		if c.Outcome == protocol.OutcomePass && c.Tier == casefile.TierRequired && c.Actual != nil {
			implemented[c.Stage] = true
		}
	}
	for id := range want {
		t.Errorf("%s: not in the report", id)
	}
	for _, stage := range []string{casefile.StageScoring, casefile.StagePlacing} {
		if !implemented[stage] {
			t.Errorf("no required %s case passed", stage)
		}
	}

	// Per stage: scoring is split, placing passes in full, slicing and
	// pipeline are unsupported in full.
	for _, tier := range casefile.Tiers {
		for _, stage := range casefile.Stages {
			counts := rep.StageCounts[tier+"/"+stage]
			pass, unsupported := counts[protocol.OutcomePass], counts[protocol.OutcomeUnsupported]
			t.Logf("%-8s %-8s %3d pass, %3d unsupported", tier, stage, pass, unsupported)
			if pass+unsupported == 0 {
				t.Errorf("%s/%s: no case", tier, stage)
			}
			switch stage {
			case casefile.StageScoring:
				if pass == 0 || unsupported == 0 {
					t.Errorf("%s/scoring: %d pass, %d unsupported; want some of each", tier, pass, unsupported)
				}
			case casefile.StagePlacing:
				if unsupported != 0 {
					t.Errorf("%s/placing: %d unsupported, want 0", tier, unsupported)
				}
			default:
				if pass != 0 {
					t.Errorf("%s/%s: %d pass, want 0", tier, stage, pass)
				}
			}
		}
	}

	// Unsupported never counts as a pass: no level, exit code 1.
	if rep.Level != runner.LevelNone {
		t.Errorf("level %s (%s), want none", rep.Level, rep.LevelReason)
	}
	if !strings.Contains(rep.LevelReason, "required cases pass") {
		t.Errorf("level reason %q", rep.LevelReason)
	}
	if err := rep.Err(); !errors.Is(err, runner.ErrFailed) {
		t.Errorf("Err() = %v, want a runner.ErrFailed", err)
	}
	t.Logf("level: %s (%s)", rep.Level.Title(), rep.LevelReason)
}

// TestPythonImplementationExecPerCase runs the required u-shaped placing
// cases with one Python process per case (--exec-per-case). A few cases
// suffice: each costs an interpreter start.
func TestPythonImplementationExecPerCase(t *testing.T) {
	py := python3(t)
	impl := protocol.NewProcess(protocol.ProcessOptions{
		Argv:           []string{py, script},
		ExecPerCase:    true,
		StartupTimeout: 10 * time.Second,
	})
	rep, err := runner.Run(context.Background(), impl, runner.Options{
		Run:    "/u-shaped-",
		Tiers:  []string{casefile.TierRequired},
		Stages: []string{casefile.StagePlacing},
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Infrastructure != "" {
		t.Fatalf("no verdict: %s", rep.Infrastructure)
	}
	ran := 0
	for _, c := range rep.Cases {
		if c.Outcome == protocol.OutcomeSkip {
			continue
		}
		ran++
		if c.Outcome != protocol.OutcomePass {
			t.Errorf("%s: %s (%s)", c.ID, c.Outcome, c.Message)
		}
	}
	if ran == 0 {
		t.Fatal("no placing case ran")
	}
	if rep.Level != runner.LevelNone || !rep.Filtered {
		t.Errorf("a filtered run claims no level: got %s, filtered %v", rep.Level, rep.Filtered)
	}
}

// TestCupelConformCommand runs the command line a user types,
//
//	cupel-conform run --impl-cmd "python3 cupel_impl.py" --quiet
//
// in-process, and checks its exit code and per-stage summary.
func TestCupelConformCommand(t *testing.T) {
	python3(t)
	var stdout, stderr bytes.Buffer
	code := cli.Main([]string{"run", "--quiet", "--impl-cmd", "python3 " + script},
		strings.NewReader(""), &stdout, &stderr)
	out := stdout.String()
	t.Logf("cupel-conform run --impl-cmd \"python3 %s\" --quiet:\n%s", script, out)
	if code != 1 /* not conformant */ {
		t.Errorf("exit code %d, want %d (not conformant)\nstderr:\n%s", code, 1 /* not conformant */, stderr.String())
	}
	if !strings.Contains(out, "implementation: cupel-python-example 0.1.0 (python)\n") {
		t.Errorf("summary lacks the implementation line")
	}
	if !strings.Contains(out, "\nlevel: not conformant (") {
		t.Errorf("summary lacks the level line")
	}
	// One line per tier and stage, e.g. "  scoring:  14 pass, 27 unsupported".
	for _, line := range stageLines(t) {
		if !strings.Contains(out, line) {
			t.Errorf("summary lacks %q", line)
		}
	}
}

// TestOffline runs the offline flow: cupel-conform export writes the run
// messages, the Python program answers them from a file (after a hello
// line of our own) and cupel-conform verify judges the results, with the
// same verdict as a live run.
func TestOffline(t *testing.T) {
	py := python3(t)
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := cli.Main([]string{"export", dir}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("export: exit code %d\n%s", code, stderr.String())
	}
	cases, err := os.ReadFile(filepath.Join(dir, offline.CasesFile))
	if err != nil {
		t.Fatal(err)
	}
	hello := `{"type":"hello","protocol":["cupel-conform/1"]}` + "\n"
	cmd := exec.Command(py, script)
	cmd.Stdin = strings.NewReader(hello + string(cases))
	results, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", script, err)
	}
	if err := os.WriteFile(filepath.Join(dir, offline.ResultsFile), results, 0o644); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	stderr.Reset()
	code := cli.Main([]string{"verify", "--quiet", dir}, strings.NewReader(""), &stdout, &stderr)
	if code != 1 /* not conformant */ {
		t.Errorf("verify: exit code %d, want %d\nstderr:\n%s", code, 1 /* not conformant */, stderr.String())
	}
	out := stdout.String()
	for _, line := range append(stageLines(t), "\nlevel: not conformant (") {
		if !strings.Contains(out, line) {
			t.Errorf("verify summary lacks %q:\n%s", line, out)
		}
	}
}

// stageLines returns the per-stage lines of the text summary that the
// verdict of wantStatus gives.
func stageLines(t *testing.T) []string {
	t.Helper()
	suite, err := casefile.LoadSuite(nil)
	if err != nil {
		t.Fatal(err)
	}
	pass, unsupported := map[string]int{}, map[string]int{}
	for _, c := range suite.Cases {
		if supported(c) {
			pass[c.Tier+"/"+c.Stage]++
		} else {
			unsupported[c.Tier+"/"+c.Stage]++
		}
	}
	var lines []string
	for _, tier := range casefile.Tiers {
		for _, stage := range casefile.Stages {
			var parts []string
			if n := pass[tier+"/"+stage]; n > 0 {
				parts = append(parts, fmt.Sprintf("%d pass", n))
			}
			if n := unsupported[tier+"/"+stage]; n > 0 {
				parts = append(parts, fmt.Sprintf("%d unsupported", n))
			}
			lines = append(lines, fmt.Sprintf("  %-10s%s\n", stage+":", strings.Join(parts, ", ")))
		}
	}
	return lines
}
