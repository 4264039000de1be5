// Package conformtest is the go test front end of the Cupel conformance
// runner: a Go implementation gates itself with one call, in the manner of
// testing/fstest.TestFS and testing/slogtest:
//
//	func TestConformance(t *testing.T) {
//		conformtest.Test(t, myImpl{}, runner.Options{RequireLevel: runner.LevelConformant})
//	}
//
// Each case runs inside its own subtest, named by the case id, so
// go test -run 'TestConformance/required/scoring' runs the scoring cases
// and nothing else. A run that go test -run (or the Options' filters)
// narrowed claims no level: it is judged strictly on the cases it ran, as
// the runner's verdict says (docs/verdicts.md), and RequireLevel is not
// checked.
package conformtest

import (
	"context"
	"strings"
	"testing"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// Test runs the suite of opts against impl and renders the run's
// [runner.Verdict], deciding nothing itself: a case the gate counts
// (gated) fails its subtest with t.Error, a warning (an optional case the
// target does not require) and an expected failure skip theirs with the
// reason, and t fails with the verdict when the run does not pass, exactly
// when [runner.Check] returns an error. It returns the report for further
// checks, or nil when the run could not start (t has then failed).
func Test(t *testing.T, impl runner.Implementation, opts runner.Options) *runner.Report {
	t.Helper()
	ctx := context.Background()
	if dl, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, dl)
		defer cancel()
	}
	suite, err := casefile.LoadSuite(opts.Suite)
	if err != nil {
		t.Fatalf("conformtest: %v", err)
		return nil
	}
	x, err := runner.Start(ctx, impl, suite, opts)
	if err != nil {
		t.Fatalf("conformtest: %v", err)
		return nil
	}
	if why := x.Infrastructure(); why != "" {
		x.Finish()
		t.Fatalf("conformtest: %s", why)
		return nil
	}
	for _, e := range x.Files() {
		if !e.Selected {
			x.Skip(e, "filtered out")
			continue
		}
		t.Run(e.ID, func(t *testing.T) {
			t.Helper()
			c := x.RunFile(ctx, e)
			switch runner.Classify(c, opts.RequireLevel) {
			case runner.ClassGated:
				t.Error(describe(c))
			case runner.ClassWarning:
				t.Skipf("%s case %s, not required for %s: %s", c.Tier, c.Outcome, opts.RequireLevel.Title(), c.Message)
			case runner.ClassOK:
				if c.Outcome == protocol.OutcomeXFail {
					t.Skipf("expected failure: %s", c.Message)
				}
			}
		})
	}
	rep := x.Finish()
	if rep.Infrastructure != "" {
		t.Fatalf("conformtest: %s", rep.Infrastructure)
	}
	if err := rep.Err(); err != nil {
		t.Errorf("conformtest: %v", err)
	} else {
		t.Logf("conformtest: %s", rep.Verdict().Line())
	}
	return rep
}

// describe is the failure message of a gated case: its outcome, message
// and diff, the ids of the requirements it covers, and its stderr.
func describe(c runner.CaseResult) string {
	msg := c.Message
	if !strings.HasPrefix(msg, string(c.Outcome)+":") {
		msg = string(c.Outcome) + ": " + msg
	}
	if len(c.Details) > 0 {
		msg += "\n" + strings.Join(c.Details, "\n")
	}
	if len(c.Requirements) > 0 {
		msg += "\nrequirements: " + strings.Join(c.Requirements, ", ")
	}
	if c.Stderr != "" {
		msg += "\nstderr:\n" + c.Stderr
	}
	return msg
}
