package slicer

import (
	"context"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/internal/enginehook"
)

// stopped returns the engine's *cupel.CanceledError for the Slice stage when
// ctx is done, else nil; a nil ctx is never done.
func stopped(ctx context.Context) error {
	if ctx == nil || ctx.Done() == nil {
		return nil
	}
	return enginehook.SliceCanceled(ctx)
}

// cancellable reports whether ctx can ever be done (context.Background,
// context.TODO and a nil ctx cannot).
func cancellable(ctx context.Context) bool { return ctx != nil && ctx.Done() != nil }

// sliceInner is how a slicer of this package calls its inner slicer: under
// a ctx that can never be done through Slice, so that results never depend
// on a custom slicer's other methods agreeing with its Slice; else through
// [cupel.SliceWithContext], so that the cancellation reaches it.
func sliceInner(ctx context.Context, s cupel.Slicer, sorted []cupel.ScoredItem, budget cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	if !cancellable(ctx) {
		return s.Slice(sorted, budget)
	}
	res, err := cupel.SliceWithContext(ctx, s, sorted, budget)
	return res.Selected, err
}

// budgetOf builds the two-field budget handed to slicers; values are
// clamped so that the result is always a valid budget.
func budgetOf(maxTokens, targetTokens int) cupel.ContextBudget {
	maxTokens = max(0, maxTokens)
	targetTokens = min(max(0, targetTokens), maxTokens)
	b, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: maxTokens, TargetTokens: targetTokens}) // valid by the clamps
	return b
}

// itemsOf returns the items of sorted at the positions pos, in order.
func itemsOf(sorted []cupel.ScoredItem, pos []int) []*cupel.ContextItem {
	out := make([]*cupel.ContextItem, len(pos))
	for i, p := range pos {
		out[i] = sorted[p].Item
	}
	return out
}
