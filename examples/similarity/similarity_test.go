package similarity_test

import (
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
	"github.com/cupel-go/go-cupel/cupeltest"
	"github.com/cupel-go/go-cupel/examples/similarity"
)

// doc returns a retrieved document with its similarity to the query.
func doc(content string, tokens int, sim any) *cupel.ContextItem {
	return cupel.MustItem(cupel.ItemSpec{
		Content:  content,
		Tokens:   tokens,
		Kind:     cupel.KindDocument,
		Metadata: map[string]any{similarity.Key: sim},
	})
}

// retrieved is what the retriever returned for "how do I unlock my
// account?", including the odd values a real retriever produces.
func retrieved() []*cupel.ContextItem {
	return []*cupel.ContextItem{
		doc("kb/account-locked.md", 120, 0.91),
		doc("kb/password-reset.md", 150, 0.74),
		doc("kb/billing-faq.md", 400, 0.12),
		doc("kb/two-factor.md", 90, "0.66"), // a string from a JSON decoder
		doc("kb/careers.md", 80, -0.2),      // cosine similarities can be negative
		doc("kb/empty.md", 0, 0.5),          // zero tokens
		cupel.MustItem(cupel.ItemSpec{Content: "user: how do I unlock my account?", Tokens: 12}),
	}
}

// TestContract proves the scorer against the Scorer contract, its fast path
// included, on generated inputs and on the retriever's items: one subtest
// per property (Deterministic, NoMutation, OrderIndependent, FiniteScores,
// FastPathAgrees, ConcurrentUse, EdgeCases).
func TestContract(t *testing.T) {
	cupeltest.RunScorerTests(t, similarity.Scorer{}, cupeltest.WithItems(retrieved()...))
}

// TestSelection runs the scorer in a pipeline: the most similar documents
// fill the budget, the best match at the edge.
func TestSelection(t *testing.T) {
	p, err := cupel.NewPipeline(cupel.Policy{
		Scorer: similarity.Scorer{},
		Slicer: slicer.NewGreedy(),
		Placer: placer.NewUShaped(),
	})
	if err != nil {
		t.Fatal(err)
	}
	b, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 400, TargetTokens: 300})
	if err != nil {
		t.Fatal(err)
	}
	report := new(cupel.SelectionReport)
	_, err = p.Run(retrieved(), b, cupel.WithReport(report))
	if err != nil {
		t.Fatal(err)
	}
	cupeltest.Should(t, report).
		IncludeItemMatching(func(in cupel.IncludedItem) bool { return in.Item.Content() == "kb/account-locked.md" && in.Score == 1 }).
		ExcludeItemMatchingWithReason(func(it *cupel.ContextItem) bool { return it.Content() == "kb/billing-faq.md" }, cupel.ExclusionBudgetExceeded).
		PlaceItemAtEdge(func(in cupel.IncludedItem) bool { return in.Item.Content() == "kb/account-locked.md" })
}
