package vectors_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel/policy"
)

// The tiers of spec chapter 42 (Conformance Levels): the required tier
// covers the eight original scorers, greedy, knapsack and quota slicing, both
// placers and the end-to-end pipeline, and only those; the components added
// later (decay, metadata_trust, metadata_key, count_quota,
// count_constrained_knapsack) and the Truncate strategy are optional.

// scorerTypes lists the type of spec and of every scorer nested in it.
func scorerTypes(spec policy.ScorerSpec) []string {
	out := []string{spec.Type}
	for _, ch := range spec.Children {
		out = append(out, scorerTypes(ch)...)
	}
	if spec.Inner != nil {
		out = append(out, scorerTypes(*spec.Inner)...)
	}
	return out
}

var _ = Describe("the tiers of chapter 42", func() {
	required := map[string][]string{
		"scoring": {"recency", "priority", "kind", "tag", "frequency", "reflexive", "composite", "scaled"},
		"slicing": {"greedy", "knapsack", "quota"},
		"placing": {"chronological", "u-shaped"},
	}

	It("has a required case for every algorithm the required tier lists, and required pipeline cases", func() {
		seen := map[string]map[string]bool{"scoring": {}, "slicing": {}, "placing": {}, "pipeline": {}}
		for _, c := range suite().Cases {
			if c.Tier != "required" {
				continue
			}
			switch c.Stage {
			case "scoring":
				if len(c.Input.Scorers) > 0 {
					seen["scoring"][c.Input.Scorers[0].Type] = true
				}
			case "slicing":
				seen["slicing"][c.Input.Slicer] = true
			case "placing":
				seen["placing"][c.Input.Placer] = true
			case "pipeline":
				seen["pipeline"]["pipeline"] = true
			}
		}
		for stage, algorithms := range required {
			for _, a := range algorithms {
				Expect(seen[stage]).To(HaveKey(a), "no required %s case for %s", stage, a)
			}
		}
		Expect(seen["pipeline"]).To(HaveKey("pipeline"))
	})

	It("uses in the required tier no scorer, slicer or overflow strategy the chapter leaves optional", func() {
		scorers := map[string]bool{}
		for _, s := range required["scoring"] {
			scorers[s] = true
		}
		slicers := map[string]bool{"": true}
		for _, s := range required["slicing"] {
			slicers[s] = true
		}
		for _, c := range suite().Cases {
			if c.Tier != "required" {
				continue
			}
			for _, top := range c.Input.Scorers {
				for _, t := range scorerTypes(top) {
					Expect(scorers).To(HaveKey(t), "%s uses the scorer %q", c.ID, t)
				}
			}
			Expect(slicers).To(HaveKey(c.Input.Slicer), "%s uses the slicer %q", c.ID, c.Input.Slicer)
			Expect(slicers).To(HaveKey(c.Input.InnerSlicer), "%s uses the inner slicer %q", c.ID, c.Input.InnerSlicer)
			Expect(c.Input.OverflowStrategy).NotTo(Equal("truncate"), "%s uses Truncate", c.ID)
		}
	})
})
