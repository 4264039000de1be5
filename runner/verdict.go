package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// Outcome is what the runner judged one case (docs/vocabulary.md): the
// same type as [protocol.Outcome], where the faults of the transport are
// judged too.
type Outcome = protocol.Outcome

// Outcomes lists every outcome in report order.
var Outcomes = protocol.Outcomes

// Class is how the gate counts a case.
type Class string

// Case classes.
const (
	// ClassOK is a case that neither fails the run nor warns: a pass, an
	// xfail without a target, a case that did not run.
	ClassOK Class = "ok"
	// ClassGated is a case that fails the run.
	ClassGated Class = "gated"
	// ClassWarning is a case that failed but that the target does not
	// require: it is reported, and the run still passes.
	ClassWarning Class = "warning"
)

// Ran reports whether the case ran: its outcome is neither skip nor
// not-run.
func (c CaseResult) Ran() bool {
	return c.Outcome != protocol.OutcomeSkip && c.Outcome != protocol.OutcomeNotRun
}

// Classify is how the gate counts c against target ("" or [LevelNone]:
// strict, no target). It is the one place that decides it, for the
// verdict and for [Options.FailFast] alike; see [Verdict] for the table.
func Classify(c CaseResult, target Level) Class {
	switch {
	case c.Outcome == protocol.OutcomePass || !c.Ran():
		return ClassOK
	case c.Outcome == protocol.OutcomeXPass:
		return ClassGated
	}
	// fail, error, crash, timeout, unsupported, xfail
	switch target {
	case LevelConformant:
		if c.Tier == casefile.TierRequired {
			return ClassGated
		}
		return ClassWarning
	case LevelFullyConformant:
		return ClassGated
	}
	if c.Outcome == protocol.OutcomeXFail {
		return ClassOK
	}
	return ClassGated
}

// CaseVerdict is one case as the verdict counts it.
type CaseVerdict struct {
	ID      string  `json:"id"`
	Tier    string  `json:"tier"`
	Outcome Outcome `json:"outcome"`
	Class   Class   `json:"class"`
}

// Verdict is the one verdict of a run, computed once by [Report.Verdict]
// and rendered by every surface (the exit code, the text, JSON, JUnit,
// TAP, Markdown and HTML reports, the badge, package conformtest and
// [Report.Err]); none of them decides again. It is documented in
// docs/verdicts.md.
//
// Each case has an [Outcome] (docs/vocabulary.md): pass; fail, error,
// crash or timeout (a failure); unsupported; xfail (an expected failure
// that failed as expected); xpass (an expected failure that passed); skip
// (filtered, or skipped by fail fast); not-run (the run stopped). The
// level comes from outcomes only (an xpass is a pass, an xfail is not):
// expected failures never change it. Its [Class] is how the gate counts
// it: gated, warning or ok.
//
// Which outcomes the gate counts, by target (spec chapter 42: optional
// vectors MAY pass); "a failure" is fail, error, crash or timeout:
//
//	target            | gated: the run fails                            | warnings: the run still passes
//	------------------+-------------------------------------------------+-------------------------------
//	none (strict)     | a failure or unsupported, either tier; xpass    | -
//	conformant        | required tier: a failure, unsupported or xfail  | optional tier: a failure,
//	                  | (an expected failure never lets a level pass);  | unsupported or xfail
//	                  | xpass anywhere                                  |
//	fully-conformant  | both tiers: a failure, unsupported or xfail;    | -
//	                  | xpass                                           |
//
// The run passes when no case is gated and, with a target, the level
// reaches it. A filtered run claims no level, accepts no target and is
// judged strictly on the cases it ran; a fail-fast run that stopped early
// claims no level and fails. An infrastructure error or a vector file that
// could not be loaded leaves the run without a verdict (it fails, and
// Infrastructure is set).
type Verdict struct {
	// Passed is whether the run passed its gate.
	Passed bool `json:"passed"`
	// Reason says why, in a few words.
	Reason string `json:"reason"`
	// Infrastructure is set when the run has no verdict: it stopped on an
	// infrastructure error, or vector files could not be loaded.
	Infrastructure bool `json:"infrastructure,omitempty"`
	// Target is the level the run was judged against; "" when strict.
	Target Level `json:"target,omitempty"`
	// LevelClaimed is false for a filtered run, a shard, a run stopped
	// early and a run without a verdict; Level is then LevelNone.
	LevelClaimed bool   `json:"level_claimed"`
	Level        Level  `json:"level"`
	LevelText    string `json:"level_text"`
	// Counts count the cases per outcome (only the outcomes that occur).
	Counts map[Outcome]int `json:"counts"`
	// Gated and Warnings count the cases of those classes.
	Gated    int `json:"gated"`
	Warnings int `json:"warnings"`
	// Cases classify every case, in report order.
	Cases []CaseVerdict `json:"cases"`
}

