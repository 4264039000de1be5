package policy

import (
	"slices"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/slicer"
	"github.com/cupel-go/go-cupel/internal/enginehook"
)

// presetNames are the built-in presets, in a fixed order.
var presetNames = []string{"chat", "code-review", "rag", "document-qa", "tool-use", "long-running", "debugging"}

// PresetNames returns the names of the built-in presets in a fixed order.
func PresetNames() []string { return slices.Clone(presetNames) }

// Preset returns the spec of a built-in preset, for inspection, as the
// starting point of a custom policy file, or to build with [Spec.Build].
// Each deduplicates and throws on overflow:
//
//	chat          Recency 3, Kind 1; greedy; chronological
//	code-review   Kind 2, Priority 2, Recency 1; greedy; chronological
//	rag           Reflexive 3, Kind 1; greedy; u-shaped
//	document-qa   Kind 2, Reflexive 2, Priority 1; knapsack (bucket 100); u-shaped
//	tool-use      Kind 2, Recency 2, Priority 1; greedy; chronological
//	long-running  Recency 3, Frequency 1, Kind 1; greedy; chronological
//	debugging     Priority 3, Kind 2, Recency 1; greedy; chronological
//
// Another name is a [*cupel.ValidationError] wrapping
// cupel.ErrInvalidArgument.
func Preset(name string) (Spec, error) {
	child := func(typ string, w float64) ScorerSpec { return ScorerSpec{Type: typ, Weight: cupel.Ptr(Float(w))} }
	spec := func(slicerType string, placer string, children ...ScorerSpec) Spec {
		s := Spec{
			Scorers:          children,
			Slicer:           slicerType,
			Placer:           placer,
			Deduplication:    cupel.Ptr(true),
			OverflowStrategy: "throw",
		}
		if slicerType == "knapsack" {
			s.BucketSize = cupel.Ptr(slicer.DefaultBucketSize)
		}
		return s
	}
	greedy := "greedy"
	switch name {
	case "chat":
		return spec(greedy, "chronological", child("recency", 3), child("kind", 1)), nil
	case "code-review":
		return spec(greedy, "chronological", child("kind", 2), child("priority", 2), child("recency", 1)), nil
	case "rag":
		return spec(greedy, "u-shaped", child("reflexive", 3), child("kind", 1)), nil
	case "document-qa":
		return spec("knapsack", "u-shaped", child("kind", 2), child("reflexive", 2), child("priority", 1)), nil
	case "tool-use":
		return spec(greedy, "chronological", child("kind", 2), child("recency", 2), child("priority", 1)), nil
	case "long-running":
		return spec(greedy, "chronological", child("recency", 3), child("frequency", 1), child("kind", 1)), nil
	case "debugging":
		return spec(greedy, "chronological", child("priority", 3), child("kind", 2), child("recency", 1)), nil
	}
	return Spec{}, enginehook.InvalidArgument("policy.Preset", "name", name, "is not a built-in preset")
}
