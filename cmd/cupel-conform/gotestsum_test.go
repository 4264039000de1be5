package main

import (
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cupel-go/go-cupel/internal/cli"
	"github.com/cupel-go/go-cupel/internal/fakeimpl"
	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/internal/testtool"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// gotestsumVersion is the gotestsum the --test2json stream is tested with.
const gotestsumVersion = "gotest.tools/gotestsum@v1.13.0"

// gotestsum installs gotestsum into a temporary directory through the Go
// module proxy (it is not a dependency of the module) and returns its
// path. Without network it skips, and fails under CI=true.
func gotestsum(t *testing.T) string {
	t.Helper()
	bin := t.TempDir()
	cmd := exec.Command("go", "install", gotestsumVersion)
	cmd.Env = append(os.Environ(), "GOBIN="+bin, "GOFLAGS=-mod=mod")
	cmd.Dir = bin // outside the module: @version needs no go.mod entry
	if out, err := cmd.CombinedOutput(); err != nil {
		if testtool.CI() {
			t.Fatalf("go install %s: %v\n%s", gotestsumVersion, err, out)
		}
		t.Skipf("go install %s failed (no module proxy here?): %v\n%s", gotestsumVersion, err, out)
	}
	return filepath.Join(bin, "gotestsum")
}

// doneLine is gotestsum's summary: "DONE 376 tests, 4 skipped, 321 failures in 0.55s".
var doneLine = regexp.MustCompile(`(?m)^DONE (?:(\d+) runs, )?(\d+) tests?(?:, (\d+) skipped)?(?:, (\d+) failures?)?(?:, (\d+) errors?)? in `)

// streamCounts are the counts a run's test2json stream must make
// gotestsum print, from the run's verdict: one test per case that was run
// or not (a case left out by the filters or --failfast is no test), one
// per tier (failing when a case of it is gated), and the level test when
// there is a target, or the one failing test "infrastructure" when the run
// stopped without a verdict (its cases are skipped).
func streamCounts(rep *runner.Report) (tests, skipped, failures int) {
	v := rep.Verdict()
	failingTier := map[string]bool{}
	for _, c := range rep.Cases {
		if c.Outcome == protocol.OutcomeSkip {
			continue
		}
		if _, ok := failingTier[c.Tier]; !ok {
			failingTier[c.Tier] = false
			tests++
		}
		tests++
		switch class, _ := v.ClassOf(c.ID); {
		case class == runner.ClassGated:
			failures++
			failingTier[c.Tier] = true
		case class == runner.ClassWarning, !c.Ran():
			skipped++
		}
	}
	for _, f := range failingTier {
		if f {
			failures++
		}
	}
	switch {
	case rep.Infrastructure != "":
		tests++ // the one test "infrastructure", instead of the level's
		failures++
	case v.Target != "":
		tests++
		if !v.Level.AtLeast(v.Target) {
			failures++
		}
	}
	return tests, skipped, failures
}

// TestGotestsum runs cupel-conform run --test2json under gotestsum
// --raw-command and checks that gotestsum shows the run as the run says
// it went: its summary counts, its JUnit file and its exit code, for
// go-cupel, the Python example and test implementations that pass with
// warnings and that fail; and that --rerun-fails reruns the failed cases.
func TestGotestsum(t *testing.T) {
	if testing.Short() {
		t.Skip("installs gotestsum and runs it (-short)")
	}
	gts := gotestsum(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	fixtures, python := abs(t, fixtureSuite), abs(t, pythonImpl)
	runs := []struct {
		name  string
		args  []string
		rerun bool
	}{
		{"go-cupel", nil, false},
		{"python", []string{"--impl-cmd", "python3 " + python}, false},
		{"optional-failures", []string{"--suite", fixtures, "--require-level", "conformant", "--impl-cmd", implCmd(t, fakeimpl.OptionalFailures)}, false},
		{"failing-required", []string{"--suite", fixtures, "--require-level", "conformant", "--impl-cmd", implCmd(t, fakeimpl.FailingRequired)}, true},
		{"failing-required-filtered", []string{"--suite", fixtures, "--stage", "scoring", "--impl-cmd", implCmd(t, fakeimpl.FailingRequired)}, false},
		{"cannot-start", []string{"--suite", fixtures, "--require-level", "conformant", "--impl-cmd", "python3 " + filepath.Join(t.TempDir(), "nonexistent.py")}, false},
	}
	// The README's rerun line, for the partial Python example: gotestsum
	// reruns nothing past 10 failures, and exits 3 (its own error).
	t.Run("rerun-fails-partial", func(t *testing.T) {
		testtool.Python3(t, "the Python example under gotestsum")
		cmd := exec.Command(gts, "--rerun-fails", "--raw-command", "--", self, "run", "--test2json", "--impl-cmd", "python3 "+python)
		cmd.Env = append(os.Environ(), "CUPEL_CONFORM_MAIN=1")
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 3 {
			t.Errorf("gotestsum --rerun-fails over a partial implementation: %v, want exit code 3\n%s", err, out)
		}
		if !regexp.MustCompile(`number of test failures \(\d+\) exceeds maximum \(10\) set by --rerun-fails-max-failures`).Match(out) {
			t.Errorf("gotestsum does not say why it reruns nothing, as the README says it does:\n%s", out)
		}
	})
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			if r.name == "python" || r.name == "cannot-start" {
				testtool.Python3(t, "the Python example under gotestsum")
			}
			dir := t.TempDir()
			jsonPath, junitPath := filepath.Join(dir, "report.json"), filepath.Join(dir, "junit.xml")
			args := []string{"--format", "testname", "--junitfile", junitPath}
			if r.rerun {
				args = append(args, "--rerun-fails=1", "--rerun-fails-max-failures=1000")
			}
			args = append(args, "--raw-command", "--", self, "run", "--test2json", "--json", jsonPath)
			cmd := exec.Command(gts, append(args, r.args...)...)
			cmd.Env = append(os.Environ(), "CUPEL_CONFORM_MAIN=1")
			out, err := cmd.CombinedOutput()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			rep, rerr := report.ReadReport(jsonPath)
			if rerr != nil {
				t.Fatalf("%v\n%s", rerr, out)
			}
			want := cli.ExitCode(rep) // gotestsum exits with the command's code
			if code != want {
				t.Errorf("gotestsum exit code %d, want %d (verdict: %s)\n%s", code, want, rep.Verdict().Line(), out)
			}
			all := doneLine.FindAllStringSubmatch(string(out), -1)
			if all == nil {
				t.Fatalf("no DONE line in gotestsum's output:\n%s", out)
			}
			m := all[len(all)-1] // with --rerun-fails, a summary precedes each rerun
			tests, skipped, failures := streamCounts(rep)
			got := []int{atoi(m[1], 1), atoi(m[2], 0), atoi(m[3], 0), atoi(m[4], 0)}
			if !r.rerun && (got[0] != 1 || got[1] != tests || got[2] != skipped || got[3] != failures) {
				t.Errorf("gotestsum: %q, want 1 run, %d tests, %d skipped, %d failures (verdict: %s)", strings.TrimSpace(m[0]), tests, skipped, failures, rep.Verdict().Line())
			}
			if m[5] != "" {
				t.Errorf("gotestsum counted errors (output on stderr): %q\n%s", m[0], out)
			}
			if !r.rerun {
				checkGotestsumJUnit(t, junitPath, tests, skipped, failures)
			}
			if r.name == "cannot-start" {
				// One failure, which says why: Python's own message. (The
				// testname format shows a failure's output as it happens,
				// then again in its summary of failures.)
				_, summary, _ := strings.Cut(string(out), "\n=== Failed\n")
				if n, f := strings.Count(summary, "can't open file"), strings.Count(summary, "=== FAIL: "); n != 1 || f != 1 || failures != 1 {
					t.Errorf("gotestsum's summary shows %d failures and Python's \"can't open file\" %d times; want once, in the one failure:\n%s", f, n, out)
				}
			}
			if r.rerun {
				checkRerun(t, rep, string(out), got)
			}
		})
	}
}

