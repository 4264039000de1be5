package conformtest_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cupel-go/go-cupel/internal/fakeimpl"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/conformtest"
)

// TestGateChild is the gate as a user writes it, over the implementation
// $CONFORMTEST_IMPL of the test table, requiring $CONFORMTEST_LEVEL. It
// runs only as the child of TestGateVerdicts, which judges its outcome
// from outside: a gate that fails must fail the go test run.
func TestGateChild(t *testing.T) {
	name := os.Getenv("CONFORMTEST_IMPL")
	if name == "" {
		t.Skip("run by TestGateVerdicts")
	}
	opts := fixtures(t)
	opts.Timeout = 2 * time.Second // generous: only the slow case times out, however loaded the machine
	opts.RequireLevel = runner.Level(os.Getenv("CONFORMTEST_LEVEL"))
	suite, err := casefile.LoadSuite(opts.Suite)
	if err != nil {
		t.Fatal(err)
	}
	conformtest.Test(t, fakeimpl.New(name, suite), opts)
}

// child runs TestGateChild (with the extra -run pattern run, if any) and
// returns whether go test passed and the outcome of each case's subtest.
func child(t *testing.T, impl string, level runner.Level, run string) (passed bool, subtests map[string]string, out string) {
	t.Helper()
	pattern := "^TestGateChild$"
	if run != "" {
		pattern += "/" + run
	}
	cmd := exec.Command(os.Args[0], "-test.run="+pattern, "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "CONFORMTEST_IMPL="+impl, "CONFORMTEST_LEVEL="+string(level))
	b, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("running the child: %v", err)
	}
	subtests = map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^\s+--- (PASS|FAIL|SKIP): TestGateChild/(\S+)`).FindAllStringSubmatch(string(b), -1) {
		subtests[m[2]] = m[1]
	}
	return err == nil, subtests, string(b)
}

// TestGateVerdicts runs the gate over every implementation of the table,
// strict and with each required level: go test passes exactly when
// runner.Check does, and each case's subtest renders the case's class in
// the runner's verdict (gated: FAIL; warning: SKIP; otherwise PASS).
func TestGateVerdicts(t *testing.T) {
	if os.Getenv("CONFORMTEST_IMPL") != "" {
		t.Skip("in the child")
	}
	opts := fixtures(t)
	opts.Timeout = 300 * time.Millisecond
	suite, err := casefile.LoadSuite(opts.Suite)
	if err != nil {
		t.Fatal(err)
	}
	for _, impl := range fakeimpl.Names {
		for _, level := range []runner.Level{"", runner.LevelConformant, runner.LevelFullyConformant} {
			t.Run(impl+"/"+string(level), func(t *testing.T) {
				o := opts
				o.RequireLevel = level
				rep, err := runner.Run(context.Background(), fakeimpl.New(impl, suite), o)
				if err != nil {
					t.Fatal(err)
				}
				v := rep.Verdict()
				if (runner.Check(fakeimpl.New(impl, suite), o) == nil) != v.Passed {
					t.Fatalf("runner.Check disagrees with the verdict %q", v.Line())
				}
				passed, subtests, out := child(t, impl, level, "")
				if passed != v.Passed {
					t.Errorf("go test passed = %v, runner.Check: %s\n%s", passed, v.Line(), out)
				}
				if len(subtests) != len(suite.Cases) {
					t.Errorf("%d subtests, want one per case (%d)\n%s", len(subtests), len(suite.Cases), out)
				}
				want := map[runner.Class]string{runner.ClassGated: "FAIL", runner.ClassWarning: "SKIP", runner.ClassOK: "PASS"}
				for _, c := range v.Cases {
					if got := subtests[c.ID]; got != want[c.Class] {
						t.Errorf("subtest %s: %s, want %s (%s, %s)", c.ID, got, want[c.Class], c.Outcome, c.Class)
					}
				}
				if !v.Passed && !strings.Contains(out, "conformtest: conformance run failed: "+v.Reason) {
					t.Errorf("no verdict failure %q in the output\n%s", v.Reason, out)
				}
				// A failing case names the requirements its vector covers.
				if impl == fakeimpl.FailingRequired && !strings.Contains(out, "\n        requirements: R6.1, R26.1\n") {
					t.Errorf("the failure of the pipeline case does not name its requirements\n%s", out)
				}
			})
		}
	}
}

// TestGateRunFilter: go test -run selects the cases that run, and a
// narrowed run claims no level and is judged strictly on the cases it ran:
// a failing case among those selected fails the gate.
func TestGateRunFilter(t *testing.T) {
	if os.Getenv("CONFORMTEST_IMPL") != "" {
		t.Skip("in the child")
	}
	passed, subtests, out := child(t, fakeimpl.Conformant, runner.LevelFullyConformant, "^required$/^scoring$")
	if !passed {
		t.Errorf("a conformant implementation failed a narrowed gate\n%s", out)
	}
	if len(subtests) != 2 || subtests["required/scoring/recency-basic"] != "PASS" || subtests["required/scoring/composite-configured-children"] != "PASS" {
		t.Errorf("subtests %v, want only the two required scoring cases\n%s", subtests, out)
	}
	if !regexp.MustCompile(`verdict: PASS — nothing unexpected in the cases run; no level claimed \(filtered run\)`).MatchString(out) {
		t.Errorf("the narrowed gate does not say that the level is not checked\n%s", out)
	}

	passed, subtests, out = child(t, fakeimpl.FailingRequired, runner.LevelConformant, "^required$/^scoring$")
	if passed {
		t.Errorf("a failing case in a narrowed gate passed\n%s", out)
	}
	if len(subtests) != 2 || subtests["required/scoring/recency-basic"] != "FAIL" {
		t.Errorf("subtests %v\n%s", subtests, out)
	}

	passed, _, out = child(t, fakeimpl.FailingRequired, "", "^optional$")
	if !passed {
		t.Errorf("the optional cases of failing-required pass, but the narrowed gate failed\n%s", out)
	}
}
