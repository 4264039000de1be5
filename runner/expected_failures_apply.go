package runner

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/cupel-go/go-cupel/runner/protocol"
)

// This file relates expected failures to results: it judges a case
// result against its expected failure, says what caused an outcome, and
// derives expected failures from a report.

// apply turns a result into xfail or xpass as the entry for its case
// says. A nil receiver applies nothing.
func (e *ExpectedFailures) apply(cr *CaseResult) {
	if e == nil {
		return
	}
	x := e.byID[cr.ID]
	if x == nil {
		return
	}
	cr.ExpectedFailure = x
	switch {
	case cr.Outcome == protocol.OutcomePass:
		cr.Outcome = protocol.OutcomeXPass
		cr.Message = fmt.Sprintf("expected to %s (%s) but passed: remove it from the expected failures", x.Outcome, x.Reason)
	case cr.Outcome == x.Outcome:
		cr.Outcome = protocol.OutcomeXFail
		cr.Message = xfailMessage(x, cr.Message)
	default:
		cr.Message = fmt.Sprintf("expected %s but got %s: %s", x.Outcome, cr.Outcome, cr.Message)
	}
}

// xfailMessage is an xfail's message: the expected outcome, its reason
// and the case's own message, saying the reason once when the message is
// the reason (as an entry written by --write-expected-failures is).
func xfailMessage(x *ExpectedFailure, msg string) string {
	switch {
	case x.Reason == "" || strings.TrimSpace(x.Reason) == strings.TrimSpace(msg):
		if msg == "" {
			return fmt.Sprintf("expected %s", x.Outcome)
		}
		return fmt.Sprintf("expected %s: %s", x.Outcome, msg)
	case msg == "":
		return fmt.Sprintf("expected %s (%s)", x.Outcome, x.Reason)
	}
	return fmt.Sprintf("expected %s (%s): %s", x.Outcome, x.Reason, msg)
}

// Cause returns what the implementation did, whether or not it was an
// expected failure: for an xfail, the expected outcome and the
// implementation's own message (xfailMessage's wording taken off);
// otherwise the outcome and message.
func (c CaseResult) Cause() (protocol.Outcome, string) {
	if c.Outcome != protocol.OutcomeXFail || c.ExpectedFailure == nil {
		return c.Outcome, c.Message
	}
	x := c.ExpectedFailure
	for _, p := range []string{fmt.Sprintf("expected %s (%s): ", x.Outcome, x.Reason), fmt.Sprintf("expected %s: ", x.Outcome)} {
		if rest, ok := strings.CutPrefix(c.Message, p); ok {
			return x.Outcome, rest
		}
	}
	return x.Outcome, "" // "expected S" or "expected S (reason)": no message of its own
}

// ExpectedFailuresFromReport builds an expected failures file from the
// current failures of a report, keeping the reason and issue of entries of old
// that still apply.
func ExpectedFailuresFromReport(r *Report, old *ExpectedFailures) *ExpectedFailures {
	e := &ExpectedFailures{byID: map[string]*ExpectedFailure{}}
	for _, c := range r.Cases {
		outcome := c.Outcome
		if outcome == protocol.OutcomeXFail && c.ExpectedFailure != nil {
			outcome = c.ExpectedFailure.Outcome
		}
		if !slices.Contains(expectableOutcomes, outcome) || c.SuiteError != nil {
			continue
		}
		x := ExpectedFailure{ID: c.ID, Outcome: outcome, Reason: c.Message}
		if old != nil {
			if prev := old.byID[c.ID]; prev != nil && prev.Outcome == outcome {
				x.Reason, x.Issue = prev.Reason, prev.Issue
			}
		}
		if len(x.Reason) > 200 {
			x.Reason = x.Reason[:200] + "…"
		}
		e.Entries = append(e.Entries, x)
	}
	sort.Slice(e.Entries, func(i, j int) bool { return e.Entries[i].ID < e.Entries[j].ID })
	for i := range e.Entries {
		e.byID[e.Entries[i].ID] = &e.Entries[i]
	}
	return e
}
