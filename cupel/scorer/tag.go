package scorer

import (
	"maps"
	"math"
	"slices"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/internal/enginehook"
)

// Tag is the spec's TagScorer (chapter 17): it scores an item by the
// weights of its tags, the sum of the configured weights of the item's
// tags, divided by the sum of all configured weights, capped at 1.0.
//
// The tag lookup is case-sensitive (ordinal), the spec's default and
// ruling 15: a weight for "Important" does not match "important".
// Every occurrence of a tag on the item adds its weight, so duplicate tags
// count twice (the cap keeps the score <= 1.0). An item without tags, or a
// scorer whose weights sum to 0, scores 0.0. The total is summed once, at
// construction, over the keys in sorted order, so that the result never
// depends on map iteration order (ruling 16).
//
// A nil item scores 0; allItems is ignored. The zero value scores every item
// 0.0. A Tag is immutable and safe for concurrent use.
type Tag struct {
	weights map[string]float64
	total   float64
}

// NewTag returns a Tag with a copy of weights. As in the spec's
// CONSTRUCT-TAG-SCORER, every weight must be >= 0 and finite; beyond the
// spec, the sum of the weights must be finite too (weights near the float64
// maximum could overflow it to +Inf and turn scores into 0 or NaN). Keys are
// checked in sorted order, so the error reported is deterministic. Errors
// are [*cupel.ValidationError]s wrapping [cupel.ErrInvalidConfig] with Field
// "weights[<tag>]" (or "weights" for the sum). An empty or nil map is valid:
// every item then scores 0.0.
func NewTag(weights map[string]float64) (*Tag, error) {
	s := &Tag{weights: make(map[string]float64, len(weights))}
	for _, tag := range slices.Sorted(maps.Keys(weights)) {
		w := weights[tag]
		field := "weights[" + tag + "]"
		if w < 0.0 {
			return nil, enginehook.InvalidConfig("TagScorer", field, w, "tag weight must be non-negative")
		}
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return nil, enginehook.InvalidConfig("TagScorer", field, w, "tag weight must be finite")
		}
		s.total += w
		s.weights[tag] = w
	}
	if math.IsInf(s.total, 0) {
		return nil, enginehook.InvalidConfig("TagScorer", "weights", s.total, "sum of the tag weights must be finite")
	}
	return s, nil
}

// Weights returns a copy of the configured tag weights.
func (s *Tag) Weights() map[string]float64 { return maps.Clone(s.weights) }

// TotalWeight returns the sum of the configured weights, the score's denominator.
func (s *Tag) TotalWeight() float64 { return s.total }

// Score implements TAG-SCORE of spec chapter 17 (TagScorer): O(T) for T tags.
func (s *Tag) Score(item *cupel.ContextItem, _ []*cupel.ContextItem) float64 {
	if item == nil || s.total == 0.0 || item.NumTags() == 0 {
		return 0.0
	}
	matched := 0.0
	for i := range item.NumTags() {
		if w, ok := s.weights[item.Tag(i)]; ok {
			matched += w
		}
	}
	return min(matched/s.total, 1.0)
}
