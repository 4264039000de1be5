package scorer

import (
	"fmt"
	"math"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/internal/enginehook"
)

// MetadataKey is the spec's MetadataKeyScorer (chapter 24): it returns a
// multiplier, boost when metadata[key] equals value, and the neutral 1.0
// otherwise, including when the key is absent. Results are not clamped to [0, 1]; the
// scorer is meant as a child of a [Composite]. The spec's typical use
// is NewMetadataKey("cupel:priority", "high", 1.5).
//
// The comparison is string to string, exact and case-sensitive. A string
// metadata value is compared as is. A value of another type is converted to
// its default string form with fmt.Sprint first (the spec's "non-string
// values SHOULD be converted to string" for dynamically typed metadata):
// float64 1.5 matches "1.5", int 3 matches "3", true matches "true". A nil
// value matches nothing.
//
// A nil item scores 0; allItems is ignored. A MetadataKey is immutable
// and safe for concurrent use.
type MetadataKey struct {
	key   string
	value string
	boost float64
}

// NewMetadataKey returns a MetadataKey. boost must be > 0 and
// finite (0, negative, NaN and infinite values are rejected); the error is a
// [*cupel.ValidationError] wrapping [cupel.ErrInvalidConfig] with Field "boost". key and
// value are not validated.
func NewMetadataKey(key, value string, boost float64) (*MetadataKey, error) {
	if boost <= 0.0 {
		return nil, enginehook.InvalidConfig("MetadataKeyScorer", "boost", boost, "must be greater than 0")
	}
	if math.IsNaN(boost) || math.IsInf(boost, 0) {
		return nil, enginehook.InvalidConfig("MetadataKeyScorer", "boost", boost, "must be finite")
	}
	return &MetadataKey{key: key, value: value, boost: boost}, nil
}

// Key returns the metadata key.
func (s *MetadataKey) Key() string { return s.key }

// Value returns the value to match.
func (s *MetadataKey) Value() string { return s.value }

// Boost returns the multiplier returned on a match.
func (s *MetadataKey) Boost() float64 { return s.boost }

// Score implements METADATA-KEY-SCORE of spec chapter 24 (MetadataKeyScorer).
func (s *MetadataKey) Score(item *cupel.ContextItem, _ []*cupel.ContextItem) float64 {
	if item == nil {
		return 0.0
	}
	raw, ok := item.MetadataValue(s.key)
	if !ok {
		return 1.0
	}
	var str string
	switch v := raw.(type) {
	case string:
		str = v
	case nil:
		return 1.0
	default:
		str = fmt.Sprint(v)
	}
	if str != s.value {
		return 1.0
	}
	return s.boost
}
