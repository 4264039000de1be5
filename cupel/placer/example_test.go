package placer_test

import (
	"fmt"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
)

func ExampleUShaped() {
	var items []cupel.ScoredItem
	for i, name := range []string{"A", "B", "C", "D", "E"} {
		items = append(items, cupel.ScoredItem{
			Item:  cupel.MustItem(cupel.ItemSpec{Content: name, Tokens: 10}),
			Score: 0.9 - 0.1*float64(i),
		})
	}
	for _, it := range placer.NewUShaped().Place(items) {
		fmt.Print(it.Content(), " ")
	}
	fmt.Println()
	// Output: A C E D B
}

func ExampleChronological() {
	at := func(h int) *time.Time { t := time.Date(2024, 5, 1, h, 0, 0, 0, time.UTC); return &t }
	items := []cupel.ScoredItem{
		{Item: cupel.MustItem(cupel.ItemSpec{Content: "undated", Tokens: 1}), Score: 1},
		{Item: cupel.MustItem(cupel.ItemSpec{Content: "reply", Tokens: 1, Timestamp: at(10)}), Score: 0.2},
		{Item: cupel.MustItem(cupel.ItemSpec{Content: "question", Tokens: 1, Timestamp: at(9)}), Score: 0.8},
	}
	for _, it := range placer.NewChronological().Place(items) {
		fmt.Println(it.Content())
	}
	// Output:
	// question
	// reply
	// undated
}
