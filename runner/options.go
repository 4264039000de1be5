package runner

import (
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"time"

	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/requirement"
)

// Options configure a run. The zero value runs the embedded suite with
// the default timeout and no filters.
type Options struct {
	// Suite is the suite to run; nil means the embedded suite (vectors.FS).
	Suite fs.FS
	// SuiteName describes the suite in reports ("embedded" by default).
	SuiteName string
	// Catalogue is the requirements catalogue the cases' [test] covers
	// refer to, which the report judges requirements against (see
	// [Requirements]); nil means the embedded one
	// (requirement.Embedded).
	Catalogue *requirement.Catalogue
	// Run and Skip are regular expressions matched against case ids: only
	// cases matching Run (when set) and not matching Skip (when set) run.
	Run, Skip string
	// Tiers and Stages restrict the run to these tiers and stages.
	Tiers, Stages []string
	// Timeout bounds each case (default 10s).
	Timeout time.Duration
	// StartupTimeout bounds Hello (default 30s).
	StartupTimeout time.Duration
	// ExpectedFailures are the known failures; nil means none.
	ExpectedFailures *ExpectedFailures
	// RequireLevel is the target level of the run's [Verdict] (for
	// [Report.Err] and [Check]); "" judges strictly: no failure or
	// unsupported case that is not an expected failure, and no expected
	// failure that passes. A filtered run claims no level, so RequireLevel cannot be
	// combined with filters.
	RequireLevel Level
	// OnResult, when set, is called after each case that ran (for
	// progress), never from two goroutines at once.
	OnResult func(CaseResult)
	// Parallel is how many cases [Run] and [RunSuite] run at once (0 or 1:
	// one at a time). Above 1 the implementation must be a [protocol.Forker]: each
	// of the Parallel workers runs cases on its own fork (the first on the
	// implementation itself); one that is not a Forker runs one case at a
	// time. The report is the same as a serial run's, in the same order.
	Parallel int
	// FailFast stops the run at the first gated outcome ([Classify] against
	// RequireLevel): the cases not yet started are skipped, so the run
	// claims no level, and it fails.
	FailFast bool
	// Shard, when set, runs only this shard's share of the cases (by
	// position in run order; see Shard): the others are skipped, so a
	// shard claims no level. MergeReports combines the shards' reports
	// into the report of one unsharded run.
	Shard Shard
}

// Filtered reports whether any filter is set.
func (o *Options) Filtered() bool {
	return o.Run != "" || o.Skip != "" || len(o.Tiers) > 0 || len(o.Stages) > 0
}

type selector struct {
	run, skip     *regexp.Regexp
	tiers, stages []string
}

func (o *Options) selector() (*selector, error) {
	s := &selector{tiers: o.Tiers, stages: o.Stages}
	var err error
	if o.Run != "" {
		if s.run, err = regexp.Compile(o.Run); err != nil {
			return nil, fmt.Errorf("%w: Options.Run: %v", ErrUsage, err)
		}
	}
	if o.Skip != "" {
		if s.skip, err = regexp.Compile(o.Skip); err != nil {
			return nil, fmt.Errorf("%w: Options.Skip: %v", ErrUsage, err)
		}
	}
	for _, t := range o.Tiers {
		if !slices.Contains(casefile.Tiers, t) {
			return nil, fmt.Errorf("%w: unknown tier %q (want required or optional)", ErrUsage, t)
		}
	}
	for _, st := range o.Stages {
		if !slices.Contains(casefile.Stages, st) {
			return nil, fmt.Errorf("%w: unknown stage %q (want scoring, slicing, placing or pipeline)", ErrUsage, st)
		}
	}
	return s, nil
}

func (s *selector) match(id, tier, stage string) bool {
	if s.run != nil && !s.run.MatchString(id) {
		return false
	}
	if s.skip != nil && s.skip.MatchString(id) {
		return false
	}
	if len(s.tiers) > 0 && !slices.Contains(s.tiers, tier) {
		return false
	}
	if len(s.stages) > 0 && !slices.Contains(s.stages, stage) {
		return false
	}
	return true
}
