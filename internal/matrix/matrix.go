package matrix

import (
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/protocol"
	"github.com/cupel-go/go-cupel/runner/vector"
)

// ErrInvalid is matched (errors.Is) by every error New returns for entries
// that cannot be compared: none, a nil report, an empty or repeated name.
var ErrInvalid = errors.New("invalid entries")

// Entry is one implementation's report under the name the matrix shows.
type Entry struct {
	// Name identifies the implementation in every output; names are unique.
	Name string
	// Report is the implementation's report. New never modifies it.
	Report *runner.Report
}

// CaseData is what a report does not carry about a case: the inputs sent
// to the implementation and the expected outcome. Both are rendered as
// JSON.
type CaseData struct {
	Input    any
	Expected any
}

// Options configure New.
type Options struct {
	// Case, when set, returns the inputs and expectation of a case by id,
	// for the failing cases of the HTML page (the CLI looks them up in the
	// suite the reports ran). Nil, or false, shows none.
	Case func(id string) (CaseData, bool)
}

// Matrix is the comparison of one or more reports.
type Matrix struct {
	// Runner and Suite are those of the first report.
	Runner protocol.RunnerIdentity `json:"runner"`
	Suite  runner.SuiteIdentity    `json:"suite"`
	// Implementations are in the order of the entries.
	Implementations []Implementation `json:"implementations"`
	// Groups are the "tier/stage" keys of the cases, in report order.
	Groups []string `json:"groups"`
	// Cases are every case of any report: the first report's in its
	// order, then the cases only later reports have.
	Cases []*Case `json:"-"`
	// Disagreements are the cases whose status is not the same for every
	// implementation (always empty for one implementation), failing ones
	// first (see Disagreement.Failing), then in case order.
	Disagreements []Disagreement `json:"disagreements"`
	// Warnings say what makes the comparison less than exact: reports of
	// different suites, filtered runs.
	Warnings []string `json:"warnings,omitempty"`
}

// Implementation is one implementation's summary.
type Implementation struct {
	Name         string            `json:"name"`
	Info         protocol.Identity `json:"implementation"`
	Level        runner.Level      `json:"level"`
	LevelReason  string            `json:"level_reason"`
	RequireLevel runner.Level      `json:"require_level,omitempty"`
	// Infrastructure, when set, says why the run stopped without a verdict.
	Infrastructure string `json:"infrastructure_error,omitempty"`
	// Counts are per tier ("required", "optional", "all") and status.
	Counts map[string]map[protocol.Status]int `json:"counts"`
	// StageCounts are per "tier/stage" and status.
	StageCounts map[string]map[protocol.Status]int `json:"stage_counts"`
	// Verdict is the verdict of the implementation's run.
	Verdict runner.Verdict `json:"verdict"`
	// Report is the report the summary was made from.
	Report *runner.Report `json:"-"`
}

// requirementsOf is what the comparison says of the implementation's
// requirements: "14 of 16 testable requirements met (1 failed, 1 not
// run)", or "" when its report judged none.
func requirementsOf(im Implementation) string {
	if q := im.Report.Requirements; q != nil && q.Testable > 0 {
		return q.Summary()
	}
	return ""
}

// Met reports whether the implementation's run passed its gate: its
// verdict, which with a required level includes reaching it.
func (im Implementation) Met() bool { return im.Verdict.Passed }

// Case is one case across the implementations.
type Case struct {
	ID, Tier, Stage, Name string
	// Results are per implementation, in the order of
	// Matrix.Implementations; nil where a report lacks the case.
	Results []*runner.CaseResult
	// Data holds the inputs and expectation, when Options.Case had them.
	Data *CaseData
}

// Status is the case's status for implementation i, or "" when its report
// lacks the case.
func (c *Case) Status(i int) protocol.Status {
	if r := c.Results[i]; r != nil {
		return r.Status
	}
	return ""
}

// Disagree reports whether the statuses of the implementations that ran
// the case differ: a case one of them did not run (filtered out, or
// skipped after --failfast stopped its run) is no disagreement.
func (c *Case) Disagree() bool {
	first := protocol.Status("")
	for i, r := range c.Results {
		if r != nil && r.Outcome() == runner.OutcomeNotRun {
			continue
		}
		switch st := c.Status(i); {
		case first == "":
			first = st
			if st == "" {
				first = StatusAbsent
			}
		case st == "" && first != StatusAbsent, st != "" && st != first:
			return true
		}
	}
	return false
}

// Failing reports whether some implementation has a failing status on the
// case: anything but pass, skip, xfail and unsupported (which is not a
// pass either, but says "not implemented" rather than "wrong").
func (c *Case) Failing() bool {
	for i := range c.Results {
		if failing(c.Status(i)) {
			return true
		}
	}
	return false
}

// AllPass reports whether every implementation passed the case.
func (c *Case) AllPass() bool {
	for i := range c.Results {
		if c.Status(i) != protocol.StatusPass {
			return false
		}
	}
	return true
}

// failing reports whether s is a failure of the case. A case not run is
// none: the run stopped, and its infrastructure error is said once, for
// the implementation.
func failing(s protocol.Status) bool {
	switch s {
	case protocol.StatusPass, protocol.StatusSkip, protocol.StatusXFail, protocol.StatusUnsupported, protocol.StatusNotRun, "":
		return false
	}
	return true
}