// Verdict computes the run's verdict: the one function that decides it
// (see the type [Verdict]).
func (r *Report) Verdict() Verdict {
	v := Verdict{Counts: map[Outcome]int{}, Level: r.Level}
	target := r.RequireLevel
	if target == LevelNone || r.Filtered {
		target = "" // a filtered run accepts no target (Start refuses one)
	}
	v.Target = target
	suiteErrors := 0
	for _, c := range r.Cases {
		if c.SuiteError != nil && c.Outcome != protocol.OutcomeSkip {
			suiteErrors++ // the suite's fault: gated, and no verdict
		}
		cv := CaseVerdict{ID: c.ID, Tier: c.Tier, Outcome: c.Outcome, Class: Classify(c, target)}
		v.Counts[cv.Outcome]++
		switch cv.Class {
		case ClassGated:
			v.Gated++
		case ClassWarning:
			v.Warnings++
		}
		v.Cases = append(v.Cases, cv)
	}
	switch {
	case r.Infrastructure != "":
		v.LevelText = "no level claimed (infrastructure error)"
	case r.StoppedEarly:
		v.LevelText = "no level claimed (the run stopped early: fail fast)"
	case r.Shard.Count > 1:
		v.LevelText = "no level claimed (shard " + r.Shard.String() + " of a run)"
	case r.Filtered:
		v.LevelText = "no level claimed (filtered run)"
	default:
		v.LevelClaimed = true
		v.LevelText = r.Level.Title()
	}
	if !v.LevelClaimed {
		v.Level = LevelNone
	}
	var why string
	switch {
	case r.Infrastructure != "":
		v.Infrastructure, why = true, "no verdict: infrastructure error (the run stopped; see the report)"
	case suiteErrors > 0:
		v.Infrastructure, why = true, "no verdict: "+vectorFiles(suiteErrors)+" could not be loaded"
	case r.StoppedEarly:
		why = "the run stopped at its first gated outcome (fail fast); " + v.LevelText
	case v.Gated > 0:
		why = fmt.Sprintf("%d gated (%s)", v.Gated, v.gatedCounts())
		if target != "" {
			why += "; " + reached(v.Level, target)
		}
	case target != "" && !v.Level.AtLeast(target):
		why = reached(v.Level, target) + " (" + r.LevelReason + ")"
	case target != "":
		v.Passed, why = true, reached(v.Level, target)
	case r.Filtered:
		v.Passed, why = true, "nothing unexpected in the cases run; "+v.LevelText
	default:
		v.Passed, why = true, "nothing unexpected; level "+v.LevelText
	}
	if v.Warnings > 0 {
		noun := "warnings"
		if v.Warnings == 1 {
			noun = "warning"
		}
		why += fmt.Sprintf("; %d %s (optional cases failed or unsupported, not required for %s)", v.Warnings, noun, target.Title())
	}
	v.Reason = why
	return v
}

// reached says whether level reaches target.
func reached(level, target Level) string {
	if level.AtLeast(target) {
		return "level " + level.Title() + " reaches the target " + target.Title()
	}
	return "level " + level.Title() + " misses the target " + target.Title()
}

