package cupeltest

import (
	"errors"
	"slices"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/internal/assertions"
)

// TB is what Should needs of a test: the two methods that *testing.T,
// *testing.B and Ginkgo's GinkgoT() all have.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
}

// AssertionError is the failure of one assertion. It is the error that
// [Chain.Err] returns (alone or joined with others: use errors.As).
type AssertionError struct {
	// Assertion is the pattern's name, e.g. "IncludeItemWithKind".
	Assertion string
	// Message is the complete failure message of the chapter's template:
	// the assertion, what was expected and what the report held.
	Message string
}

// Error returns the failure message.
func (e *AssertionError) Error() string { return e.Message }

// FatalTB is what [Require] needs of a test: [TB] and FailNow, which
// *testing.T, *testing.B and Ginkgo's GinkgoT() all have.
type FatalTB interface {
	TB
	FailNow()
}

// Chain holds a report and the assertions made on it. Every assertion
// method returns the chain, so assertions chain fluently. Build one with
// [Should] (failures go to a test), [Require] (the first failure ends the
// test) or [Audit] (failures are only recorded).
type Chain struct {
	t        TB
	failNow  func() // set by Require
	report   *cupel.SelectionReport
	failures []*AssertionError
}

// Should returns a chain of assertions on report that reports each failed
// assertion to t with t.Helper() and t.Errorf("%s", message). t must not be
// nil. A passing assertion calls nothing on t.
func Should(t TB, report *cupel.SelectionReport) *Chain {
	if t == nil {
		panic("cupeltest: Should called with a nil TB; use Check outside tests")
	}
	return &Chain{t: t, report: report}
}

// Require is [Should] that stops the test at the first failed assertion, as
// testify's require does: it reports the failure with t.Errorf, then calls
// t.FailNow, so the assertions after it and the rest of the test do not run.
// t must not be nil.
func Require(t FatalTB, report *cupel.SelectionReport) *Chain {
	if t == nil {
		panic("cupeltest: Require called with a nil FatalTB; use Check outside tests")
	}
	return &Chain{t: t, failNow: t.FailNow, report: report}
}

// Audit returns a chain of assertions on report for use outside go test:
// failures are recorded, not reported, and [Chain.Err] returns them.
func Audit(report *cupel.SelectionReport) *Chain {
	return &Chain{t: nopTB{}, report: report}
}

// Report returns the report the chain asserts on.
func (c *Chain) Report() *cupel.SelectionReport { return c.report }

// Err returns nil when every assertion made so far held; otherwise an error
// joining the failures in the order they happened (errors.Join): its
// message is their messages, one per line, and errors.As(err, &target)
// with target of type *AssertionError finds the first.
func (c *Chain) Err() error {
	if len(c.failures) == 0 {
		return nil
	}
	errs := make([]error, len(c.failures))
	for i, f := range c.failures {
		errs[i] = f
	}
	return errors.Join(errs...)
}

// Failures returns the failed assertions so far, in order (nil when none).
func (c *Chain) Failures() []*AssertionError { return slices.Clone(c.failures) }

// First returns the first failed assertion, or nil when none failed.
func (c *Chain) First() *AssertionError {
	if len(c.failures) == 0 {
		return nil
	}
	return c.failures[0]
}

// record notes a failure and reports it to the test, if any.
func (c *Chain) record(o assertions.Outcome) {
	c.t.Helper()
	c.failures = append(c.failures, &AssertionError{Assertion: o.Assertion, Message: o.Message})
	c.t.Errorf("%s", o.Message)
	if c.failNow != nil {
		c.failNow()
	}
}

// Each method below calls t.Helper() itself before record does, so that
// the failure is attributed to the line that called the method; it calls
// nothing on t when the assertion holds.

// IncludeItemWithKind asserts that at least one included item has the kind.
func (c *Chain) IncludeItemWithKind(kind cupel.ContextKind) *Chain {
	if o := assertions.IncludeItemWithKind(kind).Eval(c.report); !o.Holds {
		c.t.Helper()
		c.record(o)
	}
	return c
}

// IncludeItemMatching asserts that at least one included entry (item, score
// and reason) satisfies the predicate.
func (c *Chain) IncludeItemMatching(predicate func(cupel.IncludedItem) bool) *Chain {
	if o := assertions.IncludeItemMatching(predicate).Eval(c.report); !o.Holds {
		c.t.Helper()
		c.record(o)
	}
	return c
}

// IncludeExactlyNItemsWithKind asserts that exactly n included items have
// the kind; n = 0 asserts the kind is absent from Included.
func (c *Chain) IncludeExactlyNItemsWithKind(kind cupel.ContextKind, n int) *Chain {
	if o := assertions.IncludeExactlyNItemsWithKind(kind, n).Eval(c.report); !o.Holds {
		c.t.Helper()
		c.record(o)
	}
	return c
}

