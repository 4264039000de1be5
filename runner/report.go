package runner

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
	"github.com/cupel-go/go-cupel/runner/requirement"
)

// ReportSchema is the version of the JSON report format. Version 2 names
// a case's outcome "outcome" (version 1: "status"), an expected failure
// that passed "xpass" (version 1: "unexpected-pass"), and counts every
// outcome apart in the verdict; docs/vocabulary.md has the table.
const ReportSchema = "cupel-conform/report/2"

// reportSchema1 is the first version of the JSON report format, which a
// Report still reads (upgraded to ReportSchema).
const reportSchema1 = "cupel-conform/report/1"

// ReportSchemas are the versions of the JSON report a [Report] reads, the
// current one first; an older one is upgraded to [ReportSchema] as it is
// read.
var ReportSchemas = []string{ReportSchema, reportSchema1}

// Report is the outcome of a run. Its JSON form is the --json report.
type Report struct {
	Schema         string                  `json:"schema"`
	Runner         protocol.RunnerIdentity `json:"runner"`
	Suite          SuiteIdentity           `json:"suite"`
	Implementation protocol.Identity       `json:"implementation"`
	// Filtered is true when cases were left out (skipped) by the run's
	// filters or by go test -run; such a run claims no level.
	Filtered bool `json:"filtered"`
	// StoppedEarly is true when [Options.FailFast] stopped the run at its
	// first gated outcome; the cases not started are skipped.
	StoppedEarly bool    `json:"stopped_early,omitempty"`
	Filters      Filters `json:"filters"`
	// Shard is the shard of the run (absent: every case); see MergeReports.
	Shard Shard `json:"shard,omitzero"`
	// Level is the level reached; LevelReason explains it.
	Level       Level  `json:"level"`
	LevelReason string `json:"level_reason"`
	// RequireLevel is the target level, "" when none.
	RequireLevel Level `json:"require_level,omitempty"`
	// Counts are per tier ("required", "optional", "all") and outcome.
	Counts map[string]map[protocol.Outcome]int `json:"counts"`
	// StageCounts are per "tier/stage" and outcome.
	StageCounts map[string]map[protocol.Outcome]int `json:"stage_counts"`
	// Infrastructure, when set, says why the run stopped without a verdict.
	Infrastructure       string `json:"infrastructure_error,omitempty"`
	InfrastructureStderr string `json:"infrastructure_stderr,omitempty"`
	// Restarts counts the restarts of the implementation's session.
	Restarts int `json:"restarts"`
	// Requirements are the testable requirements the run met, failed and
	// did not run, and those its level leaves unchecked (see
	// [Requirements]); nil when the catalogue cannot be read.
	Requirements *Requirements `json:"requirements,omitempty"`
	// SuiteErrors counts vector files that could not be loaded.
	SuiteErrors int          `json:"suite_errors"`
	Started     time.Time    `json:"started"`
	Duration    Seconds      `json:"duration"`
	Cases       []CaseResult `json:"cases"`

	// catalogue is the run's requirements catalogue (nil: the embedded one).
	catalogue *requirement.Catalogue
}

// Seconds is a duration that reads and writes as a JSON number of seconds
// (with millisecond precision), the report's unit for durations.
type Seconds time.Duration

// MarshalJSON implements json.Marshaler.
func (d Seconds) MarshalJSON() ([]byte, error) {
	return []byte(fmt.Sprintf("%.3f", time.Duration(d).Seconds())), nil
}

// UnmarshalJSON implements json.Unmarshaler.
func (d *Seconds) UnmarshalJSON(b []byte) error {
	var s float64
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*d = Seconds(s * float64(time.Second))
	return nil
}

// SuiteIdentity identifies the suite a report is of.
type SuiteIdentity struct {
	Source      string `json:"source"`
	SpecVersion string `json:"spec_version"`
	Digest      string `json:"digest"`
	Cases       int    `json:"cases"`
}

// Filters records the filters of a run.
type Filters struct {
	Run    string   `json:"run,omitempty"`
	Skip   string   `json:"skip,omitempty"`
	Tiers  []string `json:"tiers,omitempty"`
	Stages []string `json:"stages,omitempty"`
	// RerunFailed is the JSON report whose failed cases the run reruns
	// (cupel-conform run --rerun-failed), and RerunCases their number: Run
	// then selects them by id.
	RerunFailed string `json:"rerun_failed,omitempty"`
	RerunCases  int    `json:"rerun_cases,omitempty"`
}

