package policy

import (
	"slices"

	"github.com/cupel-go/go-cupel/internal/jsonfloat"
)

// Float is the type of a spec's numbers: a float64 whose JSON form
// survives non-finite values. Finite values are JSON numbers; NaN and the
// infinities are the strings "NaN", "Infinity" and "-Infinity" ("+Infinity"
// is also read); negative zero is written -0.0; null is refused. It is the
// one JSON codec for floats of go-cupel, shared with package cupel's JSON
// forms and the conformance protocol.
type Float = jsonfloat.Float

// The names a [Spec] accepts, in the order its documentation lists them.
var (
	scorerTypes = []string{"recency", "priority", "kind", "tag", "frequency", "reflexive", "composite", "scaled", "decay", "metadata_trust", "metadata_key"}
	slicerTypes = []string{"greedy", "knapsack", "quota", "count_quota", "count_constrained_knapsack"}
	placerTypes = []string{"chronological", "u-shaped"}
)

// ScorerTypes returns the scorer types a [ScorerSpec] may name.
func ScorerTypes() []string { return slices.Clone(scorerTypes) }

// SlicerTypes returns the slicer types a [Spec] may name.
func SlicerTypes() []string { return slices.Clone(slicerTypes) }

// PlacerTypes returns the placers a [Spec] may name.
func PlacerTypes() []string { return slices.Clone(placerTypes) }
