package explore

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/policy"
	"github.com/cupel-go/go-cupel/runner/casefile"
)

// shrinker reduces a divergent case while the same kind of difference
// persists: delta debugging over the items, then each item's fields, then
// the configuration, repeated until nothing more can go.
type shrinker struct {
	x        *explorer
	ctx      context.Context
	kind     string
	best     *casefile.Case
	out      outcome
	runs     int
	deadline time.Time
}

func (s *shrinker) exhausted() bool {
	return s.x.infra != nil || s.ctx.Err() != nil || s.runs >= s.x.opts.ShrinkRuns || time.Now().After(s.deadline)
}

// try applies mutate to a copy of the best case and keeps the copy when
// mutate changed something and the divergence persists.
func (s *shrinker) try(mutate func(in *casefile.Input) bool) bool {
	if s.exhausted() {
		return false
	}
	c := cloneCase(s.best)
	if !mutate(&c.Input) {
		return false
	}
	for i := range c.Input.Items {
		c.Input.Items[i].Index = i
	}
	s.runs++
	o := s.x.check(s.ctx, c)
	if o.kind != s.kind {
		return false
	}
	s.best, s.out = c, o
	return true
}

func (s *shrinker) run() {
	for progress := true; progress && !s.exhausted(); {
		progress = s.items()
		progress = s.fields() || progress
		progress = s.config() || progress
	}
	// Short contents, in order of first appearance, equal where they were.
	s.try(func(in *casefile.Input) bool {
		names := map[string]string{}
		changed := false
		for i := range in.Items {
			it := &in.Items[i]
			n, ok := names[it.Content]
			if !ok {
				n = shortName(len(names))
				names[it.Content] = n
			}
			changed = changed || n != it.Content
			it.Content = n
		}
		return changed
	})
}

// shortName is the k-th short item content: a, b, ..., z, x26, x27, ...
func shortName(k int) string {
	if k < 26 {
		return string(rune('a' + k))
	}
	return "x" + strconv.Itoa(k)
}

// items removes chunks of items, halving the chunk size (ddmin).
func (s *shrinker) items() bool {
	changed := false
	for chunk := max(1, len(s.best.Input.Items)/2); chunk >= 1; chunk /= 2 {
		for start := 0; start < len(s.best.Input.Items); {
			from, to := start, min(start+chunk, len(s.best.Input.Items))
			if s.try(func(in *casefile.Input) bool {
				in.Items = slices.Delete(in.Items, from, to)
				return true
			}) {
				changed = true
				continue // the next chunk moved to start
			}
			start += chunk
		}
		if chunk == 1 {
			break
		}
	}
	return changed
}

// fields simplifies each item: optional fields go, values become plainer.
func (s *shrinker) fields() bool {
	changed := false
	for i := 0; i < len(s.best.Input.Items); i++ {
		at := func(f func(it *casefile.Item) bool) bool {
			return s.try(func(in *casefile.Input) bool { return f(&in.Items[i]) })
		}
		muts := []func(it *casefile.Item) bool{
			func(it *casefile.Item) bool { ok := it.Priority != nil; it.Priority = nil; return ok },
			func(it *casefile.Item) bool { ok := it.Tags != nil; it.Tags = nil; return ok },
			func(it *casefile.Item) bool { ok := it.Timestamp != nil; it.Timestamp = nil; return ok },
			func(it *casefile.Item) bool {
				ok := it.FutureRelevanceHint != nil
				it.FutureRelevanceHint = nil
				return ok
			},
			func(it *casefile.Item) bool { ok := it.Metadata != nil; it.Metadata = nil; return ok },
			func(it *casefile.Item) bool { ok := it.Pinned; it.Pinned = false; return ok },
			func(it *casefile.Item) bool { ok := it.Kind != "Message"; it.Kind = "Message"; return ok },
			func(it *casefile.Item) bool { ok := it.Source != "Chat"; it.Source = "Chat"; return ok },
			func(it *casefile.Item) bool { ok := it.Tokens != 0 && it.Tokens != 1; it.Tokens /= 2; return ok },
			func(it *casefile.Item) bool {
				if it.Priority == nil || (*it.Priority >= -1 && *it.Priority <= 1) {
					return false
				}
				p := *it.Priority / 2
				it.Priority = &p
				return true
			},
			func(it *casefile.Item) bool {
				if it.Timestamp == nil || it.Timestamp.Equal(genBase) {
					return false
				}
				t := genBase
				it.Timestamp = &t
				return true
			},
		}
		for _, m := range muts {
			if at(m) {
				changed = true
			}
		}
		if md := s.best.Input.Items[i].Metadata; len(md) > 1 {
			keys := slices.Sorted(maps.Keys(md))
			for _, k := range keys {
				if at(func(it *casefile.Item) bool { delete(it.Metadata, k); return true }) {
					changed = true
				}
			}
		}
		if len(s.best.Input.Items[i].Tags) > 1 {
			for j := len(s.best.Input.Items[i].Tags) - 1; j >= 0; j-- {
				if j < len(s.best.Input.Items[i].Tags) && at(func(it *casefile.Item) bool { it.Tags = slices.Delete(it.Tags, j, j+1); return true }) {
					changed = true
				}
			}
		}
	}
	return changed
}

