package explore

import (
	"fmt"
	"io"
	"strings"

	"github.com/cupel-go/go-cupel/cupel/policy"
	"github.com/cupel-go/go-cupel/runner/casefile"
)

// This file measures the reach of explore's generator: which parts of the
// configuration space the generated cases use, and how often.

// coverage counts the features of generated cases, in a fixed order: the
// features the capabilities can reach, each listed even when no case has
// used it yet.
type coverage struct {
	names  []string
	index  map[string]int
	counts []int
	seen   []bool // the features of the case being counted
}

func newCoverage(c exploreCaps) *coverage {
	cv := &coverage{index: map[string]int{}}
	for _, f := range coverageFeatures(c) {
		cv.index[f] = len(cv.names)
		cv.names = append(cv.names, f)
	}
	cv.counts = make([]int, len(cv.names))
	cv.seen = make([]bool, len(cv.names))
	return cv
}

// coverageFeatures lists the features generation can use with c.
func coverageFeatures(c exploreCaps) []string {
	var fs []string
	for _, s := range c.scorers {
		fs = append(fs, "scorer "+s)
	}
	for _, s := range c.slicers {
		fs = append(fs, "slicer "+s)
	}
	for _, p := range c.placers {
		fs = append(fs, "placer "+p)
	}
	has := func(list []string, x string) bool {
		for _, y := range list {
			if y == x {
				return true
			}
		}
		return false
	}
	if has(c.scorers, "composite") {
		fs = append(fs, "nested composite")
	}
	if has(c.scorers, "decay") {
		fs = append(fs, "decay exponential", "decay window", "decay step")
	}
	if has(c.scorers, "metadata_key") {
		for _, k := range genMetaKey {
			fs = append(fs, "metadata_key scorer key "+k)
		}
	}
	if has(c.slicers, "quota") {
		fs = append(fs, "quota require", "quota cap")
	}
	if has(c.slicers, "count_quota") || has(c.slicers, "count_constrained_knapsack") {
		fs = append(fs, "count require", "count cap", "count scarcity throw")
	}
	for _, k := range genMetaKey {
		fs = append(fs, "item metadata key "+k)
	}
	fs = append(fs, "zero tokens", "duplicate content", featureRadixItems, featureTableItems)
	if has(c.stages, casefile.StagePipeline) {
		fs = append(fs, "negative tokens", "pinned items", "overflow throw", "overflow truncate", "overflow proceed")
	}
	return fs
}

func (cv *coverage) mark(f string) {
	if i, ok := cv.index[f]; ok {
		cv.seen[i] = true
	}
}

// count adds the features of c.
func (cv *coverage) count(c *casefile.Case) {
	clear(cv.seen)
	in := &c.Input
	for i := range in.Scorers {
		cv.scorer(&in.Scorers[i], false)
	}
	if s := &in.Spec; s.Slicer != "" {
		cv.mark("slicer " + s.Slicer)
		for _, q := range s.Quotas {
			if q.Require != nil && *q.Require > 0 {
				cv.mark("quota require")
			}
			if q.Cap != nil && *q.Cap < 100 {
				cv.mark("quota cap")
			}
		}
		for _, e := range s.Entries {
			if e.RequireCount > 0 {
				cv.mark("count require")
			}
			if e.CapCount > 0 {
				cv.mark("count cap")
			}
		}
		if len(s.Entries) > 0 && s.ScarcityBehavior == "throw" {
			cv.mark("count scarcity throw")
		}
	}
	if in.Placer != "" {
		cv.mark("placer " + in.Placer)
	}
	if in.OverflowStrategy != "" {
		cv.mark("overflow " + in.OverflowStrategy)
	}
	if len(in.Items) >= exploreRadixItems {
		cv.mark(featureRadixItems)
	}
	if len(in.Items) > exploreTableItems {
		cv.mark(featureTableItems)
	}
	contents := make(map[string]struct{}, len(in.Items))
	for i := range in.Items {
		it := &in.Items[i]
		switch {
		case it.Tokens == 0:
			cv.mark("zero tokens")
		case it.Tokens < 0:
			cv.mark("negative tokens")
		}
		if it.Pinned {
			cv.mark("pinned items")
		}
		for k := range it.Metadata {
			cv.mark("item metadata key " + k)
		}
		if _, dup := contents[it.Content]; dup {
			cv.mark("duplicate content")
		}
		contents[it.Content] = struct{}{}
	}
	for i, s := range cv.seen {
		if s {
			cv.counts[i]++
		}
	}
}

func (cv *coverage) scorer(sc *policy.ScorerSpec, inComposite bool) {
	cv.mark("scorer " + sc.Type)
	switch sc.Type {
	case "composite":
		if inComposite {
			cv.mark("nested composite")
		}
		for i := range sc.Children {
			cv.scorer(&sc.Children[i], true)
		}
	case "scaled":
		if sc.Inner != nil {
			cv.scorer(sc.Inner, inComposite)
		}
	case "decay":
		if sc.Curve != nil {
			cv.mark("decay " + sc.Curve.Type)
		}
	case "metadata_key":
		cv.mark("metadata_key scorer key " + sc.Key)
	}
}

// report returns the counts, in the order of the features.
func (cv *coverage) report() []FeatureCount {
	out := make([]FeatureCount, len(cv.names))
	for i, n := range cv.names {
		out[i] = FeatureCount{Feature: n, Cases: cv.counts[i]}
	}
	return out
}

// WriteCoverage writes the generator's reach (Options.Coverage): each
// feature with the number and share of generated cases that used it, and
// the features no case used.
func (r *Report) WriteCoverage(w io.Writer) error {
	var b strings.Builder
	total := r.Cases + r.Skipped
	fmt.Fprintf(&b, "generator coverage (%d generated cases):\n", total)
	var missing []string
	for _, f := range r.Coverage {
		share := 0.0
		if total > 0 {
			share = 100 * float64(f.Cases) / float64(total)
		}
		fmt.Fprintf(&b, "  %-45s %8d  %5.1f%%\n", f.Feature, f.Cases, share)
		if f.Cases == 0 {
			missing = append(missing, f.Feature)
		}
	}
	if len(missing) > 0 {
		fmt.Fprintf(&b, "never generated: %s\n", strings.Join(missing, ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
