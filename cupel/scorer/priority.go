package scorer

import "github.com/cupel-go/go-cupel/cupel"

// Priority is the spec's PriorityScorer (chapter 15): it ranks items by
// priority. The highest priority scores 1.0, the lowest 0.0, and the others
// rank / (countWithPriority - 1), where rank is the number of prioritized
// items with a strictly lower priority.
//
// Items without a priority score 0.0 and do not take part in the ranking; a
// lone prioritized item scores 1.0; tied priorities get the same rank (all
// items sharing one priority score 0.0).
//
// A nil item scores 0, and nil entries of allItems are ignored. The zero
// value is ready to use; a Priority is safe for concurrent use.
type Priority struct{}

// NewPriority returns a Priority.
func NewPriority() *Priority { return &Priority{} }

// Score implements PRIORITY-SCORE of spec chapter 15 (PriorityScorer):
// O(N) per item.
func (*Priority) Score(item *cupel.ContextItem, allItems []*cupel.ContextItem) float64 {
	if item == nil {
		return 0.0
	}
	p, ok := item.Priority()
	if !ok {
		return 0.0
	}
	count, rank := 0, 0
	for _, other := range allItems {
		if other == nil {
			continue
		}
		op, ok := other.Priority()
		if !ok {
			continue
		}
		count++
		if op < p {
			rank++
		}
	}
	if count <= 1 {
		return 1.0
	}
	return float64(rank) / float64(count-1)
}
