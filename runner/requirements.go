package runner

import (
	"fmt"

	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
	"github.com/cupel-go/go-cupel/runner/requirement"
)

// Requirements is what a run says of the testable requirements of the
// catalogue (those tested by the protocol: requirement.Protocol), decided
// from its cases by one function (see [Report.Requirements]) and rendered
// by every report:
//
//   - met: every case that covers it ran and passed (a pass, or an
//     xpass);
//   - failed: a case that covers it ran and did not pass (fail, error,
//     crash, timeout, and an expected failure too: an xfail never
//     meets a requirement);
//   - untested: the rest. No case covering it ran (skipped, not run,
//     unsupported, filtered out, in another shard, or no case covers it),
//     or some did and passed but not all ran.
//
// A shard's requirements are those of its cases only; the merged report
// of the shards decides again from the merged cases, so its requirements
// are the unsharded run's.
type Requirements struct {
	// Testable counts the catalogue's testable requirements: Met, Failed
	// and Untested together.
	Testable int `json:"testable"`
	// Met, Failed and Untested are the testable requirements in each state,
	// in catalogue order.
	Met      RequirementIDs `json:"met"`
	Failed   RequirementIDs `json:"failed"`
	Untested RequirementIDs `json:"untested"`
	// Unchecked, for a run that reached a level, are the testable
	// requirements that level does not check: no case of a tier it
	// requires covers them (for Cupel Conformant, those that only optional
	// cases cover, and those no case covers; for Cupel Fully Conformant,
	// those no case covers). Nil when no level was reached.
	Unchecked *UncheckedRequirements `json:"unchecked,omitempty"`
}

// RequirementIDs is a set of requirements: their number and their ids.
type RequirementIDs struct {
	Count int      `json:"count"`
	IDs   []string `json:"ids"`
}

// UncheckedRequirements are the testable requirements a level leaves
// unchecked.
type UncheckedRequirements struct {
	// Level is the level reached.
	Level Level `json:"level"`
	RequirementIDs
}

func (s *RequirementIDs) add(id string) {
	s.Count++
	s.IDs = append(s.IDs, id)
}

// Summary is the requirements of the run in one line: "3 of 12 testable
// requirements met (1 failed, 8 untested)".
func (q *Requirements) Summary() string {
	return fmt.Sprintf("%d of %d testable requirements met (%d failed, %d untested)", q.Met.Count, q.Testable, q.Failed.Count, q.Untested.Count)
}

// UncheckedSummary says which testable requirements the level reached
// leaves unchecked, without their ids: "Cupel Conformant leaves 2
// testable requirements unchecked (no required case covers them)"; "" when
// no level was reached.
func (q *Requirements) UncheckedSummary() string {
	u := q.Unchecked
	switch {
	case u == nil:
		return ""
	case u.Count == 0:
		return u.Level.Title() + " leaves no testable requirement unchecked"
	}
	who := "no case covers"
	if u.Level == LevelConformant {
		who = "no required case covers"
	}
	if u.Count == 1 {
		return fmt.Sprintf("%s leaves 1 testable requirement unchecked (%s it)", u.Level.Title(), who)
	}
	return fmt.Sprintf("%s leaves %d testable requirements unchecked (%s them)", u.Level.Title(), u.Count, who)
}

// RequirementState is what a case says of the requirements it covers.
type RequirementState string

// The states of a case's requirements.
const (
	// RequirementMet: the case ran and passed (a pass, or an unexpected
	// pass).
	RequirementMet RequirementState = "met"
	// RequirementFailed: the case ran and did not pass (fail, error,
	// crash, timeout, or an expected failure).
	RequirementFailed RequirementState = "failed"
	// RequirementUntested: the case did not run (skipped, not run,
	// unsupported).
	RequirementUntested RequirementState = "untested"
)

