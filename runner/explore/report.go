package explore

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
	"github.com/cupel-go/go-cupel/runner/requirement"
)

// This file declares what an exploration takes and gives: its options,
// progress, report and divergences.

// Options configure Run. The zero value explores 1,000 cases of
// seed 0 against go-cupel.
type Options struct {
	// Seed selects the cases: case (Seed, i) is the same on every run.
	Seed uint64
	// Cases is how many cases to generate. With Duration set, generation
	// stops at whichever comes first; with neither set, 1,000.
	Cases int
	// Duration bounds the generation (shrinking the last divergence found
	// may run past it).
	Duration time.Duration
	// Stages restricts generation to these stages (default: every stage
	// both sides declare in hello).
	Stages []string
	// Oracle produces the expected values. Nil means go-cupel in process
	// (Engine), which is trusted; any other oracle is not, and reports
	// name both outputs without taking sides.
	Oracle protocol.Implementation
	// Timeout bounds each run of a case (default 10s); StartupTimeout
	// bounds each Hello (default 30s).
	Timeout, StartupTimeout time.Duration
	// ShrinkRuns bounds the runs spent shrinking one divergence (default
	// 2,000); ShrinkTime bounds the time (default 60s).
	ShrinkRuns int
	ShrinkTime time.Duration
	// Out, when set, is the directory each distinct divergence is written
	// to as a vector file: Out/optional/<stage>/<name>.toml, which
	// `cupel-conform run --suite Out` runs.
	Out string
	// OnProgress, when set, is called every few hundred cases and at each
	// new divergence.
	OnProgress func(Progress)
	// Coverage, when set, counts the features of the configuration space
	// the generated cases use (Report.Coverage).
	Coverage bool
	// Shard, when set, runs only this shard's share of the indices below
	// Cases (see Shard); the shards' reports merge with MergeReports.
	Shard runner.Shard
	// Requirements is the catalogue a written vector's candidate
	// requirements come from (see Divergence.VectorTOML); nil means the
	// embedded one, spec 1.3's.
	Requirements *requirement.Catalogue
}

// Progress is a snapshot of an exploration under way.
type Progress struct {
	Cases       int
	Skipped     int
	Divergences int
	Elapsed     time.Duration
	// Shrinking names the divergence being shrunk, if any.
	Shrinking string
}

// Report is the outcome of Run.
type Report struct {
	// Schema is ReportSchema in the JSON form.
	Schema         string            `json:"schema"`
	Implementation protocol.Identity `json:"implementation"`
	Oracle         protocol.Identity `json:"oracle"`
	// OracleTrusted is true when the oracle is go-cupel in process: its
	// outputs are the expected values. With another oracle a divergence
	// says only that the two disagree.
	OracleTrusted bool   `json:"oracle_trusted"`
	Seed          uint64 `json:"seed"`
	// Stages are the stages generated.
	Stages []string `json:"stages"`
	// Cases counts the generated cases run on both sides; Skipped the ones
	// either side answered unsupported (generation uses only what hello
	// declares, so these are capabilities that overstate).
	Cases    int           `json:"cases"`
	Skipped  int           `json:"skipped"`
	Duration time.Duration `json:"duration_ns"`
	// Divergences are the distinct divergences, in the order found.
	Divergences []*Divergence `json:"divergences"`
	// Infrastructure, when set, says why exploration stopped without a
	// verdict (an implementation that would not start, a crash loop).
	Infrastructure string `json:"infrastructure_error,omitempty"`
	// Interrupted is set when ctx ended the exploration early.
	Interrupted bool `json:"interrupted"`
	// Coverage counts, per feature of the configuration space, the
	// generated cases that use it (with Options.Coverage).
	Coverage []FeatureCount `json:"coverage,omitempty"`
	// Shard is the shard this report covers (zero: every index).
	Shard runner.Shard `json:"shard,omitzero"`
	// requirements is Options.Requirements.
	requirements *requirement.Catalogue
}

// Divergence is one distinct disagreement: a stage, a component and a kind
// of difference, with the shrunk case that shows it.
type Divergence struct {
	// Class is "stage / component / kind", the key that makes it distinct.
	Class     string `json:"class"`
	Stage     string `json:"stage"`
	Component string `json:"component"`
	Kind      string `json:"kind"`
	// Seed and Index regenerate the original case; OriginalItems is its
	// item count before shrinking.
	Seed          uint64 `json:"seed"`
	Index         int    `json:"index"`
	OriginalItems int    `json:"original_items"`
	// Count is how many generated cases fell in this class.
	Count int `json:"count"`
	// Case is the shrunk case; its Expect holds the oracle's outputs.
	Case *casefile.Case `json:"case"`
	// Comparison is the comparison of the implementation's result on Case.
	Comparison runner.Comparison `json:"comparison"`
	// Actual and OracleResult are the two sides' results on Case; Fault
	// describes a crash, hang or protocol error of the implementation (or,
	// with OracleFault, of the oracle), and Stderr its stderr tail.
	// Actual is kept as a run's report keeps it (protocol.Result.Kept):
	// ActualCut, when set, says what of it was not kept.
	Actual       *protocol.Result `json:"actual,omitempty"`
	OracleResult *protocol.Result `json:"oracle_result,omitempty"`
	ActualCut    string           `json:"actual_cut,omitempty"`
	Fault        string           `json:"fault,omitempty"`
	Stderr       string           `json:"stderr,omitempty"`
	OracleFault  bool             `json:"oracle_fault,omitempty"`
	// ShrinkRuns counts the runs spent shrinking.
	ShrinkRuns int `json:"shrink_runs"`
	// Input names a fuzzer's input (Index -1): the first 12 hex digits of
	// its SHA-256. It is in the name of the input's vector, so that each
	// input writes a file of its own.
	Input string `json:"input,omitempty"`
	// File is the vector written for it (under Options.Out).
	File string `json:"file,omitempty"`
}