// CaseResult is the verdict on one case.
type CaseResult struct {
	ID      string           `json:"id"`
	Tier    string           `json:"tier"`
	Stage   string           `json:"stage"`
	Name    string           `json:"name,omitempty"`
	File    string           `json:"file,omitempty"`
	Outcome protocol.Outcome `json:"outcome"`
	Message string           `json:"message,omitempty"`
	Details []string         `json:"details,omitempty"`
	// Requirements are the ids of the requirements the case's vector
	// covers ([test] covers), as it lists them, cut as bound.List cuts (a
	// suite is input too). An id need not be in the catalogue.
	Requirements []string `json:"requirements,omitempty"`
	// Duration is how long the implementation took (0 for cases not run).
	Duration Seconds `json:"seconds,omitempty"`
	// Stderr is the implementation's stderr tail for a faulty case.
	Stderr string `json:"stderr,omitempty"`
	// Actual is the raw result the implementation returned, as the report
	// keeps it (see [protocol.Result.Kept]).
	Actual *protocol.Result `json:"actual,omitempty"`
	// ActualCut, when set, says what of Actual was not kept, and why.
	ActualCut string `json:"actual_cut,omitempty"`
	// Line is the line the implementation sent for the case, as sent, for
	// a case that did not pass (bounded by bound.Line): the
	// evidence Actual was decoded from, or the line refused.
	Line string `json:"line,omitempty"`
	// ExpectedFailure is the entry of the expected failures file that
	// applied to the case.
	ExpectedFailure *ExpectedFailure `json:"expected_failure,omitempty"`
	// SuiteError is set when the vector could not be loaded.
	SuiteError *casefile.SuiteError `json:"suite_error,omitempty"`

	infra error
}

