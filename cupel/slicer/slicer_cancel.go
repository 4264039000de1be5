package slicer

import (
	"context"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/internal/enginehook"
)

// live returns ctx, or nil when ctx can never be done (context.Background,
// context.TODO, a nil ctx): the slicers take exactly the path of a call
// without a context then, polling nothing.
func live(ctx context.Context) context.Context {
	if ctx == nil || ctx.Done() == nil {
		return nil
	}
	return ctx
}

// stopped returns the engine's *cupel.CanceledError for the Slice stage when
// ctx is done, else nil; a nil ctx is never done.
func stopped(ctx context.Context) error {
	if ctx == nil {
		return nil
	}
	return enginehook.SliceCanceled(ctx)
}

// sliceInner is how a slicer of this package calls its inner slicer: with
// a nil ctx (see live) through Slice, so that results never depend on a
// custom slicer's other methods agreeing with its Slice; else through
// [cupel.SliceWithContext], so that the cancellation reaches it.
func sliceInner(ctx context.Context, s cupel.Slicer, sorted []cupel.ScoredItem, budget cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	if ctx == nil {
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
