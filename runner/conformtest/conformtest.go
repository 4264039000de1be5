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
// narrowed claims no level: the report's level is then "none", and
// RequireLevel is not checked (it is logged instead).
package conformtest

import (
	"context"
	"strings"
	"testing"

	"github.com/cupel-go/go-cupel/runner"
)

// Test runs the suite of opts against impl. It fails a case's subtest on
// an unexpected result (a failure not pinned by opts.Expectations, or an
// expected failure that passed), skips the subtest of an expected failure,
// and, when opts.RequireLevel is set and nothing was left out, fails t
// unless the run reaches that level. It returns the report for further
// checks, or nil when the run could not start (t has then failed).
func Test(t *testing.T, impl runner.Implementation, opts runner.Options) *runner.Report {
	t.Helper()
	ctx := context.Background()
	if dl, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, dl)
		defer cancel()
	}
	suite, err := runner.LoadSuite(opts.Suite)
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
	for _, e := range x.Entries() {
		if !e.Selected {
			x.Skip(e, "filtered out")
			continue
		}
		t.Run(e.ID, func(t *testing.T) {
			t.Helper()
			c := x.RunEntry(ctx, e)
			switch {
			case c.Status == runner.StatusXFail:
				t.Skipf("expected failure: %s", c.Message)
			case c.Unexpected():
				t.Error(describe(c))
			}
		})
	}
	rep := x.Finish()
	if rep.Infrastructure != "" {
		t.Fatalf("conformtest: %s", rep.Infrastructure)
	}
	if opts.RequireLevel == "" || opts.RequireLevel == runner.LevelNone {
		return rep
	}
	if rep.Filtered {
		t.Logf("conformtest: cases were left out (go test -run); a filtered run claims no level, so RequireLevel %s is not checked", opts.RequireLevel)
		return rep
	}
	if err := rep.Err(); err != nil {
		t.Errorf("conformtest: %v", err)
	}
	return rep
}

// describe is the failure message of an unexpected result.
func describe(c runner.CaseResult) string {
	msg := c.Message
	if !strings.HasPrefix(msg, string(c.Status)+":") {
		msg = string(c.Status) + ": " + msg
	}
	if len(c.Details) > 0 {
		msg += "\n" + strings.Join(c.Details, "\n")
	}
	if c.Stderr != "" {
		msg += "\nstderr:\n" + c.Stderr
	}
	return msg
}
