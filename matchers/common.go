package matchers

import (
	"github.com/onsi/gomega/format"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/internal/assertions"
)

// Matcher is the Gomega matcher of one assertion pattern bound to its
// arguments. Every named matcher of this package (IncludeItemWithKindMatcher,
// ...) embeds it: it holds only the pattern and its arguments, evaluates the
// report anew in every method, and so can be reused.
type Matcher struct {
	a assertions.Assertion
}

// report accepts a *cupel.SelectionReport (not nil) or a
// cupel.SelectionReport value.
func (m Matcher) report(actual any) (*cupel.SelectionReport, error) {
	if r, ok := assertions.ReportOf(actual); ok {
		return r, nil
	}
	return nil, assertions.NotAReport(m.a.Call(), format.Object(actual, 1))
}

// Match reports whether the report satisfies the assertion. It returns an
// error, which fails the expectation under To and NotTo alike, when actual
// is not a report or when the assertion's arguments are invalid.
func (m Matcher) Match(actual any) (bool, error) {
	if err := m.a.ArgError(); err != nil {
		return false, err
	}
	r, err := m.report(actual)
	if err != nil {
		return false, err
	}
	return m.a.Eval(r).Holds, nil
}

// FailureMessage returns the assertion's failure message for actual, the
// same as cupeltest's.
func (m Matcher) FailureMessage(actual any) string {
	r, err := m.report(actual)
	if err != nil {
		return err.Error()
	}
	o := m.a.Eval(r)
	if o.Holds {
		// Gomega asks only after Match returned false; say what happened anyway.
		return o.Call + " held: " + o.Found + "."
	}
	return o.Message
}

// NegatedFailureMessage says that the assertion was expected not to hold
// and what actual held that satisfied it. It renders the call as
// FailureMessage does.
func (m Matcher) NegatedFailureMessage(actual any) string {
	r, err := m.report(actual)
	if err != nil {
		return err.Error()
	}
	o := m.a.Eval(r)
	if !o.Holds {
		return o.Message
	}
	return o.NegatedMessage()
}

// GomegaString renders the matcher as it was called, e.g.
// IncludeExactlyNItemsWithKind(Tool, 2).
func (m Matcher) GomegaString() string { return m.a.Call() }

// String is GomegaString, for Gomega's And, Or and other places that format
// matchers with %s.
func (m Matcher) String() string { return m.a.Call() }
