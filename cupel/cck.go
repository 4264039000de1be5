package cupel

import (
	"cmp"
	"slices"

	"github.com/cupel-go/go-cupel/cupel/internal/keysort"
)

// CountConstrainedKnapsackSlice is [CountQuotaSlice] with a [KnapsackSlice]
// as its Phase 2 engine (spec chapter 30 (CountConstrainedKnapsackSlice),
// COUNT-KNAPSACK-CAP):
//
//   - Phase 1 is CountQuotaSlice's (entries in declaration order, per-kind
//     score-descending commits, shortfalls or a [*CountRequirementError]).
//   - Phase 2 runs the knapsack on the uncommitted items under
//     ContextBudget(maxTokens: budget.maxTokens, targetTokens: min(max(0,
//     target - committed tokens), maxTokens)); its errors (a
//     [*TableTooLargeError]) are returned. The knapsack output is then
//     re-sorted by score descending, input order breaking ties (D180).
//   - Phase 3 enforces the caps on that re-sorted list, starting from the
//     Phase 1 counts (D181); dropped items are reported as [CapExclusion]s.
//
// The output is the committed items followed by the kept Phase 2 items in
// score order. The decisions listed on CountQuotaSlice (nil items, negative
// tokens, token overflow) apply here too.
//
// The zero value has no entries, ScarcityDegrade and a default
// KnapsackSlice. A CountConstrainedKnapsackSlice is immutable and safe for
// concurrent use.
type CountConstrainedKnapsackSlice struct {
	policy   countPolicy
	knapsack *KnapsackSlice
}

// NewCountConstrainedKnapsackSlice returns the slicer, or a
// [*ValidationError] wrapping [ErrInvalidConfig] when knapsack is nil, an
// entry is invalid, two entries name the same kind, or scarcity is not a
// defined value.
func NewCountConstrainedKnapsackSlice(entries []CountQuotaEntry, knapsack *KnapsackSlice, scarcity ScarcityBehavior) (*CountConstrainedKnapsackSlice, error) {
	const typ = "CountConstrainedKnapsackSlice"
	if knapsack == nil {
		return nil, invalidConfig(typ, "knapsack", nil, "must not be nil")
	}
	p, err := newCountPolicy(typ, entries, scarcity)
	if err != nil {
		return nil, err
	}
	return &CountConstrainedKnapsackSlice{policy: p, knapsack: knapsack}, nil
}

// Entries returns a copy of the entries, in declaration order.
func (c *CountConstrainedKnapsackSlice) Entries() []CountQuotaEntry {
	return append([]CountQuotaEntry(nil), c.policy.entries...)
}

// Scarcity returns the scarcity behaviour.
func (c *CountConstrainedKnapsackSlice) Scarcity() ScarcityBehavior { return c.policy.scarcity }

// Knapsack returns the Phase 2 knapsack slicer.
func (c *CountConstrainedKnapsackSlice) Knapsack() *KnapsackSlice {
	if c == nil || c.knapsack == nil {
		return &KnapsackSlice{bucket: DefaultBucketSize, limit: DefaultKnapsackTableLimit}
	}
	return c.knapsack
}

// Slice implements [Slicer]: SliceDetailed(...).Selected.
func (c *CountConstrainedKnapsackSlice) Slice(sorted []ScoredItem, budget ContextBudget) ([]*ContextItem, error) {
	r, err := c.SliceDetailed(sorted, budget)
	return r.Selected, err
}

// SliceDetailed implements [DetailedSlicer]. It does not modify sorted.
func (c *CountConstrainedKnapsackSlice) SliceDetailed(sorted []ScoredItem, budget ContextBudget) (SliceResult, error) {
	return c.sliceStop(nil, sorted, budget)
}

// sliceStop is SliceDetailed polling stop (when not nil) between the phases
// and while the knapsack table fills.
func (c *CountConstrainedKnapsackSlice) sliceStop(stop *canceller, sorted []ScoredItem, budget ContextBudget) (SliceResult, error) {
	var p countPolicy
	var ks *KnapsackSlice
	if c != nil {
		p, ks = c.policy, c.knapsack
	}
	p.name = "CountConstrainedKnapsackSlice"
	return p.run(stop, sorted, budget, func(residual []ScoredItem, b ContextBudget) ([]*ContextItem, error) {
		selected, err := ks.solve(stop, residual, b) // positions in residual; nil ks: defaults
		if err != nil {
			return nil, err
		}
		// D180: re-sort by score descending (ruling 6), residual order
		// breaking ties.
		slices.SortFunc(selected, func(i, j int) int {
			return cmp.Or(keysort.CompareScoreDesc(residual[i].Score, residual[j].Score), cmp.Compare(i, j))
		})
		return itemsAt(residual, selected), nil
	})
}