func atoi(s string, def int) int {
	if s == "" {
		return def
	}
	n, _ := strconv.Atoi(s)
	return n
}

// checkGotestsumJUnit checks the counts of the JUnit file gotestsum wrote.
func checkGotestsumJUnit(t *testing.T, path string, tests, skipped, failures int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var j struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Skipped int `xml:"skipped,attr"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &j); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	sk := 0
	for _, s := range j.Suites {
		sk += s.Skipped
	}
	if j.Tests != tests || j.Failures != failures || sk != skipped {
		t.Errorf("gotestsum's JUnit: %d tests, %d failures, %d skipped; want %d, %d, %d", j.Tests, j.Failures, sk, tests, failures, skipped)
	}
}

// checkRerun checks a --rerun-fails=1 run of an implementation whose
// failures are deterministic: each gated case is rerun once, alone (as
// -test.run selects it), and fails again, with its tier.
func checkRerun(t *testing.T, rep *runner.Report, out string, got []int) {
	t.Helper()
	v := rep.Verdict()
	var gated []string
	for _, c := range v.Cases {
		if c.Class == runner.ClassGated {
			gated = append(gated, c.ID)
		}
	}
	if len(gated) == 0 {
		t.Fatal("the failing implementation has no gated case")
	}
	tests, _, failures := streamCounts(rep)
	// A rerun of one case is a run of its tier with that case alone: 2
	// tests, 2 failures. A rerun of the failed level test is the whole
	// run again (the level is the whole run's).
	wantTests, wantFailures := tests+2*len(gated), failures+2*len(gated)
	if v.Target != "" && !v.Level.AtLeast(v.Target) {
		wantTests, wantFailures = wantTests+tests, wantFailures+failures
	}
	if got[0] != 2 || got[1] != wantTests || got[3] != wantFailures {
		t.Errorf("gotestsum --rerun-fails=1: %d runs, %d tests, %d failures; want 2, %d, %d\n%s", got[0], got[1], got[3], wantTests, wantFailures, out)
	}
	for _, id := range gated {
		if !strings.Contains(out, fmt.Sprintf("=== FAIL: %s %s (re-run 1)", "cupel-conform/fakeimpl-"+fakeimpl.FailingRequired, id)) {
			t.Errorf("no rerun of %s in gotestsum's output", id)
		}
	}
}