// Err is the verdict of the exploration as an error, in the manner of
// [Report.Err]. It is nil when no divergence was found. Otherwise it wraps
// ErrInfrastructure when exploration stopped without a verdict (an
// implementation that would not start, a crash loop, an interruption
// before any divergence), or ErrFailed and names the divergences' classes.
// cupel-conform explore exits 3 for the first, 1 for the second.
func (r *Report) Err() error {
	switch {
	case r.Infrastructure != "":
		return fmt.Errorf("%w: %s", protocol.ErrInfrastructure, r.Infrastructure)
	case r.Interrupted && len(r.Divergences) == 0:
		return fmt.Errorf("%w: interrupted after %d cases, before any divergence", protocol.ErrInfrastructure, r.Cases)
	case len(r.Divergences) > 0:
		classes := make([]string, len(r.Divergences))
		for i, d := range r.Divergences {
			classes[i] = d.Class
		}
		return fmt.Errorf("%w: %d divergences in %d cases: %s", runner.ErrFailed, len(r.Divergences), r.Cases, strings.Join(classes, "; "))
	}
	return nil
}

// CasesPerSecond is the generation rate, shrinking included.
func (r *Report) CasesPerSecond() float64 {
	if r.Duration <= 0 {
		return 0
	}
	return float64(r.Cases) / r.Duration.Seconds()
}

// ReportSchema identifies the JSON form of a Report. Version 2 writes
// the keys in snake_case, as the run report does (version 1 wrote Go's
// field names), names the duration in nanoseconds duration_ns and a
// divergence's comparison "comparison" (version 1: "Verdict", with a
// "Status"); a Report reads version 1 too.
const ReportSchema = "cupel-conform-explore/2"

// reportSchema1 is the first version, which a Report still reads.
const reportSchema1 = "cupel-conform-explore/1"

// reportKeys1 are the keys of version 1 that version 2 renamed: those of
// a Report, of a Divergence and of its comparison.
var reportKeys1 = map[string]string{
	"Implementation": "implementation", "Oracle": "oracle", "OracleTrusted": "oracle_trusted", "Seed": "seed",
	"Stages": "stages", "Cases": "cases", "Skipped": "skipped", "Duration": "duration_ns", "Divergences": "divergences",
	"Infrastructure": "infrastructure_error", "Interrupted": "interrupted", "Coverage": "coverage", "Shard": "shard",
	"Class": "class", "Stage": "stage", "Component": "component", "Kind": "kind", "Index": "index",
	"OriginalItems": "original_items", "Count": "count", "Case": "case", "Verdict": "comparison", "Actual": "actual",
	"OracleResult": "oracle_result", "ActualCut": "actual_cut", "Fault": "fault", "Stderr": "stderr",
	"OracleFault": "oracle_fault", "ShrinkRuns": "shrink_runs", "Input": "input", "File": "file",
	"Status": "outcome", "Message": "message", "Details": "details",
}

// renameKeys1 renames the version 1 keys of the object b (a Report, a
// Divergence or a comparison) and of the objects under "divergences" and
// "comparison".
func renameKeys1(b json.RawMessage) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	out := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		if n, ok := reportKeys1[k]; ok {
			k = n
		}
		out[k] = v
	}
	if c, ok := out["comparison"]; ok && string(c) != "null" {
		c, err := renameKeys1(c)
		if err != nil {
			return nil, err
		}
		out["comparison"] = c
	}
	if d, ok := out["divergences"]; ok && string(d) != "null" {
		var ds []json.RawMessage
		if err := json.Unmarshal(d, &ds); err != nil {
			return nil, err
		}
		for i := range ds {
			var err error
			if ds[i], err = renameKeys1(ds[i]); err != nil {
				return nil, err
			}
		}
		d, err := json.Marshal(ds)
		if err != nil {
			return nil, err
		}
		out["divergences"] = d
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads a JSON report of any of the [ReportSchemas] and
// upgrades it to [ReportSchema].
func (r *Report) UnmarshalJSON(b []byte) error {
	type plain Report
	var head struct {
		Schema string `json:"schema"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return err
	}
	if head.Schema != reportSchema1 {
		return json.Unmarshal(b, (*plain)(r))
	}
	b, err := renameKeys1(b)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, (*plain)(r)); err != nil {
		return err
	}
	r.Schema = ReportSchema
	return nil
}

// ReportSchemas are the versions of the JSON form a [Report] reads, the
// current one first.
var ReportSchemas = []string{ReportSchema, reportSchema1}

// FeatureCount is how many generated cases used one feature of the
// configuration space.
type FeatureCount struct {
	// Feature names it: "scorer kind", "slicer quota", "placer u-shaped",
	// "nested composite", "quota require", "decay step", "pinned items",
	// "overflow proceed", "1,024+ items (radix sort)", ...
	Feature string `json:"feature"`
	// Cases counts the generated cases that use it.
	Cases int `json:"cases"`
}
