package runner

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"
)

// ReportSchema is the version of the JSON report format.
const ReportSchema = "cupel-conform/report/1"

// Report is the outcome of a run. Its JSON form is the --json report.
type Report struct {
	Schema         string     `json:"schema"`
	Runner         RunnerInfo `json:"runner"`
	Suite          SuiteInfo  `json:"suite"`
	Implementation Info       `json:"implementation"`
	// Filtered is true when filters deselected cases; such a run claims
	// no level.
	Filtered bool    `json:"filtered"`
	Filters  Filters `json:"filters"`
	// Level is the level reached; LevelReason explains it.
	Level       Level  `json:"level"`
	LevelReason string `json:"level_reason"`
	// RequireLevel is the target level, "" when none.
	RequireLevel Level `json:"require_level,omitempty"`
	// Counts are per tier ("required", "optional", "all") and status.
	Counts map[string]map[Status]int `json:"counts"`
	// StageCounts are per "tier/stage" and status.
	StageCounts map[string]map[Status]int `json:"stage_counts"`
	// Unexpected counts results that are neither passes nor pinned by the
	// expectations (failures, errors, unsupported, unexpected passes).
	Unexpected int `json:"unexpected"`
	// Infrastructure, when set, says why the run stopped without a verdict.
	Infrastructure       string `json:"infrastructure_error,omitempty"`
	InfrastructureStderr string `json:"infrastructure_stderr,omitempty"`
	// Restarts counts the restarts of the implementation's session.
	Restarts int `json:"restarts"`
	// SuiteErrors counts vector files that could not be loaded.
	SuiteErrors int          `json:"suite_errors"`
	Started     time.Time    `json:"started"`
	Duration    Duration     `json:"duration"`
	Cases       []CaseResult `json:"cases"`
}

// Duration is a time.Duration that marshals as seconds (a JSON number).
type Duration time.Duration

// MarshalJSON implements json.Marshaler.
func (d Duration) MarshalJSON() ([]byte, error) {
	return []byte(fmt.Sprintf("%.3f", time.Duration(d).Seconds())), nil
}

// UnmarshalJSON implements json.Unmarshaler.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s float64
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*d = Duration(s * float64(time.Second))
	return nil
}

// RunnerInfo identifies the runner.
type RunnerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// SuiteInfo identifies the suite.
type SuiteInfo struct {
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
}

// CaseResult is the verdict on one case.
type CaseResult struct {
	ID       string        `json:"id"`
	Tier     string        `json:"tier"`
	Stage    string        `json:"stage"`
	Name     string        `json:"name,omitempty"`
	File     string        `json:"file,omitempty"`
	Status   Status        `json:"status"`
	Message  string        `json:"message,omitempty"`
	Details  []string      `json:"details,omitempty"`
	Duration time.Duration `json:"-"`
	Seconds  float64       `json:"seconds,omitempty"`
	// Stderr is the implementation's stderr tail for a faulty case.
	Stderr string `json:"stderr,omitempty"`
	// Actual is the raw result the implementation returned.
	Actual *Result `json:"actual,omitempty"`
	// Expected is the expectation entry that applied to the case.
	Expected *Expectation `json:"expected_failure,omitempty"`
	// SuiteError is set when the vector could not be loaded.
	SuiteError *SuiteError `json:"suite_error,omitempty"`

	infra error
}

// Unexpected reports whether the status is a result the run did not
// expect: anything but pass, xfail and skip.
func (c CaseResult) Unexpected() bool {
	switch c.Status {
	case StatusPass, StatusXFail, StatusSkip:
		return false
	}
	return true
}

func newReport(s *Suite, opts Options) *Report {
	src := opts.SuiteName
	if src == "" {
		src = "embedded"
		if opts.Suite != nil {
			src = "custom"
		}
	}
	return &Report{
		Schema:       ReportSchema,
		Runner:       RunnerInfo{Name: Name, Version: Version},
		Suite:        SuiteInfo{Source: src, SpecVersion: s.SpecVersion, Digest: s.Digest, Cases: len(s.Cases) + len(s.Errors)},
		Filtered:     opts.Filtered(),
		Filters:      Filters{Run: opts.Run, Skip: opts.Skip, Tiers: opts.Tiers, Stages: opts.Stages},
		RequireLevel: opts.RequireLevel,
		Started:      time.Now().UTC(),
	}
}

// finish computes the counts and the level.
func (r *Report) finish() {
	r.Counts = map[string]map[Status]int{"all": {}, TierRequired: {}, TierOptional: {}}
	r.StageCounts = map[string]map[Status]int{}
	r.Unexpected, r.SuiteErrors = 0, 0
	for i := range r.Cases {
		c := &r.Cases[i]
		c.Seconds = c.Duration.Seconds()
		r.Counts["all"][c.Status]++
		if _, ok := r.Counts[c.Tier]; ok {
			r.Counts[c.Tier][c.Status]++
		}
		g := c.Tier + "/" + c.Stage
		if r.StageCounts[g] == nil {
			r.StageCounts[g] = map[Status]int{}
		}
		r.StageCounts[g][c.Status]++
		if c.Unexpected() {
			r.Unexpected++
		}
		if c.SuiteError != nil {
			r.SuiteErrors++
		}
	}
	r.Level, r.LevelReason = r.computeLevel()
}

func (r *Report) tierPasses(tier string) (pass, total int) {
	for _, c := range r.Cases {
		if c.Tier == tier {
			total++
			if c.Status == StatusPass {
				pass++
			}
		}
	}
	return
}

func (r *Report) computeLevel() (Level, string) {
	if r.Infrastructure != "" {
		return LevelNone, "infrastructure error: no level can be claimed"
	}
	if r.Filtered {
		return LevelNone, "a filtered run claims no level"
	}
	rp, rt := r.tierPasses(TierRequired)
	op, ot := r.tierPasses(TierOptional)
	switch {
	case rt == 0:
		return LevelNone, "the suite has no required case"
	case rp < rt:
		return LevelNone, fmt.Sprintf("%d of %d required cases pass", rp, rt)
	case op < ot:
		return LevelConformant, fmt.Sprintf("all %d required cases pass; %d of %d optional cases pass", rt, op, ot)
	}
	return LevelFullyConformant, fmt.Sprintf("all %d required and %d optional cases pass", rt, ot)
}

// Exit codes of cupel-conform.
const (
	ExitOK             = 0
	ExitFail           = 1
	ExitUsage          = 2
	ExitInfrastructure = 3
)

// ExitCode is the process exit code for the report: 3 for an
// infrastructure error or a suite that could not be loaded in full; 1 when
// the required level is not met, an expected failure passed, or (without a
// required level) any result was unexpected; 0 otherwise.
func (r *Report) ExitCode() int {
	if r.Infrastructure != "" {
		return ExitInfrastructure
	}
	for _, c := range r.Cases {
		if c.SuiteError != nil && c.Status != StatusSkip {
			return ExitInfrastructure
		}
	}
	if r.RequireLevel != "" && r.RequireLevel != LevelNone {
		if !r.Level.AtLeast(r.RequireLevel) {
			return ExitFail
		}
		for _, c := range r.Cases {
			if c.Status == StatusUnexpectedPass {
				return ExitFail
			}
		}
		return ExitOK
	}
	if r.Unexpected > 0 {
		return ExitFail
	}
	return ExitOK
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// ReadReport reads a JSON report written by WriteJSON.
func ReadReport(path string) (*Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if r.Schema != ReportSchema {
		return nil, fmt.Errorf("%s: schema %q, want %q", path, r.Schema, ReportSchema)
	}
	return &r, nil
}