// gatedCounts counts the gated cases per outcome ("2 fail, 1 xpass").
func (v Verdict) gatedCounts() string {
	n := map[Outcome]int{}
	for _, c := range v.Cases {
		if c.Class == ClassGated {
			n[c.Outcome]++
		}
	}
	var parts []string
	for _, o := range Outcomes {
		if n[o] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[o], o))
		}
	}
	return strings.Join(parts, ", ")
}

// Line is the verdict in one line, the last line of the text, Markdown
// and HTML reports: "verdict: PASS — why" or "verdict: FAIL — why".
func (v Verdict) Line() string {
	word := "FAIL"
	if v.Passed {
		word = "PASS"
	}
	return "verdict: " + word + " — " + v.Reason
}

// ClassOf returns the class of the case id, and false when the verdict
// does not count it (an unknown id, or a vector file that did not load).
func (v Verdict) ClassOf(id string) (Class, bool) {
	for _, c := range v.Cases {
		if c.ID == id {
			return c.Class, true
		}
	}
	return "", false
}

// Classes returns the class of every case the verdict counts, by id.
func (v Verdict) Classes() map[string]Class {
	m := make(map[string]Class, len(v.Cases))
	for _, c := range v.Cases {
		m[c.ID] = c.Class
	}
	return m
}

// ErrFailed is matched by the error of [Report.Err] for a run that ran but
// missed its target, and by the error of [explore.Report.Err] for an
// exploration that found a divergence.
var ErrFailed = errors.New("conformance run failed")

// Err is the run's [Verdict] as an error: nil when it passed. Otherwise
// it wraps ErrInfrastructure (the run stopped without a verdict, or vector
// files could not be loaded) or ErrFailed, says why and lists the gated
// cases.
func (r *Report) Err() error {
	v := r.Verdict()
	if v.Passed {
		return nil
	}
	if v.Infrastructure {
		if r.Infrastructure != "" {
			return fmt.Errorf("%w: %s", protocol.ErrInfrastructure, r.Infrastructure)
		}
		var suiteErrs []string
		for _, c := range r.Cases {
			if c.SuiteError != nil && c.Outcome != protocol.OutcomeSkip {
				suiteErrs = append(suiteErrs, c.SuiteError.Error())
			}
		}
		return fmt.Errorf("%w: %s could not be loaded: %s", protocol.ErrInfrastructure, vectorFiles(len(suiteErrs)), strings.Join(suiteErrs, "; "))
	}
	var failing []string
	for i, c := range r.Cases {
		if v.Cases[i].Class == ClassGated {
			failing = append(failing, c.ID+": "+outcomeMessage(c))
		}
	}
	const max = 10
	if len(failing) > max {
		failing = append(failing[:max], fmt.Sprintf("... and %d more", len(failing)-max))
	}
	if len(failing) == 0 {
		return fmt.Errorf("%w: %s", ErrFailed, v.Reason)
	}
	return fmt.Errorf("%w: %s\n%s", ErrFailed, v.Reason, strings.Join(failing, "\n"))
}

// outcomeMessage is the case's message led by its outcome, said once.
func outcomeMessage(c CaseResult) string {
	if strings.HasPrefix(c.Message, string(c.Outcome)+":") {
		return c.Message
	}
	return string(c.Outcome) + ": " + c.Message
}

// MarshalJSON writes the report with its [Verdict] as "verdict": the
// verdict is computed, never read back.
func (r Report) MarshalJSON() ([]byte, error) {
	type plain Report // without this method
	return json.Marshal(struct {
		plain
		Verdict Verdict `json:"verdict"`
	}{plain(r), r.Verdict()})
}

// vectorFiles is "1 vector file" or "N vector files".
func vectorFiles(n int) string {
	if n == 1 {
		return "1 vector file"
	}
	return fmt.Sprintf("%d vector files", n)
}
