package snapshot

import (
	"strconv"

	"github.com/onsi/gomega/format"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/internal/assertions"
)

// GoldenMatcher is the Gomega matcher returned by [MatchGolden].
type GoldenMatcher struct {
	name string
	opts []Option
}

// MatchGolden is the Gomega form of [Match]:
//
//	Expect(report).To(snapshot.MatchGolden("agent_turn"))
//
// It succeeds when the report's canonical JSON equals
// testdata/golden/<name>.golden (or, when updating, after writing it); its
// failure message is Match's, with goldie's diff. The report may be a
// *cupel.SelectionReport or a cupel.SelectionReport. Options are Match's.
// The matcher keeps no state between calls.
func MatchGolden(name string, opts ...Option) *GoldenMatcher {
	return &GoldenMatcher{name: name, opts: opts}
}

func (m *GoldenMatcher) report(actual any) (*cupel.SelectionReport, error) {
	if r, ok := assertions.ReportOf(actual); ok {
		return r, nil
	}
	return nil, assertions.NotAReport(m.GomegaString(), format.Object(actual, 1))
}

// Match compares the report with the golden file (writing it when
// updating); it returns an error when actual is not a report.
func (m *GoldenMatcher) Match(actual any) (bool, error) {
	r, err := m.report(actual)
	if err != nil {
		return false, err
	}
	return check(m.name, r, Updating(), m.opts) == nil, nil
}

// FailureMessage returns the mismatch with goldie's diff, or says that the
// golden file is missing.
func (m *GoldenMatcher) FailureMessage(actual any) string {
	r, err := m.report(actual)
	if err != nil {
		return err.Error()
	}
	if err := check(m.name, r, false, m.opts); err != nil {
		return err.Error()
	}
	return m.GomegaString() + " held: the report matched " + Path(m.name) + "."
}

// NegatedFailureMessage says the report was expected not to match the
// golden file, and did.
func (m *GoldenMatcher) NegatedFailureMessage(actual any) string {
	if _, err := m.report(actual); err != nil {
		return err.Error()
	}
	return "Expected the report not to match the golden file " + Path(m.name) + ", but it did."
}

// GomegaString renders the matcher as it was called: MatchGolden("name").
func (m *GoldenMatcher) GomegaString() string { return "MatchGolden(" + strconv.Quote(m.name) + ")" }

// String is GomegaString, for places that format matchers with %s.
func (m *GoldenMatcher) String() string { return m.GomegaString() }
