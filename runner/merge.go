package runner

import (
	"fmt"
	"slices"
	"strings"
)

// This file merges the reports of shards (Options.Shard,
// explore.Options.Shard) into the report of one unsharded run.

// CheckShards checks that shards are the N distinct shards of one split
// and returns N; the error (ErrUsage) names the shard that is missing,
// given twice or of another split.
func CheckShards(shards []Shard) (int, error) {
	if len(shards) == 0 {
		return 0, fmt.Errorf("%w: no report to merge", ErrUsage)
	}
	n := shards[0].Count
	if n == 0 {
		n = 1
	}
	seen := make([]bool, n+1)
	for i, s := range shards {
		c, idx := s.Count, s.Index
		if c == 0 {
			c, idx = 1, 1
		}
		if c != n {
			return 0, fmt.Errorf("%w: report %d is shard %s, report 1 is of %d shards", ErrUsage, i+1, s, n)
		}
		if seen[idx] {
			return 0, fmt.Errorf("%w: shard %d/%d is given twice", ErrUsage, idx, n)
		}
		seen[idx] = true
	}
	var missing []string
	for i := 1; i <= n; i++ {
		if !seen[i] {
			missing = append(missing, fmt.Sprintf("%d/%d", i, n))
		}
	}
	switch len(missing) {
	case 0:
	case 1:
		return 0, fmt.Errorf("%w: shard %s is missing", ErrUsage, missing[0])
	default:
		return 0, fmt.Errorf("%w: shards %s are missing", ErrUsage, strings.Join(missing, ", "))
	}
	return n, nil
}

// MergeReports combines the reports of the N shards of one run (the same
// suite, implementation and filters; every shard once) into the report of
// the unsharded run: each case's result comes from the shard that ran it,
// and the counts, level and verdict are computed as for any run. The
// error (ErrUsage) names what does not fit.
func MergeReports(reps []*Report) (*Report, error) {
	shards := make([]Shard, len(reps))
	for i, r := range reps {
		shards[i] = r.Shard
	}
	n, err := CheckShards(shards)
	if err != nil {
		return nil, err
	}
	first := reps[0]
	for i, r := range reps[1:] {
		switch {
		case r.Suite.Digest != first.Suite.Digest:
			return nil, fmt.Errorf("%w: report %d ran suite %s, report 1 suite %s", ErrUsage, i+2, r.Suite.Digest, first.Suite.Digest)
		case len(r.Cases) != len(first.Cases):
			return nil, fmt.Errorf("%w: report %d has %d cases, report 1 %d", ErrUsage, i+2, len(r.Cases), len(first.Cases))
		case r.Implementation.Name != first.Implementation.Name || r.Implementation.Version != first.Implementation.Version:
			return nil, fmt.Errorf("%w: report %d is of %s, report 1 of %s", ErrUsage, i+2, r.Implementation.Title(), first.Implementation.Title())
		case r.RequireLevel != first.RequireLevel || !slices.Equal(r.Filters.Tiers, first.Filters.Tiers) ||
			!slices.Equal(r.Filters.Stages, first.Filters.Stages) || r.Filters.Run != first.Filters.Run || r.Filters.Skip != first.Filters.Skip:
			return nil, fmt.Errorf("%w: report %d was run with other filters or target level than report 1", ErrUsage, i+2)
		}
	}
	m := *first
	m.Shard = Shard{}
	m.Cases = make([]CaseResult, len(first.Cases))
	m.Restarts, m.Duration, m.StoppedEarly = 0, 0, false
	var infra, stderr []string
	for _, r := range reps {
		idx := max(r.Shard.Index, 1)
		for i := range r.Cases {
			if r.Cases[i].ID != first.Cases[i].ID {
				return nil, fmt.Errorf("%w: case %d is %s in one report and %s in another", ErrUsage, i+1, r.Cases[i].ID, first.Cases[i].ID)
			}
			if i%n == idx-1 {
				m.Cases[i] = r.Cases[i]
			}
		}
		m.Restarts += r.Restarts
		m.Duration = max(m.Duration, r.Duration) // the shards ran side by side
		m.StoppedEarly = m.StoppedEarly || r.StoppedEarly
		if r.Started.Before(m.Started) {
			m.Started = r.Started
		}
		if r.Infrastructure != "" {
			infra = append(infra, fmt.Sprintf("shard %d/%d: %s", idx, n, r.Infrastructure))
			stderr = append(stderr, r.InfrastructureStderr)
		}
	}
	m.Infrastructure = strings.Join(infra, "; ")
	m.InfrastructureStderr = strings.TrimSpace(strings.Join(stderr, "\n"))
	m.finish()
	return &m, nil
}

// Require sets the level the report's [Verdict] judges it against, as
// [Options.RequireLevel] does for a run: for the report of shards merged
// by MergeReports, since a shard runs without a target. The verdict is
// then the one an unsharded run with that target gets. "" (or
// [LevelNone]) judges strictly. A shard, and a run with filters, claim no
// level and accept no target (ErrUsage), as [Start] refuses them.
func (r *Report) Require(target Level) error {
	if err := checkTarget(target, r.Filters.any(), r.Shard); err != nil {
		return err
	}
	r.RequireLevel = target
	return nil
}

// checkTarget refuses a target level for a filtered run or a shard: they
// claim no level.
func checkTarget(target Level, filtered bool, shard Shard) error {
	if target == "" || target == LevelNone {
		return nil
	}
	if filtered {
		return fmt.Errorf("%w: a filtered run claims no level: RequireLevel cannot be combined with Run, Skip, Tiers or Stages", ErrUsage)
	}
	if shard.Count > 1 {
		return fmt.Errorf("%w: a shard claims no level: run the shards without a target, and give it to their merged report (cupel-conform report merge --require-level LEVEL, or Report.Require)", ErrUsage)
	}
	return nil
}

// any reports whether a filter is set (as [Options.Filtered]).
func (f Filters) any() bool {
	return f.Run != "" || f.Skip != "" || len(f.Tiers) > 0 || len(f.Stages) > 0
}
