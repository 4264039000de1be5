package cupel

// PriorityScorer ranks items by priority: the highest priority scores 1.0,
// the lowest 0.0, and the others rank / (countWithPriority - 1), where rank is
// the number of prioritized items with a strictly lower priority (spec
// chapter 15 (PriorityScorer)).
//
// Items without a priority score 0.0 and do not take part in the ranking; a
// lone prioritized item scores 1.0; tied priorities get the same rank (all
// items sharing one priority score 0.0).
//
// A nil item scores 0, and nil entries of allItems are ignored. The zero
// value is ready to use; a PriorityScorer is safe for concurrent use.
type PriorityScorer struct{}

// NewPriorityScorer returns a PriorityScorer.
func NewPriorityScorer() *PriorityScorer { return &PriorityScorer{} }

// Score implements PRIORITY-SCORE of spec chapter 15 (PriorityScorer):
// O(N) per item.
func (*PriorityScorer) Score(item *ContextItem, allItems []*ContextItem) float64 {
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