// ExcludeItemWithReason asserts that at least one excluded entry's reason
// is of the variant.
func (c *Chain) ExcludeItemWithReason(reason cupel.ExclusionVariant) *Chain {
	if o := assertions.ExcludeItemWithReason(reason).Eval(c.report); !o.Holds {
		c.t.Helper()
		c.record(o)
	}
	return c
}

// ExcludeItemMatchingWithReason asserts that at least one excluded item
// satisfies the predicate and has a reason of the variant.
func (c *Chain) ExcludeItemMatchingWithReason(predicate func(*cupel.ContextItem) bool, reason cupel.ExclusionVariant) *Chain {
	if o := assertions.ExcludeItemMatchingWithReason(predicate, reason).Eval(c.report); !o.Holds {
		c.t.Helper()
		c.record(o)
	}
	return c
}

// ExcludeItemWithBudgetDetails asserts that an excluded item satisfying the
// predicate has reason BudgetExceeded with exactly these item_tokens and
// available_tokens.
func (c *Chain) ExcludeItemWithBudgetDetails(predicate func(*cupel.ContextItem) bool, expectedItemTokens, expectedAvailableTokens int) *Chain {
	if o := assertions.ExcludeItemWithBudgetDetails(predicate, expectedItemTokens, expectedAvailableTokens).Eval(c.report); !o.Holds {
		c.t.Helper()
		c.record(o)
	}
	return c
}

// HaveNoExclusionsForKind asserts that no excluded item has the kind.
func (c *Chain) HaveNoExclusionsForKind(kind cupel.ContextKind) *Chain {
	if o := assertions.HaveNoExclusionsForKind(kind).Eval(c.report); !o.Holds {
		c.t.Helper()
		c.record(o)
	}
	return c
}

// HaveAtLeastNExclusions asserts that Excluded has at least n entries.
func (c *Chain) HaveAtLeastNExclusions(n int) *Chain {
	if o := assertions.HaveAtLeastNExclusions(n).Eval(c.report); !o.Holds {
		c.t.Helper()
		c.record(o)
	}
	return c
}

// ExcludedItemsAreSortedByScoreDescending asserts that Excluded is in
// non-increasing score order (a conformance assertion).
func (c *Chain) ExcludedItemsAreSortedByScoreDescending() *Chain {
	if o := assertions.ExcludedItemsAreSortedByScoreDescending().Eval(c.report); !o.Holds {
		c.t.Helper()
		c.record(o)
	}
	return c
}

// HaveBudgetUtilizationAbove asserts that the included tokens divided by
// budget.MaxTokens() is >= threshold (exact comparison, no epsilon).
func (c *Chain) HaveBudgetUtilizationAbove(threshold float64, budget cupel.ContextBudget) *Chain {
	if o := assertions.HaveBudgetUtilizationAbove(threshold, budget).Eval(c.report); !o.Holds {
		c.t.Helper()
		c.record(o)
	}
	return c
}

// HaveKindCoverageCount asserts that Included holds at least n distinct kinds.
func (c *Chain) HaveKindCoverageCount(n int) *Chain {
	if o := assertions.HaveKindCoverageCount(n).Eval(c.report); !o.Holds {
		c.t.Helper()
		c.record(o)
	}
	return c
}

// PlaceItemAtEdge asserts that the first or the last included entry
// satisfies the predicate. Meaningful only for a placer whose ordering
// contract you know (e.g. UShapedPlacer).
func (c *Chain) PlaceItemAtEdge(predicate func(cupel.IncludedItem) bool) *Chain {
	if o := assertions.PlaceItemAtEdge(predicate).Eval(c.report); !o.Holds {
		c.t.Helper()
		c.record(o)
	}
	return c
}

// PlaceTopNScoredAtEdges asserts that the n highest-scored included items
// occupy the n outermost positions (0, count-1, 1, count-2, ...), as
// UShapedPlacer places them: each of those positions must hold an item
// scored at least the n-th highest score; which edge holds which is not
// checked (ruling 25).
func (c *Chain) PlaceTopNScoredAtEdges(n int) *Chain {
	if o := assertions.PlaceTopNScoredAtEdges(n).Eval(c.report); !o.Holds {
		c.t.Helper()
		c.record(o)
	}
	return c
}

// nopTB is the TB of an Audit chain: failures are only recorded.
type nopTB struct{}

func (nopTB) Helper()               {}
func (nopTB) Errorf(string, ...any) {}
