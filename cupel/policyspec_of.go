package cupel

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// PolicySpecOf describes a policy built from built-in components as a
// PolicySpec, for writing it to a file. A custom scorer, slicer or placer
// has no description, and neither has a nil or typed-nil scorer or slicer,
// nor an inner slicer other than greedy or knapsack (a policy file names
// the inner slicer only): the error wraps ErrInvalidConfig and names it.
// Decay scorers' clocks are not part of the description. A composite scorer
// of two or more children is written as the policy's list of scorers, any
// other scorer as its only entry.
func PolicySpecOf(p Policy) (PolicySpec, error) {
	var spec PolicySpec
	if c, ok := p.Scorer.(*CompositeScorer); ok && c != nil && len(c.Entries()) >= 2 {
		children, err := childSpecsOf("scorers", c)
		if err != nil {
			return PolicySpec{}, err
		}
		spec.Scorers = children
	} else {
		sc, err := scorerSpecOf("scorers[0]", p.Scorer)
		if err != nil {
			return PolicySpec{}, err
		}
		spec.Scorers = []ScorerSpec{sc}
	}
	if err := describeSlicer(&spec, p.Slicer); err != nil {
		return PolicySpec{}, err
	}
	spec.Deduplication, spec.OverflowStrategy = Ptr(!p.DisableDeduplication), asciiLower(p.Overflow.String())
	switch p.Placer.(type) {
	case *ChronologicalPlacer:
		spec.Placer = "chronological"
	case *UShapedPlacer:
		spec.Placer = "u-shaped"
	default:
		return PolicySpec{}, specError("placer", typeNameOrNil(p.Placer), "is not a built-in placer")
	}
	return spec, nil
}

func typeNameOrNil(v any) string {
	if v == nil {
		return "nil"
	}
	return typeName(v)
}

// childSpecsOf describes the weighted children of c, listed under path.
func childSpecsOf(path string, c *CompositeScorer) ([]ScorerSpec, error) {
	var out []ScorerSpec
	for i, e := range c.Entries() {
		child, err := scorerSpecOf(fmt.Sprintf("%s[%d]", path, i), e.Scorer)
		if err != nil {
			return nil, err
		}
		child.Weight = Ptr(Float(e.Weight))
		out = append(out, child)
	}
	return out, nil
}

func scorerSpecOf(path string, s Scorer) (ScorerSpec, error) {
	if isNil(s) { // a typed nil has no configuration to read
		return ScorerSpec{}, specError(path, typeNameOrNil(s), "is nil")
	}
	switch s := s.(type) {
	case *RecencyScorer:
		return ScorerSpec{Type: "recency"}, nil
	case *PriorityScorer:
		return ScorerSpec{Type: "priority"}, nil
	case *FrequencyScorer:
		return ScorerSpec{Type: "frequency"}, nil
	case *ReflexiveScorer:
		return ScorerSpec{Type: "reflexive"}, nil
	case *KindScorer:
		w := s.Weights()
		if len(w) == 0 {
			return ScorerSpec{Type: "kind", UseDefaultWeights: Ptr(false)}, nil
		}
		kinds := slices.SortedFunc(maps.Keys(w), func(a, b ContextKind) int { return strings.Compare(string(a), string(b)) })
		spec := ScorerSpec{Type: "kind", Weights: []KindWeightSpec{}}
		for _, k := range kinds {
			spec.Weights = append(spec.Weights, KindWeightSpec{Kind: k, Weight: Float(w[k])})
		}
		return spec, nil
	case *TagScorer:
		w := s.Weights()
		spec := ScorerSpec{Type: "tag", TagWeights: []TagWeightSpec{}}
		for _, t := range slices.Sorted(maps.Keys(w)) {
			spec.TagWeights = append(spec.TagWeights, TagWeightSpec{Tag: t, Weight: Float(w[t])})
		}
		return spec, nil
	case *CompositeScorer:
		children, err := childSpecsOf(path+".children", s)
		if err != nil {
			return ScorerSpec{}, err
		}
		return ScorerSpec{Type: "composite", Children: children}, nil
	case *ScaledScorer:
		inner, err := scorerSpecOf(path+".inner", s.Inner())
		if err != nil {
			return ScorerSpec{}, err
		}
		return ScorerSpec{Type: "scaled", Inner: &inner}, nil
	case *DecayScorer:
		c := s.Curve()
		cs := &CurveSpec{Type: c.Type()}
		switch c.Type() {
		case "exponential":
			cs.HalfLifeSecs = secondsOf(c.HalfLife())
		case "window":
			cs.MaxAgeSecs = secondsOf(c.MaxAge())
		case "step":
			for _, w := range c.Windows() {
				cs.Windows = append(cs.Windows, WindowSpec{MaxAgeSecs: *secondsOf(w.MaxAge), Score: Float(w.Score)})
			}
		}
		return ScorerSpec{Type: "decay", Curve: cs, NullTimestampScore: Ptr(Float(s.NullTimestampScore()))}, nil
	case *MetadataTrustScorer:
		return ScorerSpec{Type: "metadata_trust", DefaultScore: Ptr(Float(s.DefaultScore()))}, nil
	case *MetadataKeyScorer:
		return ScorerSpec{Type: "metadata_key", Key: s.Key(), Value: s.Value(), Boost: Float(s.Boost())}, nil
	}
	return ScorerSpec{}, specError(path, typeNameOrNil(s), "is not a built-in scorer")
}
