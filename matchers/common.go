package matchers

import (
	"github.com/onsi/gomega/format"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/internal/assertions"
)

type evalFunc func(*cupel.SelectionReport) assertions.Outcome

// toReport accepts a *cupel.SelectionReport (not nil) or a
// cupel.SelectionReport value.
func toReport(eval evalFunc, actual any) (*cupel.SelectionReport, error) {
	if r, ok := assertions.ReportOf(actual); ok {
		return r, nil
	}
	return nil, assertions.NotAReport(gomegaString(eval), format.Object(actual, 1))
}

func match(eval evalFunc, actual any) (bool, error) {
	r, err := toReport(eval, actual)
	if err != nil {
		return false, err
	}
	return eval(r).Holds, nil
}

func failureMessage(eval evalFunc, actual any) string {
	r, err := toReport(eval, actual)
	if err != nil {
		return err.Error()
	}
	o := eval(r)
	if o.Holds {
		// Gomega asks only after Match returned false; say what happened anyway.
		return o.Call + " held: " + o.Found + "."
	}
	return o.Message
}

func negatedFailureMessage(eval evalFunc, actual any) string {
	r, err := toReport(eval, actual)
	if err != nil {
		return err.Error()
	}
	o := eval(r)
	if !o.Holds {
		return o.Message
	}
	return o.NegatedMessage()
}

// gomegaString renders the call; evaluating a nil report does no work and
// fills in only the call.
func gomegaString(eval evalFunc) string { return eval(nil).Call }