// config simplifies the scorer, slicer, placer, budget and pipeline
// switches, always to components the implementation declares.
func (s *shrinker) config() bool {
	changed := false
	do := func(m func(in *casefile.Input) bool) {
		if s.try(m) {
			changed = true
		}
	}
	// cur is the best case's input now: each kept change replaces it.
	cur := func() *casefile.Input { return &s.best.Input }
	// Toward the first declared scorer and placer that still show it, so
	// that a bug in no particular component ends in one class.
	if len(cur().Scorers) > 0 {
		for _, t := range s.x.gen.leaves {
			if t == cur().Scorers[0].Type {
				break
			}
			if plain, ok := plainScorer(t); ok && s.try(func(in *casefile.Input) bool { in.Scorers = []policy.ScorerSpec{plain}; return true }) {
				changed = true
				break
			}
		}
		s.scorer(func(in *casefile.Input) *policy.ScorerSpec { return &in.Scorers[0] }, &changed)
	}
	for _, p := range s.x.caps.placers {
		if cur().Placer == "" || p == cur().Placer {
			break
		}
		if s.try(func(in *casefile.Input) bool { in.Placer = p; return true }) {
			changed = true
			break
		}
	}
	if cur().Slicer != "" {
		declared := func(t string) bool { return slices.Contains(s.x.caps.slicers, t) }
		if cur().Slicer != "greedy" && declared("greedy") {
			do(func(in *casefile.Input) bool { setSlicer(in, "greedy", nil); return true })
		}
		if inner := cur().InnerSlicer; inner != "" && declared(inner) {
			// An inner knapsack's bucket size is the policy's.
			do(func(in *casefile.Input) bool { setSlicer(in, in.InnerSlicer, in.BucketSize); return true })
		}
		if cur().Slicer == "count_constrained_knapsack" && declared("knapsack") {
			do(func(in *casefile.Input) bool { setSlicer(in, "knapsack", in.BucketSize); return true })
		}
		for j := len(cur().Quotas) - 1; j >= 0; j-- {
			do(func(in *casefile.Input) bool {
				if j >= len(in.Quotas) {
					return false
				}
				in.Quotas = slices.Delete(in.Quotas, j, j+1)
				return true
			})
		}
		for j := len(cur().Entries) - 1; j >= 0; j-- {
			do(func(in *casefile.Input) bool {
				if j >= len(in.Entries) {
					return false
				}
				in.Entries = slices.Delete(in.Entries, j, j+1)
				return true
			})
		}
		for j := range cur().Entries {
			do(func(in *casefile.Input) bool {
				if j >= len(in.Entries) || in.Entries[j].CapCount == 0 {
					return false
				}
				e := &in.Entries[j]
				e.CapCount--
				e.RequireCount = min(e.RequireCount, e.CapCount)
				return true
			})
			do(func(in *casefile.Input) bool {
				if j >= len(in.Entries) || in.Entries[j].RequireCount == 0 {
					return false
				}
				in.Entries[j].RequireCount--
				return true
			})
		}
		if cur().ScarcityBehavior == "throw" {
			do(func(in *casefile.Input) bool { in.ScarcityBehavior = "degrade"; return true })
		}
	}
	if cur().Budget != nil {
		if len(cur().Budget.ReservedSlots) > 0 {
			do(func(in *casefile.Input) bool { in.Budget.ReservedSlots = nil; return true })
		}
		if cur().Budget.OutputReserve != 0 {
			do(func(in *casefile.Input) bool { in.Budget.OutputReserve = 0; return true })
		}
		if cur().Budget.EstimationSafetyMarginPercent != 0 {
			do(func(in *casefile.Input) bool { in.Budget.EstimationSafetyMarginPercent = 0; return true })
		}
		if b := cur().Budget; b.MaxTokens != b.TargetTokens && b.OutputReserve == 0 {
			do(func(in *casefile.Input) bool { in.Budget.MaxTokens = in.Budget.TargetTokens; return true })
		}
		if cur().Budget.TargetTokens > 1 {
			do(func(in *casefile.Input) bool {
				b := in.Budget
				d := b.MaxTokens - b.TargetTokens
				b.TargetTokens /= 2
				b.MaxTokens = b.TargetTokens + d
				return true
			})
		}
	}
	if cur().Deduplication != nil && !*cur().Deduplication {
		do(func(in *casefile.Input) bool { t := true; in.Deduplication = &t; return true })
	}
	if cur().OverflowStrategy != "" && cur().OverflowStrategy != "throw" {
		do(func(in *casefile.Input) bool { in.OverflowStrategy = "throw"; return true })
	}
	return changed
}

