package scorer

import (
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/internal/enginehook"
)

// Kind is the spec's KindScorer (chapter 16): it scores an item by looking
// its kind up in a weight map, the configured weight, or 0.0 for a kind not
// in the map. The lookup compares kinds with ASCII case folding only
// (ruling 15): a weight for "Message" matches "message" and
// "MESSAGE", but a weight for "K" does not match the Kelvin sign U+212A.
// Weights are returned as configured, never clamped, so they may exceed 1.0.
//
// A nil item scores 0; allItems is ignored. The zero value scores every item
// 0.0 (an empty weight map). A Kind is immutable and safe for
// concurrent use.
type Kind struct {
	weights map[cupel.ContextKind]float64 // as configured, for Weights
	byKey   map[string]float64            // ContextKind.Key() -> weight
}

// defaultKindWeights are the spec's default weights (chapter 16 (KindScorer)).
var defaultKindWeights = map[cupel.ContextKind]float64{
	cupel.KindSystemPrompt: 1.0,
	cupel.KindMemory:       0.8,
	cupel.KindToolOutput:   0.6,
	cupel.KindDocument:     0.4,
	cupel.KindMessage:      0.2,
}

// DefaultKindWeights returns a copy of the spec's default weights: exactly
// SystemPrompt 1.0, Memory 0.8, ToolOutput 0.6, Document 0.4, Message 0.2.
func DefaultKindWeights() map[cupel.ContextKind]float64 { return maps.Clone(defaultKindWeights) }

// NewDefaultKind returns a Kind with [DefaultKindWeights].
func NewDefaultKind() *Kind {
	s, err := NewKind(defaultKindWeights)
	if err != nil {
		panic(err) // unreachable: the defaults are valid
	}
	return s
}

// NewKind returns a Kind with a copy of weights, validated as
// the spec's VALIDATE-KIND-WEIGHTS requires: every weight must be >= 0 and
// finite (values above 1.0 are allowed). Beyond the spec, it rejects a kind
// that is empty or white space (not a valid ContextKind, chapter
// 04 (Enumerations)) and two keys that are the same kind under ASCII case
// folding ("Document" and "document"), whose lookup would otherwise be
// ambiguous. The keys are checked in sorted order, so the error reported for
// a map with several bad entries is deterministic. Errors are
// [*cupel.ValidationError]s wrapping [cupel.ErrInvalidConfig] with Field
// "weights[<kind>]". An empty or nil map is valid: every item then scores 0.0.
func NewKind(weights map[cupel.ContextKind]float64) (*Kind, error) {
	kinds := slices.SortedFunc(maps.Keys(weights), func(a, b cupel.ContextKind) int {
		if c := strings.Compare(a.Key(), b.Key()); c != 0 {
			return c
		}
		return strings.Compare(string(a), string(b))
	})
	s := &Kind{
		weights: make(map[cupel.ContextKind]float64, len(weights)),
		byKey:   make(map[string]float64, len(weights)),
	}
	for i, k := range kinds {
		w := weights[k]
		field := "weights[" + string(k) + "]"
		switch {
		case strings.TrimSpace(string(k)) == "":
			return nil, enginehook.InvalidConfig("KindScorer", field, string(k), "kind must not be empty or white space")
		case w < 0.0:
			return nil, enginehook.InvalidConfig("KindScorer", field, w, "weight must be non-negative")
		case math.IsNaN(w) || math.IsInf(w, 0):
			return nil, enginehook.InvalidConfig("KindScorer", field, w, "weight must be finite")
		case i > 0 && kinds[i-1].Equal(k):
			return nil, enginehook.InvalidConfig("KindScorer", field, w, "duplicates kind "+string(kinds[i-1])+" (kinds compare case-insensitively, ASCII folding)")
		}
		s.weights[k] = w
		s.byKey[k.Key()] = w
	}
	return s, nil
}

// Weights returns a copy of the configured weights, keys spelled as given.
func (s *Kind) Weights() map[cupel.ContextKind]float64 { return maps.Clone(s.weights) }

// Score implements KIND-SCORE of spec chapter 16 (KindScorer): O(1).
func (s *Kind) Score(item *cupel.ContextItem, _ []*cupel.ContextItem) float64 {
	if item == nil {
		return 0.0
	}
	if w, ok := lookupFolded(s.byKey, string(item.Kind())); ok {
		return w
	}
	return 0.0
}

// lookupFolded looks up the ASCII-lower-cased s in m (whose keys are
// lower-cased), without allocating for keys of up to 64 bytes.
func lookupFolded(m map[string]float64, s string) (float64, bool) {
	if len(m) == 0 {
		return 0, false
	}
	if len(s) > 64 {
		w, ok := m[cupel.ContextKind(s).Key()]
		return w, ok
	}
	var buf [64]byte
	b := buf[:len(s)]
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	w, ok := m[string(b)]
	return w, ok
}
