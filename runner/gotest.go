package runner

import (
	"context"
	"strings"
	"testing"
)

// Test runs the suite of opts against impl from go test, in the manner of
// testing/fstest.TestFS: one subtest per case, named by its id, that fails
// on an unexpected result (a failure not pinned by opts.Expectations, or
// an expected failure that passed). When opts.RequireLevel is set, Test
// also fails unless the run reaches that level. It returns the report for
// further checks.
//
// A filtered run claims no level, so RequireLevel together with filters is
// reported as an error.
func Test(t *testing.T, impl Implementation, opts Options) *Report {
	t.Helper()
	if opts.RequireLevel != "" && opts.RequireLevel != LevelNone && opts.Filtered() {
		t.Fatalf("runner.Test: a filtered run claims no level; drop RequireLevel or the filters")
		return nil
	}
	ctx := context.Background()
	if dl, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, dl)
		defer cancel()
	}
	rep, err := Run(ctx, impl, opts)
	if err != nil {
		t.Fatalf("runner.Test: %v", err)
		return nil
	}
	if rep.Infrastructure != "" {
		t.Fatalf("runner.Test: %s", rep.Infrastructure)
	}
	for _, c := range rep.Cases {
		if c.Status == StatusSkip {
			continue
		}
		t.Run(c.ID, func(t *testing.T) {
			switch {
			case c.Status == StatusXFail:
				t.Skipf("expected failure: %s", c.Message)
			case c.Unexpected():
				msg := c.Message
				if len(c.Details) > 0 {
					msg += "\n" + strings.Join(c.Details, "\n")
				}
				if c.Stderr != "" {
					msg += "\nstderr:\n" + c.Stderr
				}
				t.Errorf("%s: %s", c.Status, msg)
			}
		})
	}
	if opts.RequireLevel != "" && !rep.Level.AtLeast(opts.RequireLevel) {
		t.Errorf("conformance level %s (%s), want at least %s", rep.Level, rep.LevelReason, opts.RequireLevel)
	}
	return rep
}
