package matrix

import (
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// ErrInvalid is matched (errors.Is) by every error New returns for reports
// that cannot be compared: none, a nil report, an empty or repeated name.
var ErrInvalid = errors.New("invalid named reports")

// CaseData is what a report does not carry about a case: the inputs sent
// to the implementation and the expected outcome. Both are rendered as
// JSON.
type CaseData struct {
	Input    any
	Expected any
}

// Options configure New.
type Options struct {
	// Case, when set, returns the inputs and expected results of a case by id,
	// for the failing cases of the HTML page (the CLI looks them up in the
	// suite the reports ran). Nil, or false, shows none.
	Case func(id string) (CaseData, bool)
}

// Matrix is the comparison of one or more reports.
type Matrix struct {
	// Runner and Suite are those of the first report.
	Runner protocol.RunnerIdentity `json:"runner"`
	Suite  runner.SuiteIdentity    `json:"suite"`
	// Implementations are in the order of the named reports.
	Implementations []Summary `json:"implementations"`
	// Groups are the "tier/stage" keys of the cases, in report order.
	Groups []string `json:"groups"`
	// Cases are every case of any report: the first report's in its
	// order, then the cases only later reports have.
	Cases []*Case `json:"-"`
	// Disagreements are the cases whose outcome is not the same for every
	// implementation (always empty for one implementation), failing ones
	// first (see Disagreement.Failing), then in case order.
	Disagreements []Disagreement `json:"disagreements"`
	// Warnings say what makes the comparison less than exact: reports of
	// different suites, filtered runs.
	Warnings []string `json:"warnings,omitempty"`
}

// Summary is one implementation's summary in the matrix (not a
// protocol.Implementation, the interface an implementation under test
// satisfies).
type Summary struct {
	Name         string            `json:"name"`
	Info         protocol.Identity `json:"implementation"`
	Level        runner.Level      `json:"level"`
	LevelReason  string            `json:"level_reason"`
	RequireLevel runner.Level      `json:"require_level,omitempty"`
	// Infrastructure, when set, says why the run stopped without a verdict.
	Infrastructure string `json:"infrastructure_error,omitempty"`
	// Counts are per tier ("required", "optional", "all") and outcome.
	Counts map[string]map[protocol.Outcome]int `json:"counts"`
	// StageCounts are per "tier/stage" and outcome.
	StageCounts map[string]map[protocol.Outcome]int `json:"stage_counts"`
	// Verdict is the verdict of the implementation's run.
	Verdict runner.Verdict `json:"verdict"`
	// Report is the report the summary was made from.
	Report *runner.Report `json:"-"`
}

// requirementsOf is what the comparison says of the implementation's
// requirements: "14 of 16 testable requirements met (1 failed, 1 not
// run)", or "" when its report judged none.
func requirementsOf(im Summary) string {
	if q := im.Report.Requirements; q != nil && q.Testable > 0 {
		return q.Summary()
	}
	return ""
}

// Met reports whether the implementation's run passed its gate: its
// verdict, which with a required level includes reaching it.
func (im Summary) Met() bool { return im.Verdict.Passed }

// Case is one case across the implementations.
type Case struct {
	ID, Tier, Stage, Name string
	// Results are per implementation, in the order of
	// Matrix.Implementations; nil where a report lacks the case.
	Results []*runner.CaseResult
	// Data holds the inputs and expected results, when Options.Case had them.
	Data *CaseData
}

// Outcome is the case's outcome for implementation i, or "" when its report
// lacks the case.
func (c *Case) Outcome(i int) protocol.Outcome {
	if r := c.Results[i]; r != nil {
		return r.Outcome
	}
	return ""
}

// Disagree reports whether the outcomes of the implementations that ran
// the case differ: a case one of them did not run (filtered out, or
// skipped after --failfast stopped its run) is no disagreement.
func (c *Case) Disagree() bool {
	first := protocol.Outcome("")
	for i, r := range c.Results {
		if r != nil && !r.Ran() {
			continue
		}
		switch st := c.Outcome(i); {
		case first == "":
			first = st
			if st == "" {
				first = OutcomeAbsent
			}
		case st == "" && first != OutcomeAbsent, st != "" && st != first:
			return true
		}
	}
	return false
}

// Failing reports whether some implementation has a failing outcome on the
// case: anything but pass, skip, xfail and unsupported (which is not a
// pass either, but says "not implemented" rather than "wrong").
func (c *Case) Failing() bool {
	for i := range c.Results {
		if failing(c.Outcome(i)) {
			return true
		}
	}
	return false
}

// AllPass reports whether every implementation passed the case.
func (c *Case) AllPass() bool {
	for i := range c.Results {
		if c.Outcome(i) != protocol.OutcomePass {
			return false
		}
	}
	return true
}

// failing reports whether s is a failure of the case. A case not run is
// none: the run stopped, and its infrastructure error is said once, for
// the implementation.
func failing(s protocol.Outcome) bool {
	switch s {
	case protocol.OutcomePass, protocol.OutcomeSkip, protocol.OutcomeXFail, protocol.OutcomeUnsupported, protocol.OutcomeNotRun, "":
		return false
	}
	return true
}

// Disagreement is a case on which the implementations' outcomes differ.
type Disagreement struct {
	ID    string `json:"id"`
	Tier  string `json:"tier"`
	Stage string `json:"stage"`
	Name  string `json:"name,omitempty"`
	// Outcomes are per implementation name; "absent" where its report
	// lacks the case.
	Outcomes map[string]protocol.Outcome `json:"outcomes"`
	// Passed names the implementations that passed, in matrix order.
	Passed []string `json:"passed"`
	// Failing is true when some implementation failed, errored, crashed,
	// timed out or passed unexpectedly, rather than only differing in what
	// it supports.
	Failing bool `json:"failing"`
	// Case is the case in the matrix.
	Case *Case `json:"-"`
}

// OutcomeAbsent stands for a case that an implementation's report lacks.
const OutcomeAbsent protocol.Outcome = "absent"

// New compares the reports of reports. It never modifies them.
func New(reports []runner.NamedReport, opts Options) (*Matrix, error) {
	if len(reports) == 0 {
		return nil, fmt.Errorf("%w: no report to compare", ErrInvalid)
	}
	seen := map[string]int{}
	for i, e := range reports {
		switch {
		case e.Report == nil:
			return nil, fmt.Errorf("%w: entry %d (%q) has no report", ErrInvalid, i+1, e.Name)
		case e.Name == "":
			return nil, fmt.Errorf("%w: entry %d has no name", ErrInvalid, i+1)
		}
		if j, dup := seen[e.Name]; dup {
			return nil, fmt.Errorf("%w: reports %d and %d are both named %q", ErrInvalid, j+1, i+1, e.Name)
		}
		seen[e.Name] = i
	}
	first := reports[0].Report
	m := &Matrix{Runner: first.Runner, Suite: first.Suite}
	n := len(reports)
	byID := map[string]*Case{}
	groups := map[string]bool{}
	for i, e := range reports {
		r := e.Report
		im := Summary{
			Name: e.Name, Info: r.Implementation, Level: r.Level, LevelReason: r.LevelReason,
			RequireLevel: r.RequireLevel, Infrastructure: r.Infrastructure, Report: r, Verdict: r.Verdict(),
			Counts:      map[string]map[protocol.Outcome]int{"all": {}, casefile.TierRequired: {}, casefile.TierOptional: {}},
			StageCounts: map[string]map[protocol.Outcome]int{},
		}
		if r.Suite.Digest != first.Suite.Digest {
			m.Warnings = append(m.Warnings, fmt.Sprintf("%s ran suite %s, %s ran suite %s: the cases may differ",
				e.Name, short(r.Suite.Digest), reports[0].Name, short(first.Suite.Digest)))
		}
		switch {
		case r.StoppedEarly:
			m.Warnings = append(m.Warnings, fmt.Sprintf("%s's run stopped early (fail fast): it claims no level, and the cases it did not run are no disagreement", e.Name))
		case r.Filtered:
			m.Warnings = append(m.Warnings, fmt.Sprintf("%s's run was filtered: it claims no level", e.Name))
		}
		for k := range r.Cases {
			cr := &r.Cases[k]
			im.Counts["all"][cr.Outcome]++
			if t := im.Counts[cr.Tier]; t != nil {
				t[cr.Outcome]++
			}
			g := cr.Tier + "/" + cr.Stage
			if im.StageCounts[g] == nil {
				im.StageCounts[g] = map[protocol.Outcome]int{}
			}
			im.StageCounts[g][cr.Outcome]++
			groups[g] = true
			c := byID[cr.ID]
			if c == nil {
				c = &Case{ID: cr.ID, Tier: cr.Tier, Stage: cr.Stage, Name: cr.Name, Results: make([]*runner.CaseResult, n)}
				byID[cr.ID] = c
				m.Cases = append(m.Cases, c)
			}
			if c.Name == "" {
				c.Name = cr.Name
			}
			if c.Results[i] == nil {
				c.Results[i] = cr
			}
		}
		m.Implementations = append(m.Implementations, im)
	}
	m.Groups = orderGroups(groups)
	for _, c := range m.Cases {
		if opts.Case != nil {
			if d, ok := opts.Case(c.ID); ok {
				c.Data = &d
			}
		}
		if !c.Disagree() {
			continue
		}
		d := Disagreement{ID: c.ID, Tier: c.Tier, Stage: c.Stage, Name: c.Name, Outcomes: map[string]protocol.Outcome{},
			Passed: []string{}, Failing: c.Failing(), Case: c}
		for i, im := range m.Implementations {
			s := c.Outcome(i)
			if s == "" {
				s = OutcomeAbsent
			}
			d.Outcomes[im.Name] = s
			if s == protocol.OutcomePass {
				d.Passed = append(d.Passed, im.Name)
			}
		}
		m.Disagreements = append(m.Disagreements, d)
	}
	sort.SliceStable(m.Disagreements, func(i, j int) bool {
		return m.Disagreements[i].Failing && !m.Disagreements[j].Failing
	})
	return m, nil
}

// orderGroups orders "tier/stage" keys as the runner's reports do: known
// tiers, then known stages first, anything else after, by name.
func orderGroups(set map[string]bool) []string {
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	rank := func(list []string, s string) int {
		if i := slices.Index(list, s); i >= 0 {
			return i
		}
		return len(list)
	}
	sort.Slice(keys, func(i, j int) bool {
		ti, si := splitGroup(keys[i])
		tj, sj := splitGroup(keys[j])
		if a, b := rank(casefile.Tiers, ti), rank(casefile.Tiers, tj); a != b {
			return a < b
		}
		if a, b := rank(casefile.Stages, si), rank(casefile.Stages, sj); a != b {
			return a < b
		}
		return keys[i] < keys[j]
	})
	return keys
}

func splitGroup(g string) (tier, stage string) {
	for i := 0; i < len(g); i++ {
		if g[i] == '/' {
			return g[:i], g[i+1:]
		}
	}
	return g, ""
}

func short(d string) string {
	if len(d) > 12 {
		return d[:12]
	}
	return d
}

// Tally is a pass count out of a total, with the other outcomes.
type Tally struct {
	Pass, Total int
	// Other are the non-pass outcomes with their counts, in report order.
	Other []OutcomeCount
}

// OutcomeCount is a outcome with a count.
type OutcomeCount struct {
	Outcome protocol.Outcome
	N       int
}

// tally summarises a outcome map.
func tally(m map[protocol.Outcome]int) Tally {
	var t Tally
	for _, s := range protocol.Outcomes {
		n := m[s]
		t.Total += n
		if s == protocol.OutcomePass {
			t.Pass = n
		} else if n > 0 {
			t.Other = append(t.Other, OutcomeCount{s, n})
		}
	}
	return t
}

// Class is the result class of the tally: "empty" (no case), "pass"
// (every case passes), "fail" (some case has a failing outcome) or
// "partial" (the rest: unsupported, skipped, expected failures).
func (t Tally) Class() string {
	switch {
	case t.Total == 0:
		return "empty"
	case t.Pass == t.Total:
		return "pass"
	}
	for _, o := range t.Other {
		if failing(o.Outcome) {
			return "fail"
		}
	}
	return "partial"
}
