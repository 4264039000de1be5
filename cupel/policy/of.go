package policy

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/internal/enginehook"
)

// Of describes a policy built from built-in components as a Spec, for
// writing it to a file. A custom scorer, slicer or placer has no
// description, and neither has a nil or typed-nil scorer or slicer, nor an
// inner slicer other than greedy or knapsack (a policy file names the
// inner slicer only): the error wraps cupel.ErrInvalidConfig and names it.
// Decay scorers' clocks are not part of the description. A composite
// scorer of two or more children is written as the policy's list of
// scorers, any other scorer as its only entry. Of reads the components
// with their exported accessors only.
func Of(p cupel.Policy) (Spec, error) {
	var spec Spec
	if c, ok := p.Scorer.(*scorer.Composite); ok && c != nil && len(c.Entries()) >= 2 {
		children, err := childSpecsOf("scorers", c)
		if err != nil {
			return Spec{}, err
		}
		spec.Scorers = children
	} else {
		sc, err := scorerSpecOf("scorers[0]", p.Scorer)
		if err != nil {
			return Spec{}, err
		}
		spec.Scorers = []ScorerSpec{sc}
	}
	if err := describeSlicer(&spec, p.Slicer); err != nil {
		return Spec{}, err
	}
	spec.Deduplication, spec.OverflowStrategy = cupel.Ptr(!p.DisableDeduplication), strings.ToLower(p.Overflow.String())
	switch p.Placer.(type) {
	case *placer.Chronological:
		spec.Placer = "chronological"
	case *placer.UShaped:
		spec.Placer = "u-shaped"
	default:
		return Spec{}, specError("placer", typeNameOrNil(p.Placer), "is not a built-in placer")
	}
	return spec, nil
}

func typeNameOrNil(v any) string {
	if v == nil {
		return "nil"
	}
	return fmt.Sprintf("%T", v)
}

// childSpecsOf describes the weighted children of c, listed under path.
func childSpecsOf(path string, c *scorer.Composite) ([]ScorerSpec, error) {
	var out []ScorerSpec
	for i, e := range c.Entries() {
		child, err := scorerSpecOf(fmt.Sprintf("%s[%d]", path, i), e.Scorer)
		if err != nil {
			return nil, err
		}
		child.Weight = cupel.Ptr(Float(e.Weight))
		out = append(out, child)
	}
	return out, nil
}

func scorerSpecOf(path string, s cupel.Scorer) (ScorerSpec, error) {
	if enginehook.IsNil(s) { // a typed nil has no configuration to read
		return ScorerSpec{}, specError(path, typeNameOrNil(s), "is nil")
	}
	switch s := s.(type) {
	case *scorer.Recency:
		return ScorerSpec{Type: "recency"}, nil
	case *scorer.Priority:
		return ScorerSpec{Type: "priority"}, nil
	case *scorer.Frequency:
		return ScorerSpec{Type: "frequency"}, nil
	case *scorer.Reflexive:
		return ScorerSpec{Type: "reflexive"}, nil
	case *scorer.Kind:
		w := s.Weights()
		if len(w) == 0 {
			return ScorerSpec{Type: "kind", UseDefaultWeights: cupel.Ptr(false)}, nil
		}
		kinds := slices.SortedFunc(maps.Keys(w), func(a, b cupel.ContextKind) int { return strings.Compare(string(a), string(b)) })
		spec := ScorerSpec{Type: "kind", Weights: []KindWeightSpec{}}
		for _, k := range kinds {
			spec.Weights = append(spec.Weights, KindWeightSpec{Kind: k, Weight: Float(w[k])})
		}
		return spec, nil
	case *scorer.Tag:
		w := s.Weights()
		spec := ScorerSpec{Type: "tag", TagWeights: []TagWeightSpec{}}
		for _, t := range slices.Sorted(maps.Keys(w)) {
			spec.TagWeights = append(spec.TagWeights, TagWeightSpec{Tag: t, Weight: Float(w[t])})
		}
		return spec, nil
	case *scorer.Composite:
		children, err := childSpecsOf(path+".children", s)
		if err != nil {
			return ScorerSpec{}, err
		}
		return ScorerSpec{Type: "composite", Children: children}, nil
	case *scorer.Scaled:
		inner, err := scorerSpecOf(path+".inner", s.Inner())
		if err != nil {
			return ScorerSpec{}, err
		}
		return ScorerSpec{Type: "scaled", Inner: &inner}, nil
	case *scorer.Decay:
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
		return ScorerSpec{Type: "decay", Curve: cs, NullTimestampScore: cupel.Ptr(Float(s.NullTimestampScore()))}, nil
	case *scorer.MetadataTrust:
		return ScorerSpec{Type: "metadata_trust", DefaultScore: cupel.Ptr(Float(s.DefaultScore()))}, nil
	case *scorer.MetadataKey:
		return ScorerSpec{Type: "metadata_key", Key: s.Key(), Value: s.Value(), Boost: Float(s.Boost())}, nil
	}
	return ScorerSpec{}, specError(path, typeNameOrNil(s), "is not a built-in scorer")
}
