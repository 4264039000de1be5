package scorer

import (
	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/internal/enginehook"
)

// Frequency is the spec's FrequencyScorer (chapter 18): it scores an item
// by the proportion of its peers that share at least one tag with it,
// matching / (length(allItems) - 1).
//
// Tags compare with ASCII case folding only (ruling 15): "Important"
// matches "important", but "K" does not match the Kelvin sign U+212A. The
// item itself is skipped by pointer identity (ruling 14): every
// occurrence of the same *ContextItem in allItems is skipped, while a
// distinct item with equal content counts as a peer. The denominator is
// always length(allItems) - 1, not reduced for skipped occurrences or
// tagless peers. An item without tags, or a list of at most one item, scores
// 0.0.
//
// A nil item scores 0, and nil entries of allItems are ignored as if absent
// (they count neither as peers nor in the denominator). The zero value is
// ready to use; a Frequency is safe for concurrent use. Its batch
// path, ScoreAll, is in frequency_batch.go.
type Frequency struct{}

// NewFrequency returns a Frequency.
func NewFrequency() *Frequency { return &Frequency{} }

// Score is FREQUENCY-SCORE of spec chapter 18 (FrequencyScorer), section
// Algorithm, line for line; length(allItems) counts the non-nil entries
// only. O(N * T^2) for N items of T tags.
func (*Frequency) Score(item *cupel.ContextItem, allItems []*cupel.ContextItem) float64 {
	n := 0 // length(allItems), nil entries being absent
	for _, other := range allItems {
		if other != nil {
			n++
		}
	}
	if item == nil || item.NumTags() == 0 || n <= 1 {
		return 0.0
	}
	matching := 0
	for _, other := range allItems {
		if other == nil || other == item { // skip self by identity, not by value
			continue
		}
		if other.NumTags() == 0 {
			continue
		}
		if sharesAnyTag(item, other) {
			matching++
		}
	}
	return float64(matching) / float64(n-1)
}

// sharesAnyTag is SHARES-ANY-TAG of spec chapter 18 (FrequencyScorer),
// section Tag Overlap Detection: whether some tag of a equals some tag of b
// under ASCII case folding.
func sharesAnyTag(a, b *cupel.ContextItem) bool {
	for i := range a.NumTags() {
		for j := range b.NumTags() {
			if enginehook.EqualASCIIFold(a.Tag(i), b.Tag(j)) {
				return true
			}
		}
	}
	return false
}