// RequirementState is what c says of the requirements it covers; a
// requirement is met when every case that covers it says met, and failed
// when one says failed (see [Requirements]).
func (c CaseResult) RequirementState() RequirementState {
	switch {
	case c.Outcome == protocol.OutcomePass || c.Outcome == protocol.OutcomeXPass:
		return RequirementMet
	case c.Outcome == protocol.OutcomeUnsupported || !c.Ran():
		return RequirementUntested
	}
	return RequirementFailed
}

// judgeRequirements decides the run's requirements from its cases: the
// one function that does (see [Requirements]). Coverage is
// requirement.Cover's, over the cases' requirement ids. level is the level
// the run reached.
func judgeRequirements(cat *requirement.Catalogue, cases []CaseResult, level Level) *Requirements {
	vcs := make([]*casefile.Case, len(cases))
	result := make(map[*casefile.Case]*CaseResult, len(cases))
	for i := range cases {
		vcs[i] = &casefile.Case{ID: cases[i].ID, Tier: cases[i].Tier, Covers: cases[i].Requirements}
		result[vcs[i]] = &cases[i]
	}
	cv := requirement.Cover(cat, vcs)
	q := &Requirements{Met: RequirementIDs{IDs: []string{}}, Failed: RequirementIDs{IDs: []string{}}, Untested: RequirementIDs{IDs: []string{}}}
	if level == LevelConformant || level == LevelFullyConformant {
		q.Unchecked = &UncheckedRequirements{Level: level, RequirementIDs: RequirementIDs{IDs: []string{}}}
	}
	for _, r := range cat.All() {
		if r.Test != requirement.Protocol {
			continue
		}
		q.Testable++
		met, failed := 0, false
		covering := cv.Cases[r.ID]
		for _, c := range covering {
			switch result[c].RequirementState() {
			case RequirementMet:
				met++
			case RequirementFailed:
				failed = true
			}
		}
		switch {
		case failed:
			q.Failed.add(r.ID)
		case met > 0 && met == len(covering):
			q.Met.add(r.ID)
		default:
			q.Untested.add(r.ID)
		}
		switch {
		case q.Unchecked == nil:
		case level == LevelConformant && !cv.CoveredIn(r.ID, casefile.TierRequired),
			level == LevelFullyConformant && len(covering) == 0:
			q.Unchecked.add(r.ID)
		}
	}
	return q
}

// catalogueOf is the catalogue of opts: Options.Catalogue, or the embedded
// one.
func catalogueOf(opts Options) (*requirement.Catalogue, error) {
	if opts.Catalogue != nil {
		return opts.Catalogue, nil
	}
	cat, err := requirement.Embedded()
	if err != nil {
		return nil, fmt.Errorf("runner: the embedded requirements catalogue: %w", err)
	}
	return cat, nil
}

// Catalogue is the requirements catalogue the report is judged with: the
// run's (Options.Catalogue, or the embedded one), or for a report read
// back from JSON the embedded one; nil only when the embedded catalogue
// cannot be read.
func (r *Report) Catalogue() *requirement.Catalogue {
	if r.catalogue != nil {
		return r.catalogue
	}
	cat, _ := requirement.Embedded()
	return cat
}

// SetCatalogue judges the report's requirements against cat (nil: the
// embedded catalogue) and decides them again: for the report of a run
// with Options.Catalogue read back from JSON, which is otherwise judged
// against the embedded one. [MergeReports] keeps the first report's.
func (r *Report) SetCatalogue(cat *requirement.Catalogue) {
	r.catalogue = cat
	r.finish()
}

// Requirement looks a requirement id up in the report's [Report.Catalogue].
// An id a case covers may not be there (a suite of vectors written for
// another catalogue): the reports then show the id alone.
func (r *Report) Requirement(id string) (requirement.Requirement, bool) {
	if cat := r.Catalogue(); cat != nil {
		return cat.Lookup(id)
	}
	return requirement.Requirement{}, false
}
