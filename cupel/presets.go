package cupel

// PresetName names a built-in policy preset.
type PresetName string

// The built-in presets. Each deduplicates and throws on overflow.
const (
	// PresetChat: Recency 3, Kind 1; Greedy; Chronological.
	PresetChat PresetName = "chat"
	// PresetCodeReview: Kind 2, Priority 2, Recency 1; Greedy; Chronological.
	PresetCodeReview PresetName = "code-review"
	// PresetRag: Reflexive 3, Kind 1; Greedy; UShaped.
	PresetRag PresetName = "rag"
	// PresetDocumentQa: Kind 2, Reflexive 2, Priority 1; Knapsack (bucket 100); UShaped.
	PresetDocumentQa PresetName = "document-qa"
	// PresetToolUse: Kind 2, Recency 2, Priority 1; Greedy; Chronological.
	PresetToolUse PresetName = "tool-use"
	// PresetLongRunning: Recency 3, Frequency 1, Kind 1; Greedy; Chronological.
	PresetLongRunning PresetName = "long-running"
	// PresetDebugging: Priority 3, Kind 2, Recency 1; Greedy; Chronological.
	PresetDebugging PresetName = "debugging"
)

// Presets lists the built-in presets in a fixed order.
func Presets() []PresetName {
	return []PresetName{PresetChat, PresetCodeReview, PresetRag, PresetDocumentQa, PresetToolUse, PresetLongRunning, PresetDebugging}
}

// PresetSpec returns the description of a preset, for inspection or as the
// starting point of a custom policy file.
func PresetSpec(name PresetName) (PolicySpec, error) {
	child := func(typ string, w float64) ScorerSpec { return ScorerSpec{Type: typ, Weight: Ptr(Float(w))} }
	spec := func(slicer string, placer string, children ...ScorerSpec) PolicySpec {
		s := PolicySpec{
			Scorers:          children,
			Slicer:           slicer,
			Placer:           placer,
			Deduplication:    Ptr(true),
			OverflowStrategy: "throw",
		}
		if slicer == "knapsack" {
			s.BucketSize = Ptr(DefaultBucketSize)
		}
		return s
	}
	greedy := "greedy"
	switch name {
	case PresetChat:
		return spec(greedy, "chronological", child("recency", 3), child("kind", 1)), nil
	case PresetCodeReview:
		return spec(greedy, "chronological", child("kind", 2), child("priority", 2), child("recency", 1)), nil
	case PresetRag:
		return spec(greedy, "u-shaped", child("reflexive", 3), child("kind", 1)), nil
	case PresetDocumentQa:
		return spec("knapsack", "u-shaped", child("kind", 2), child("reflexive", 2), child("priority", 1)), nil
	case PresetToolUse:
		return spec(greedy, "chronological", child("kind", 2), child("recency", 2), child("priority", 1)), nil
	case PresetLongRunning:
		return spec(greedy, "chronological", child("recency", 3), child("frequency", 1), child("kind", 1)), nil
	case PresetDebugging:
		return spec(greedy, "chronological", child("priority", 3), child("kind", 2), child("recency", 1)), nil
	}
	return PolicySpec{}, invalidArgument("PresetSpec", "name", string(name), "is not a built-in preset")
}

// PresetPolicy returns the Policy of a preset.
func PresetPolicy(name PresetName) (Policy, error) {
	spec, err := PresetSpec(name)
	if err != nil {
		return Policy{}, err
	}
	return spec.Build()
}
