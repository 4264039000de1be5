package similarity_test

import (
	"fmt"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupeltest"
	"github.com/cupel-go/go-cupel/examples/similarity"
)

func ExampleScorer() {
	items := []*cupel.ContextItem{
		doc("kb/account-locked.md", 120, 0.8),
		doc("kb/password-reset.md", 150, 0.6),
		doc("kb/billing-faq.md", 400, 0.2),
	}
	out := cupel.ScoreBatch(similarity.Scorer{}, items, nil) // takes ScoreAll
	for i, it := range items {
		fmt.Printf("%s %.2f\n", it.Content(), out[i])
	}
	fmt.Println(cupeltest.TestScorer(similarity.Scorer{}, cupeltest.WithItems(items...)))
	// Output:
	// kb/account-locked.md 1.00
	// kb/password-reset.md 0.75
	// kb/billing-faq.md 0.25
	// <nil>
}