// UnmarshalJSON reads a JSON report of any of the [ReportSchemas] and
// upgrades it to [ReportSchema].
func (r *Report) UnmarshalJSON(b []byte) error {
	type plain Report
	if err := json.Unmarshal(b, (*plain)(r)); err != nil {
		return err
	}
	if r.Schema != reportSchema1 {
		return nil
	}
	var old struct { // what report/1 says under other names
		Cases []struct {
			Status   protocol.Outcome `json:"status"`
			Expected *struct {
				Status protocol.Outcome `json:"status"`
			} `json:"expected_failure"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &old); err != nil {
		return err
	}
	upgrade := func(o protocol.Outcome) protocol.Outcome {
		if o == "unexpected-pass" {
			return protocol.OutcomeXPass
		}
		return o
	}
	for i := range min(len(r.Cases), len(old.Cases)) {
		c, o := &r.Cases[i], old.Cases[i]
		c.Outcome = upgrade(o.Status)
		if c.ExpectedFailure != nil && o.Expected != nil {
			c.ExpectedFailure.Outcome = o.Expected.Status
		}
	}
	for _, counts := range []map[string]map[protocol.Outcome]int{r.Counts, r.StageCounts} {
		for _, m := range counts {
			if n, ok := m["unexpected-pass"]; ok {
				delete(m, "unexpected-pass")
				m[protocol.OutcomeXPass] += n
			}
		}
	}
	r.Schema = ReportSchema
	return nil
}

// Recount computes the counts, Filtered, SuiteErrors, the level and the
// requirements from Cases: for a report built or edited by hand (a run's
// report is counted already).
func (r *Report) Recount() { r.finish() }

// finish computes the counts and the level.
func (r *Report) finish() {
	r.Counts = map[string]map[protocol.Outcome]int{"all": {}, casefile.TierRequired: {}, casefile.TierOptional: {}}
	r.StageCounts = map[string]map[protocol.Outcome]int{}
	r.SuiteErrors, r.Filtered = 0, false
	for i := range r.Cases {
		c := &r.Cases[i]
		r.Counts["all"][c.Outcome]++
		if _, ok := r.Counts[c.Tier]; ok {
			r.Counts[c.Tier][c.Outcome]++
		}
		g := c.Tier + "/" + c.Stage
		if r.StageCounts[g] == nil {
			r.StageCounts[g] = map[protocol.Outcome]int{}
		}
		r.StageCounts[g][c.Outcome]++
		if c.Outcome == protocol.OutcomeSkip {
			r.Filtered = true
		}
		if c.SuiteError != nil {
			r.SuiteErrors++
		}
	}
	r.Level, r.LevelReason = r.computeLevel()
	if cat := r.Catalogue(); cat != nil {
		r.Requirements = judgeRequirements(cat, r.Cases, r.Level)
	}
}

// tierPasses counts the cases of a tier that were loaded, and those the
// implementation passed. The level comes from outcomes only: an expected
// failure that passes (xpass) is a pass, and one that fails as expected
// (xfail) is not; expected failures decide what is unexpected, never the
// level. A file that could not be loaded is the
// suite's fault, not the implementation's, and does not count.
func (r *Report) tierPasses(tier string) (pass, total int) {
	for _, c := range r.Cases {
		if c.Tier == tier && c.SuiteError == nil {
			total++
			if c.Passed() {
				pass++
			}
		}
	}
	return
}

// Passed reports whether the implementation's answer was right: a pass,
// or an xpass (an expected failure that passes).
func (c CaseResult) Passed() bool {
	return c.Outcome == protocol.OutcomePass || c.Outcome == protocol.OutcomeXPass
}

func (r *Report) computeLevel() (Level, string) {
	if r.Infrastructure != "" {
		return LevelNone, "infrastructure error: no level can be claimed"
	}
	if r.StoppedEarly {
		return LevelNone, "the run stopped at its first gated outcome (fail fast): no level can be claimed"
	}
	if r.Shard.Count > 1 {
		return LevelNone, "shard " + r.Shard.String() + " claims no level: merge the shards' reports (cupel-conform report merge) to get one"
	}
	if r.Filtered {
		return LevelNone, "a filtered run claims no level"
	}
	rp, rt := r.tierPasses(casefile.TierRequired)
	op, ot := r.tierPasses(casefile.TierOptional)
	var lvl Level
	var why string
	switch {
	case rt == 0:
		lvl, why = LevelNone, "the suite has no required case"
	case rp < rt:
		lvl, why = LevelNone, fmt.Sprintf("%d of %d required cases pass", rp, rt)
	case op < ot:
		lvl, why = LevelConformant, fmt.Sprintf("all %d required cases pass; %d of %d optional cases pass", rt, op, ot)
	default:
		lvl, why = LevelFullyConformant, fmt.Sprintf("all %d required and %d optional cases pass", rt, ot)
	}
	if r.SuiteErrors > 0 {
		why += "; " + vectorFiles(r.SuiteErrors) + " could not be loaded (a suite error, not counted)"
	}
	return lvl, why
}

// WriteJSON writes the report as indented JSON, with its verdict (see
// [Report.MarshalJSON]). It streams: the cases are encoded one at a time,
// so the document is never held whole in memory. The bytes are those of
// encoding/json's Encoder with the indent "  ".
func (r *Report) WriteJSON(w io.Writer) error {
	if len(r.Cases) == 0 {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	type plain Report // without MarshalJSON
	head := plain(*r)
	head.Cases = []CaseResult{}
	b, err := json.MarshalIndent(struct {
		plain
		Verdict Verdict `json:"verdict"`
	}{head, r.Verdict()}, "", "  ")
	if err != nil {
		return err
	}
	// A string holds no raw newline: this is the top-level key.
	const key = "\n  \"cases\": []"
	at := bytes.Index(b, []byte(key))
	if at < 0 {
		return fmt.Errorf("runner: the JSON report has no %q", key)
	}
	bw := bufio.NewWriter(w)
	bw.Write(b[:at+len(key)-1])
	for i := range r.Cases {
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n    ")
		c, err := json.MarshalIndent(&r.Cases[i], "    ", "  ")
		if err != nil {
			return err
		}
		bw.Write(c)
	}
	bw.WriteString("\n  ]")
	bw.Write(b[at+len(key):])
	bw.WriteByte('\n')
	return bw.Flush()
}
