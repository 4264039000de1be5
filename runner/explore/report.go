package explore

import (
	"fmt"
	"strings"
	"time"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/protocol"
	"github.com/cupel-go/go-cupel/runner/requirement"
	"github.com/cupel-go/go-cupel/runner/vector"
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
	Schema         string `json:"schema"`
	Implementation protocol.Identity
	Oracle         protocol.Identity
	// OracleTrusted is true when the oracle is go-cupel in process: its
	// outputs are the expected values. With another oracle a divergence
	// says only that the two disagree.
	OracleTrusted bool
	Seed          uint64
	// Stages are the stages generated.
	Stages []string
	// Cases counts the generated cases run on both sides; Skipped the ones
	// either side answered unsupported (generation uses only what hello
	// declares, so these are capabilities that overstate).
	Cases, Skipped int
	Duration       time.Duration
	// Divergences are the distinct divergences, in the order found.
	Divergences []*Divergence
	// Infrastructure, when set, says why exploration stopped without a
	// verdict (an implementation that would not start, a crash loop).
	Infrastructure string
	// Interrupted is set when ctx ended the exploration early.
	Interrupted bool
	// Coverage counts, per feature of the configuration space, the
	// generated cases that use it (with Options.Coverage).
	Coverage []FeatureCount `json:",omitempty"`
	// Shard is the shard this report covers (zero: every index).
	Shard runner.Shard `json:",omitzero"`
	// requirements is Options.Requirements.
	requirements *requirement.Catalogue
}

// Divergence is one distinct disagreement: a stage, a component and a kind
// of difference, with the shrunk case that shows it.
type Divergence struct {
	// Class is "stage / component / kind", the key that makes it distinct.
	Class, Stage, Component, Kind string
	// Seed and Index regenerate the original case; OriginalItems is its
	// item count before shrinking.
	Seed          uint64
	Index         int
	OriginalItems int
	// Count is how many generated cases fell in this class.
	Count int
	// Case is the shrunk case; its Expect holds the oracle's outputs.
	Case *vector.Case
	// Verdict is the comparison of the implementation's result on Case.
	Verdict runner.Judgement
	// Actual and OracleResult are the two sides' results on Case; Fault
	// describes a crash, hang or protocol error of the implementation (or,
	// with OracleFault, of the oracle), and Stderr its stderr tail.
	// Actual is kept as a run's report keeps it (protocol.Result.Kept):
	// ActualCut, when set, says what of it was not kept.
	Actual, OracleResult *protocol.Result
	ActualCut            string
	Fault, Stderr        string
	OracleFault          bool
	// ShrinkRuns counts the runs spent shrinking.
	ShrinkRuns int
	// Input names a fuzzer's input (Index -1): the first 12 hex digits of
	// its SHA-256. It is in the name of the input's vector, so that each
	// input writes a file of its own.
	Input string `json:",omitempty"`
	// File is the vector written for it (under Options.Out).
	File string
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

// ReportSchema identifies the JSON form of a Report.
const ReportSchema = "cupel-conform-explore/1"

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
