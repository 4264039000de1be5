package explore

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/cupel-go/go-cupel/runner"
)

// MergeReports combines the reports of the N shards of one
// exploration (the same seed, case count, stages and sides; every shard
// once) into the report of the unsharded exploration: the cases, skips and
// coverage add up, and each class of divergence appears once, as found at
// its lowest index, with the count of every shard's cases in it. The
// error (ErrUsage) names what does not fit.
func MergeReports(reps []*Report) (*Report, error) {
	shards := make([]runner.Shard, len(reps))
	for i, r := range reps {
		shards[i] = r.Shard
	}
	n, err := runner.CheckShards(shards)
	if err != nil {
		return nil, err
	}
	first := reps[0]
	for i, r := range reps[1:] {
		if r.Seed != first.Seed || !slices.Equal(r.Stages, first.Stages) || r.Implementation.Name != first.Implementation.Name ||
			r.Oracle.Name != first.Oracle.Name || r.OracleTrusted != first.OracleTrusted {
			return nil, fmt.Errorf("%w: report %d explored seed %d of %s against %s (stages %v); report 1 seed %d of %s against %s (stages %v)",
				runner.ErrUsage, i+2, r.Seed, r.Implementation.Name, r.Oracle.Name, r.Stages, first.Seed, first.Implementation.Name, first.Oracle.Name, first.Stages)
		}
	}
	m := &Report{Schema: ReportSchema, Implementation: first.Implementation, Oracle: first.Oracle,
		OracleTrusted: first.OracleTrusted, Seed: first.Seed, Stages: first.Stages}
	byClass := map[string]*Divergence{}
	cov := map[string]int{}
	for _, f := range first.Coverage {
		m.Coverage = append(m.Coverage, FeatureCount{Feature: f.Feature})
	}
	var infra []string
	for _, r := range reps {
		m.Cases += r.Cases
		m.Skipped += r.Skipped
		m.Duration = max(m.Duration, r.Duration)
		m.Interrupted = m.Interrupted || r.Interrupted
		if r.Infrastructure != "" {
			infra = append(infra, fmt.Sprintf("shard %d/%d: %s", max(r.Shard.Index, 1), n, r.Infrastructure))
		}
		for _, d := range r.Divergences {
			if old := byClass[d.Class]; old != nil {
				count := old.Count + d.Count
				if d.Index < old.Index {
					*old = *d
				}
				old.Count = count
				continue
			}
			c := *d
			byClass[d.Class] = &c
			m.Divergences = append(m.Divergences, &c)
		}
		for _, f := range r.Coverage {
			cov[f.Feature] += f.Cases
		}
	}
	for i := range m.Coverage {
		m.Coverage[i].Cases = cov[m.Coverage[i].Feature]
	}
	slices.SortStableFunc(m.Divergences, func(a, b *Divergence) int { return a.Index - b.Index })
	m.Infrastructure = strings.Join(infra, "; ")
	return m, nil
}

// WriteJSON writes r as indented JSON (schema ReportSchema), the
// form `cupel-conform report merge` reads.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
