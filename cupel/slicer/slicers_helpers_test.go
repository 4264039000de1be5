package slicer_test

import (
	"errors"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

// Helpers of the slicer and placer specs; prefixed "sl" to stay clear of the
// other test files' helpers.

func slItem(content string, tokens int) *cupel.ContextItem {
	return cupel.MustItem(cupel.ItemSpec{Content: content, Tokens: tokens})
}

func slKindItem(content string, kind cupel.ContextKind, tokens int) *cupel.ContextItem {
	return cupel.MustItem(cupel.ItemSpec{Content: content, Tokens: tokens, Kind: kind})
}

func slBudget(maxTokens, target int) cupel.ContextBudget {
	b, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: maxTokens, TargetTokens: target})
	if err != nil {
		panic(err)
	}
	return b
}

func slTarget(target int) cupel.ContextBudget { return slBudget(target, target) }

func slContents(items []*cupel.ContextItem) []string {
	out := make([]string, len(items))
	for i, it := range items {
		if it == nil {
			out[i] = "<nil>"
		} else {
			out[i] = it.Content()
		}
	}
	return out
}

// slScoredList builds ScoredItems from alternating items and scores.
func slS(it *cupel.ContextItem, score float64) cupel.ScoredItem {
	return cupel.ScoredItem{Item: it, Score: score}
}

func slField(err error) string {
	var ve *cupel.ValidationError
	if errors.As(err, &ve) {
		return ve.Field
	}
	return ""
}

// slRecorder is an inner slicer that records the budgets and inputs it gets
// and selects with GreedySlice.
type slRecorder struct {
	calls []slCall
}

type slCall struct {
	items  []string
	max    int
	target int
}

func (r *slRecorder) Slice(sorted []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	c := slCall{max: b.MaxTokens(), target: b.TargetTokens()}
	for _, si := range sorted {
		c.items = append(c.items, si.Item.Content())
	}
	r.calls = append(r.calls, c)
	return slicer.NewGreedy().Slice(sorted, b)
}

// slFixed is an inner slicer that returns the given items (by content)
// whatever it is asked, in the given order.
type slFixed struct{ names []string }

func (f slFixed) Slice(sorted []cupel.ScoredItem, _ cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	var out []*cupel.ContextItem
	for _, n := range f.names {
		for _, si := range sorted {
			if si.Item.Content() == n {
				out = append(out, si.Item)
			}
		}
	}
	return out, nil
}

type slErrSlicer struct{ err error }

func (s slErrSlicer) Slice([]cupel.ScoredItem, cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	return nil, s.err
}
