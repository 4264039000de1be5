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
		cr.Message = xfailPrefix(x) + cr.Message
	default:
		cr.Message = fmt.Sprintf("expected %s but got %s: %s", x.Status, cr.Status, cr.Message)
	}
}

// xfailPrefix starts the message of a case that failed as x expected.
func xfailPrefix(x *Expectation) string {
	return fmt.Sprintf("expected %s (%s): ", x.Status, x.Reason)
}

// Cause returns what the implementation did, whether or not an
// expectation pinned it: for an xfail, the pinned status and the
// implementation's own message; otherwise the status and message.
func (c CaseResult) Cause() (protocol.Status, string) {
	if c.Status != protocol.StatusXFail || c.Expected == nil {
		return c.Status, c.Message
	}
	return c.Expected.Status, strings.TrimPrefix(c.Message, xfailPrefix(c.Expected))
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