// scorer simplifies the scorer that get returns (and its children).
func (s *shrinker) scorer(get func(in *casefile.Input) *policy.ScorerSpec, changed *bool) {
	do := func(m func(sc *policy.ScorerSpec) bool) {
		if s.try(func(in *casefile.Input) bool { return m(get(in)) }) {
			*changed = true
		}
	}
	sc := get(&s.best.Input)
	switch sc.Type {
	case "composite":
		for j := range sc.Children {
			do(func(sc *policy.ScorerSpec) bool {
				if j >= len(sc.Children) {
					return false
				}
				replace(sc, sc.Children[j])
				return true
			})
		}
		for j := len(sc.Children) - 1; j >= 0 && len(get(&s.best.Input).Children) > 1; j-- {
			do(func(sc *policy.ScorerSpec) bool {
				if j >= len(sc.Children) || len(sc.Children) < 2 {
					return false
				}
				sc.Children = slices.Delete(sc.Children, j, j+1)
				return true
			})
		}
		for j := range get(&s.best.Input).Children {
			s.scorer(func(in *casefile.Input) *policy.ScorerSpec {
				if c := get(in); c.Type == "composite" && j < len(c.Children) {
					return &c.Children[j]
				}
				return &policy.ScorerSpec{} // gone: mutations of it change nothing
			}, changed)
		}
	case "scaled":
		do(func(sc *policy.ScorerSpec) bool { replace(sc, *sc.Inner); return true })
	case "kind":
		for j := len(sc.Weights) - 1; j >= 0; j-- {
			do(func(sc *policy.ScorerSpec) bool {
				if j >= len(sc.Weights) {
					return false
				}
				sc.Weights = slices.Delete(sc.Weights, j, j+1)
				return len(sc.Weights) > 0 || sc.UseDefaultWeights != nil && *sc.UseDefaultWeights
			})
		}
	case "tag":
		for j := len(sc.TagWeights) - 1; j >= 0; j-- {
			do(func(sc *policy.ScorerSpec) bool {
				if j >= len(sc.TagWeights) {
					return false
				}
				sc.TagWeights = slices.Delete(sc.TagWeights, j, j+1)
				return true
			})
		}
	case "decay":
		if sc.Curve != nil && len(sc.Curve.Windows) > 1 {
			for j := len(sc.Curve.Windows) - 1; j >= 0; j-- {
				do(func(sc *policy.ScorerSpec) bool {
					if sc.Curve == nil || j >= len(sc.Curve.Windows) || len(sc.Curve.Windows) < 2 {
						return false
					}
					sc.Curve.Windows = slices.Delete(sc.Curve.Windows, j, j+1)
					return true
				})
			}
		}
	}
}

// cloneCase deep-copies c through its JSON form (shrinking is not on the
// hot path). Expect is left empty: the oracle fills it in.
func cloneCase(c *casefile.Case) *casefile.Case {
	b, err := json.Marshal(c.Input)
	if err != nil {
		panic(err) // a generated input always marshals
	}
	n := &casefile.Case{ID: c.ID, Tier: c.Tier, Stage: c.Stage, Name: c.Name}
	if err := json.Unmarshal(b, &n.Input); err != nil {
		panic(err)
	}
	// JSON drops empty lists that the loader fills in; keep them.
	fixEmpty(&n.Input, &c.Input)
	return n
}

// fixEmpty restores the empty, non-nil lists of from that JSON omitted.
func fixEmpty(to, from *casefile.Input) {
	if from.Quotas != nil && to.Quotas == nil {
		to.Quotas = []policy.QuotaSpec{}
	}
	if from.Entries != nil && to.Entries == nil {
		to.Entries = []policy.CountEntrySpec{}
	}
	if to.Items == nil {
		to.Items = []casefile.Item{}
	}
	sort.SliceStable(to.Items, func(i, j int) bool { return to.Items[i].Index < to.Items[j].Index })
}

// plainScorer is scorer type t with its default configuration, if it has
// one.
func plainScorer(t string) (policy.ScorerSpec, bool) {
	switch t {
	case "recency", "priority", "frequency", "reflexive", "tag":
		return policy.ScorerSpec{Type: t}, true
	case "kind":
		return policy.ScorerSpec{Type: t, UseDefaultWeights: cupel.Ptr(true)}, true
	case "metadata_trust":
		return policy.ScorerSpec{Type: t, DefaultScore: casefile.FloatPtr(0.5)}, true
	}
	return policy.ScorerSpec{}, false
}

// replace puts by in the place of sc, which keeps its weight in a
// composite.
func replace(sc *policy.ScorerSpec, by policy.ScorerSpec) {
	by.Weight = sc.Weight
	*sc = by
}

// setSlicer makes typ, with the bucket size bucket, the slicer of in.
func setSlicer(in *casefile.Input, typ string, bucket *int) {
	in.Slicer, in.BucketSize, in.InnerSlicer, in.Quotas, in.Entries, in.ScarcityBehavior = typ, bucket, "", nil, nil, ""
}
