package slicer

import (
	"context"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/internal/enginehook"
)

// The built-in slicers' context forms ([cupel.ContextSlicer],
// [cupel.ContextPositionSlicer]).

// SliceContext implements [cupel.ContextSlicer]: Slice, with ctx checked before
// and after the call.
func (g *Greedy) SliceContext(ctx context.Context, sorted []cupel.ScoredItem, budget cupel.ContextBudget) (cupel.SliceResult, error) {
	if err := stopped(ctx); err != nil {
		return cupel.SliceResult{}, err
	}
	sel, err := g.Slice(sorted, budget)
	if err == nil {
		err = stopped(ctx)
	}
	if err != nil {
		return cupel.SliceResult{}, err
	}
	return cupel.SliceResult{Selected: sel}, nil
}

// SliceContext implements [cupel.ContextSlicer]: Slice, polling ctx while the
// table fills (every few thousand cells).
func (k *Knapsack) SliceContext(ctx context.Context, sorted []cupel.ScoredItem, budget cupel.ContextBudget) (cupel.SliceResult, error) {
	pos, err := k.solve(ctx, sorted, budget)
	if err != nil {
		return cupel.SliceResult{}, err
	}
	return cupel.SliceResult{Selected: itemsOf(sorted, pos)}, nil
}

// SlicePositionsContext implements [cupel.ContextPositionSlicer]: SlicePositions,
// polling ctx while the table fills (every few thousand cells).
func (k *Knapsack) SlicePositionsContext(ctx context.Context, sorted []cupel.ScoredItem, budget cupel.ContextBudget) ([]int, error) {
	return k.solve(ctx, sorted, budget)
}

// SliceContext implements [cupel.ContextSlicer]: Slice, passing ctx to the inner
// slicer of each kind.
func (q *Quota) SliceContext(ctx context.Context, sorted []cupel.ScoredItem, budget cupel.ContextBudget) (cupel.SliceResult, error) {
	sel, err := q.slice(ctx, sorted, budget)
	if err != nil {
		return cupel.SliceResult{}, err
	}
	return cupel.SliceResult{Selected: sel}, nil
}

// SliceContext implements [cupel.ContextSlicer]: SliceDetailed, checking ctx
// between the phases and passing it to the inner slicer.
func (c *CountQuota) SliceContext(ctx context.Context, sorted []cupel.ScoredItem, budget cupel.ContextBudget) (cupel.SliceResult, error) {
	if c == nil || enginehook.IsNil(c.inner) {
		return cupel.SliceResult{}, enginehook.InvalidConfig("CountQuotaSlice", "inner", nil, "must not be nil")
	}
	p := c.policy
	p.name = "CountQuotaSlice"
	return p.run(ctx, sorted, budget, func(residual []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
		return sliceInner(ctx, c.inner, residual, b)
	})
}

// SliceContext implements [cupel.ContextSlicer]: SliceDetailed, checking ctx
// between the phases and while the knapsack table fills.
func (c *CountConstrainedKnapsack) SliceContext(ctx context.Context, sorted []cupel.ScoredItem, budget cupel.ContextBudget) (cupel.SliceResult, error) {
	return c.sliceStop(ctx, sorted, budget)
}
