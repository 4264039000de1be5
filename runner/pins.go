package runner

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/cupel-go/go-cupel/runner/protocol"
)

// This file relates expectations to results: it pins a case result to its
// expectation, says what caused an outcome, and derives expectations from
// a report.

// apply turns a result into xfail or unexpected-pass as the entry for its
// case says. A nil receiver applies nothing.
func (e *Expectations) apply(cr *CaseResult) {
	if e == nil {
		return
	}
	x := e.byID[cr.ID]
	if x == nil {
		return
	}
	cr.Expected = x
	switch {
	case cr.Status == protocol.StatusPass:
		cr.Status = protocol.StatusUnexpectedPass
		cr.Message = fmt.Sprintf("expected to %s (%s) but passed: remove it from the expectations", x.Status, x.Reason)
	case cr.Status == x.Status:
		cr.Status = protocol.StatusXFail
		cr.Message = pinned(x, cr.Message)
	default:
		cr.Message = fmt.Sprintf("expected %s but got %s: %s", x.Status, cr.Status, cr.Message)
	}
}

// pinned is an xfail's message: the pinned status, its reason and the
// case's own message, saying the reason once when the message is the
// reason (as a pin written by --write-expectations is).
func pinned(x *Expectation, msg string) string {
	switch {
	case x.Reason == "" || strings.TrimSpace(x.Reason) == strings.TrimSpace(msg):
		if msg == "" {
			return fmt.Sprintf("expected %s", x.Status)
		}
		return fmt.Sprintf("expected %s: %s", x.Status, msg)
	case msg == "":
		return fmt.Sprintf("expected %s (%s)", x.Status, x.Reason)
	}
	return fmt.Sprintf("expected %s (%s): %s", x.Status, x.Reason, msg)
}

// Cause returns what the implementation did, whether or not an
// expectation pinned it: for an xfail, the pinned status and the
// implementation's own message (pinned's wording taken off); otherwise the
// status and message.
func (c CaseResult) Cause() (protocol.Status, string) {
	if c.Status != protocol.StatusXFail || c.Expected == nil {
		return c.Status, c.Message
	}
	x := c.Expected
	for _, p := range []string{fmt.Sprintf("expected %s (%s): ", x.Status, x.Reason), fmt.Sprintf("expected %s: ", x.Status)} {
		if rest, ok := strings.CutPrefix(c.Message, p); ok {
			return x.Status, rest
		}
	}
	return x.Status, "" // "expected S" or "expected S (reason)": no message of its own
}

// ExpectationsFromReport builds an expectations file from the current
// failures of a report, keeping the reason and issue of entries of old
// that still apply.
func ExpectationsFromReport(r *Report, old *Expectations) *Expectations {
	e := &Expectations{byID: map[string]*Expectation{}}
	for _, c := range r.Cases {
		status := c.Status
		if status == protocol.StatusXFail && c.Expected != nil {
			status = c.Expected.Status
		}
		if !slices.Contains(expectableStatuses, status) || c.SuiteError != nil {
			continue
		}
		x := Expectation{ID: c.ID, Status: status, Reason: c.Message}
		if old != nil {
			if prev := old.byID[c.ID]; prev != nil && prev.Status == status {
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
