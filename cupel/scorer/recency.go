package scorer

import "github.com/cupel-go/go-cupel/cupel"

// Recency is the spec's RecencyScorer (chapter 14): it ranks items by
// timestamp. The most recent item scores 1.0, the oldest 0.0, and the
// others rank / (countWithTimestamp - 1), where rank is the number of
// timestamped items strictly older than the item.
//
// Items without a timestamp score 0.0 and do not take part in the ranking;
// a lone timestamped item scores 1.0; tied timestamps get the same rank (all
// items sharing one timestamp score 0.0). Timestamps are compared as instants.
//
// A nil item scores 0, and nil entries of allItems are ignored. The zero
// value is ready to use; a Recency is safe for concurrent use.
type Recency struct{}

// NewRecency returns a Recency.
func NewRecency() *Recency { return &Recency{} }

// Score implements RECENCY-SCORE of spec chapter 14 (RecencyScorer):
// O(N) per item.
func (*Recency) Score(item *cupel.ContextItem, allItems []*cupel.ContextItem) float64 {
	if item == nil {
		return 0.0
	}
	t, ok := item.Timestamp()
	if !ok {
		return 0.0
	}
	count, rank := 0, 0
	for _, other := range allItems {
		if other == nil {
			continue
		}
		ot, ok := other.Timestamp()
		if !ok {
			continue
		}
		count++
		if ot.Before(t) {
			rank++
		}
	}
	if count <= 1 {
		return 1.0
	}
	return float64(rank) / float64(count-1)
}
