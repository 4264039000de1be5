package analysis_test

import (
	"github.com/cupel-go/go-cupel/cupel"
	. "github.com/onsi/gomega"
)

// Test doubles: a scorer reading scores from a table, a slicer that takes
// items in the order given while they fit, and a placer keeping merged order.

type tableScorer map[string]float64

func (t tableScorer) Score(it *cupel.ContextItem, _ []*cupel.ContextItem) float64 {
	return t[it.Content()]
}

type inOrderSlicer struct{}

func (inOrderSlicer) Slice(sorted []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	var out []*cupel.ContextItem
	left := b.TargetTokens()
	for _, si := range sorted {
		if si.Item.Tokens() <= left {
			out = append(out, si.Item)
			left -= si.Item.Tokens()
		}
	}
	return out, nil
}

type keepOrderPlacer struct{}

func (keepOrderPlacer) Place(items []cupel.ScoredItem) []*cupel.ContextItem {
	out := make([]*cupel.ContextItem, len(items))
	for i, si := range items {
		out[i] = si.Item
	}
	return out
}

func item(content string, tokens int) *cupel.ContextItem {
	return cupel.MustItem(cupel.ItemSpec{Content: content, Tokens: tokens})
}

func pinnedItem(content string, tokens int) *cupel.ContextItem {
	return cupel.MustItem(cupel.ItemSpec{Content: content, Tokens: tokens, Pinned: true})
}

// hintItem is an item whose futureRelevanceHint is hint, for the
// ReflexiveScorer.
func hintItem(content string, tokens int, hint float64) *cupel.ContextItem {
	return cupel.MustItem(cupel.ItemSpec{Content: content, Tokens: tokens, FutureRelevanceHint: &hint})
}

func budget(maxT, target int) cupel.ContextBudget {
	b, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: maxT, TargetTokens: target})
	Expect(err).NotTo(HaveOccurred())
	return b
}

func contents(items []*cupel.ContextItem) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.Content()
	}
	return out
}