// Disagreement is a case on which the implementations' statuses differ.
type Disagreement struct {
	ID    string `json:"id"`
	Tier  string `json:"tier"`
	Stage string `json:"stage"`
	Name  string `json:"name,omitempty"`
	// Statuses are per implementation name; "absent" where its report
	// lacks the case.
	Statuses map[string]protocol.Status `json:"statuses"`
	// Passed names the implementations that passed, in matrix order.
	Passed []string `json:"passed"`
	// Failing is true when some implementation failed, errored, crashed,
	// timed out or passed unexpectedly, rather than only differing in what
	// it supports.
	Failing bool `json:"failing"`
	// Case is the case in the matrix.
	Case *Case `json:"-"`
}

// StatusAbsent stands for a case that an implementation's report lacks.
const StatusAbsent protocol.Status = "absent"

// New compares the reports of entries. It never modifies them.
func New(entries []Entry, opts Options) (*Matrix, error) {
	if len(entries) == 0 {
		return nil, fmt.Errorf("%w: no report to compare", ErrInvalid)
	}
	seen := map[string]int{}
	for i, e := range entries {
		switch {
		case e.Report == nil:
			return nil, fmt.Errorf("%w: entry %d (%q) has no report", ErrInvalid, i+1, e.Name)
		case e.Name == "":
			return nil, fmt.Errorf("%w: entry %d has no name", ErrInvalid, i+1)
		}
		if j, dup := seen[e.Name]; dup {
			return nil, fmt.Errorf("%w: entries %d and %d are both named %q", ErrInvalid, j+1, i+1, e.Name)
		}
		seen[e.Name] = i
	}
	first := entries[0].Report
	m := &Matrix{Runner: first.Runner, Suite: first.Suite}
	n := len(entries)
	byID := map[string]*Case{}
	groups := map[string]bool{}
	for i, e := range entries {
		r := e.Report
		im := Implementation{
			Name: e.Name, Info: r.Implementation, Level: r.Level, LevelReason: r.LevelReason,
			RequireLevel: r.RequireLevel, Infrastructure: r.Infrastructure, Report: r, Verdict: r.Verdict(),
			Counts:      map[string]map[protocol.Status]int{"all": {}, vector.TierRequired: {}, vector.TierOptional: {}},
			StageCounts: map[string]map[protocol.Status]int{},
		}
		if r.Suite.Digest != first.Suite.Digest {
			m.Warnings = append(m.Warnings, fmt.Sprintf("%s ran suite %s, %s ran suite %s: the cases may differ",
				e.Name, short(r.Suite.Digest), entries[0].Name, short(first.Suite.Digest)))
		}
		switch {
		case r.StoppedEarly:
			m.Warnings = append(m.Warnings, fmt.Sprintf("%s's run stopped early (fail fast): it claims no level, and the cases it did not run are no disagreement", e.Name))
		case r.Filtered:
			m.Warnings = append(m.Warnings, fmt.Sprintf("%s's run was filtered: it claims no level", e.Name))
		}
		for k := range r.Cases {
			cr := &r.Cases[k]
			im.Counts["all"][cr.Status]++
			if t := im.Counts[cr.Tier]; t != nil {
				t[cr.Status]++
			}
			g := cr.Tier + "/" + cr.Stage
			if im.StageCounts[g] == nil {
				im.StageCounts[g] = map[protocol.Status]int{}
			}
			im.StageCounts[g][cr.Status]++
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
		d := Disagreement{ID: c.ID, Tier: c.Tier, Stage: c.Stage, Name: c.Name, Statuses: map[string]protocol.Status{},
			Passed: []string{}, Failing: c.Failing(), Case: c}
		for i, im := range m.Implementations {
			s := c.Status(i)
			if s == "" {
				s = StatusAbsent
			}
			d.Statuses[im.Name] = s
			if s == protocol.StatusPass {
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
		if a, b := rank(vector.Tiers, ti), rank(vector.Tiers, tj); a != b {
			return a < b
		}
		if a, b := rank(vector.Stages, si), rank(vector.Stages, sj); a != b {
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

// Tally is a pass count out of a total, with the other statuses.
type Tally struct {
	Pass, Total int
	// Other are the non-pass statuses with their counts, in report order.
	Other []StatusCount
}

// StatusCount is a status with a count.
type StatusCount struct {
	Status protocol.Status
	N      int
}

// tally summarises a status map.
func tally(m map[protocol.Status]int) Tally {
	var t Tally
	for _, s := range protocol.Statuses {
		n := m[s]
		t.Total += n
		if s == protocol.StatusPass {
			t.Pass = n
		} else if n > 0 {
			t.Other = append(t.Other, StatusCount{s, n})
		}
	}
	return t
}

// Class is the result class of the tally: "empty" (no case), "pass"
// (every case passes), "fail" (some case has a failing status) or
// "partial" (the rest: unsupported, skipped, expected failures).
func (t Tally) Class() string {
	switch {
	case t.Total == 0:
		return "empty"
	case t.Pass == t.Total:
		return "pass"
	}
	for _, o := range t.Other {
		if failing(o.Status) {
			return "fail"
		}
	}
	return "partial"
}
