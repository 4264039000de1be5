package slicer

import (
	"cmp"
	"context"
	"slices"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/internal/keysort"
	"github.com/cupel-go/go-cupel/internal/enginehook"
)

// CountConstrainedKnapsack is the spec's CountConstrainedKnapsackSlice
// (chapter 30, COUNT-KNAPSACK-CAP): [CountQuota] with a [Knapsack] as its
// Phase 2 engine.
//
//   - Phase 1 is CountQuota's (entries in declaration order, per-kind
//     score-descending commits, shortfalls or a [*CountRequirementError]).
//   - Phase 2 runs the knapsack on the uncommitted items under
//     ContextBudget(maxTokens: budget.MaxTokens(), targetTokens: min(max(0,
//     target - committed tokens), maxTokens)); its errors (a
//     [*TableTooLargeError]) are returned. The knapsack output is then
//     re-sorted by score descending, input order breaking ties (D180).
//   - Phase 3 enforces the caps on that re-sorted list, starting from the
//     Phase 1 counts (D181); dropped items are reported as [cupel.CapExclusion]s.
//
// The output is the committed items followed by the kept Phase 2 items in
// score order. The decisions listed on CountQuota (nil items, negative
// tokens, token overflow) apply here too.
//
// The zero value has no entries, ScarcityDegrade and a default
// Knapsack. A CountConstrainedKnapsack is immutable and safe for
// concurrent use.
type CountConstrainedKnapsack struct {
	policy   countPolicy
	knapsack *Knapsack
}

// NewCountConstrainedKnapsack returns the slicer, or a
// [*cupel.ValidationError] wrapping [cupel.ErrInvalidConfig] when knapsack is nil, an
// entry is invalid, two entries name the same kind, or scarcity is not a
// defined value.
func NewCountConstrainedKnapsack(entries []CountQuotaEntry, knapsack *Knapsack, scarcity ScarcityBehavior) (*CountConstrainedKnapsack, error) {
	const typ = "CountConstrainedKnapsackSlice"
	if knapsack == nil {
		return nil, enginehook.InvalidConfig(typ, "knapsack", nil, "must not be nil")
	}
	p, err := newCountPolicy(typ, entries, scarcity)
	if err != nil {
		return nil, err
	}
	return &CountConstrainedKnapsack{policy: p, knapsack: knapsack}, nil
}

// Entries returns a copy of the entries, in declaration order.
func (c *CountConstrainedKnapsack) Entries() []CountQuotaEntry {
	return append([]CountQuotaEntry(nil), c.policy.entries...)
}

// Scarcity returns the scarcity behaviour.
func (c *CountConstrainedKnapsack) Scarcity() ScarcityBehavior { return c.policy.scarcity }

// Knapsack returns the Phase 2 knapsack slicer.
func (c *CountConstrainedKnapsack) Knapsack() *Knapsack {
	if c == nil || c.knapsack == nil {
		return &Knapsack{bucket: DefaultBucketSize, limit: DefaultKnapsackTableLimit}
	}
	return c.knapsack
}

// Slice implements [cupel.Slicer]: SliceDetailed(...).Selected.
func (c *CountConstrainedKnapsack) Slice(sorted []cupel.ScoredItem, budget cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	r, err := c.SliceDetailed(sorted, budget)
	return r.Selected, err
}

// SliceDetailed implements [cupel.DetailedSlicer]. It does not modify sorted.
func (c *CountConstrainedKnapsack) SliceDetailed(sorted []cupel.ScoredItem, budget cupel.ContextBudget) (cupel.SliceResult, error) {
	return c.sliceStop(context.Background(), sorted, budget)
}

// sliceStop is SliceDetailed polling ctx (when not nil) between the phases
// and while the knapsack table fills.
func (c *CountConstrainedKnapsack) sliceStop(ctx context.Context, sorted []cupel.ScoredItem, budget cupel.ContextBudget) (cupel.SliceResult, error) {
	var p countPolicy
	var ks *Knapsack
	if c != nil {
		p, ks = c.policy, c.knapsack
	}
	p.name = "CountConstrainedKnapsackSlice"
	return p.run(ctx, sorted, budget, func(residual []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
		selected, err := ks.solve(ctx, residual, b) // positions in residual; nil ks: defaults
		if err != nil {
			return nil, err
		}
		// D180: re-sort by score descending (ruling 6), residual order
		// breaking ties.
		slices.SortFunc(selected, func(i, j int) int {
			return cmp.Or(keysort.CompareScoreDesc(residual[i].Score, residual[j].Score), cmp.Compare(i, j))
		})
		return itemsOf(residual, selected), nil
	})
}

// NeedsWholeSet implements [cupel.WholeSetSlicer]: the count quotas apply to the
// whole candidate set, so a streamed run refuses the slicer.
func (*CountConstrainedKnapsack) NeedsWholeSet() bool { return true }
