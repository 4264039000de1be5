package cupel

import "slices"

// The Type names a [PolicySpec] accepts, in the order its documentation
// lists them.
var (
	scorerSpecTypes = []string{"recency", "priority", "kind", "tag", "frequency", "reflexive", "composite", "scaled", "decay", "metadata_trust", "metadata_key"}
	slicerSpecTypes = []string{"greedy", "knapsack", "quota", "count_quota", "count_constrained_knapsack"}
	placerSpecNames = []string{"chronological", "u-shaped"}
)

// ScorerTypes returns the scorer types a [ScorerSpec] may name.
func ScorerTypes() []string { return slices.Clone(scorerSpecTypes) }

// SlicerTypes returns the slicer types a [SlicerSpec] may name.
func SlicerTypes() []string { return slices.Clone(slicerSpecTypes) }

// PlacerTypes returns the placers a [PolicySpec] may name.
func PlacerTypes() []string { return slices.Clone(placerSpecNames) }
