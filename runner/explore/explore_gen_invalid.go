package explore

import (
	"maps"
	"slices"
	"strings"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/policy"
	"github.com/cupel-go/go-cupel/runner/casefile"
)

// This file gives a deliberate share of the generated cases one invalid
// configuration, which the implementation must reject; every other case
// is valid by construction, so that it exercises the components.

// invalidPerMille is the share of the scoring, slicing and pipeline cases
// drawn to be invalid, in thousandths: 5%. A case drawn whose
// configuration has nothing that can be made invalid (a scoring case whose
// scorer has no keys: slicing and pipeline cases have a budget) stays
// valid. EXPLORE.md gives the shares measured.
const invalidPerMille = 50

// breakConfig makes one part of c's configuration invalid, chosen among
// the forms c's configuration has, and names it in g.invalid.
func (g *exploreGen) breakConfig(c *casefile.Case) {
	type form struct {
		name  string
		apply func()
	}
	var forms []form
	add := func(name string, apply func()) { forms = append(forms, form{name, apply}) }

	var walk func(sc *policy.ScorerSpec)
	walk = func(sc *policy.ScorerSpec) {
		switch sc.Type {
		case "kind":
			add("kind weights: a kind twice", func() {
				sc.UseDefaultWeights = cupel.Ptr(false)
				if len(sc.Weights) == 0 {
					sc.Weights = []policy.KindWeightSpec{{Kind: "Message", Weight: 1}}
				}
				w := sc.Weights[0]
				w.Kind = cupel.ContextKind(otherCase(string(w.Kind)))
				sc.Weights = append(sc.Weights, w)
			})
		case "tag":
			add("tag weights: a tag twice", func() {
				if len(sc.TagWeights) == 0 {
					sc.TagWeights = []policy.TagWeightSpec{{Tag: "a", Weight: 1}}
				}
				sc.TagWeights = append(sc.TagWeights, sc.TagWeights[0])
			})
		case "composite":
			add("composite: a child of weight 0", func() {
				sc.Children[g.r.IntN(len(sc.Children))].Weight = cupel.Ptr(casefile.Float(0))
			})
			for i := range sc.Children {
				walk(&sc.Children[i])
			}
		case "scaled":
			walk(sc.Inner)
		case "decay":
			add("decay: a null-timestamp score above 1", func() { sc.NullTimestampScore = casefile.FloatPtr(1.5) })
		case "metadata_trust":
			add("metadata_trust: a default score above 1", func() { sc.DefaultScore = casefile.FloatPtr(1.5) })
		case "metadata_key":
			add("metadata_key: a boost of 0", func() { sc.Boost = 0 })
		}
	}
	in := &c.Input
	for i := range in.Scorers {
		walk(&in.Scorers[i])
	}
	dupEntry := func() {
		e := in.Entries[0]
		e.Kind = cupel.ContextKind(otherCase(string(e.Kind)))
		in.Entries = append(in.Entries, e)
	}
	switch in.Slicer {
	case "knapsack":
		add("knapsack: a bucket size of 0", func() { in.BucketSize = cupel.Ptr(0) })
	case "count_quota":
		add("count_quota: a knapsack inner slicer", func() {
			in.InnerSlicer, in.BucketSize = "knapsack", cupel.Ptr(1)
		})
		add("count entries: a kind twice", dupEntry)
	case "count_constrained_knapsack":
		add("count entries: a kind twice", dupEntry)
	case "quota":
		add("quotas: a kind twice with another require", func() {
			q := in.Quotas[0]
			q.Kind = cupel.ContextKind(otherCase(string(q.Kind)))
			q.Require = casefile.FloatPtr(float64(*q.Require) + 1)
			q.Cap = casefile.FloatPtr(max(float64(*q.Cap), float64(*q.Require)))
			in.Quotas = append(in.Quotas, q)
		})
	}
	if b := in.Budget; b != nil {
		add("budget: target above max", func() { b.TargetTokens = b.MaxTokens + 1 })
	}
	if c.Stage == casefile.StagePipeline {
		b := in.Budget
		add("budget: a reserved kind twice", func() {
			k := "Message"
			if len(b.ReservedSlots) == 0 {
				b.ReservedSlots = map[string]int64{k: 0}
			} else {
				k = slices.Min(slices.Collect(maps.Keys(b.ReservedSlots)))
			}
			b.ReservedSlots[otherCase(k)] = b.ReservedSlots[k]
		})
	}
	if len(forms) == 0 {
		return
	}
	f := forms[g.r.IntN(len(forms))]
	f.apply()
	g.invalid = f.name
}

// otherCase is kind spelt in another case: the same kind to the spec.
func otherCase(kind string) string {
	if up := strings.ToUpper(kind); up != kind {
		return up
	}
	return strings.ToLower(kind)
}
