package cupelotel_test

import (
	"context"
	"fmt"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
	"github.com/cupel-go/go-cupel/cupelotel"
)

// A run traced at StageAndExclusions. In an application the tracer provider
// is the one the application already installs (or the global one, the
// default); the in-memory exporter here only lets the example show what
// was recorded.
func Example() {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer func() { _ = tp.Shutdown(context.Background()) }()

	tracer := cupelotel.NewTracer(
		cupelotel.WithTracerProvider(tp),
		cupelotel.WithVerbosity(cupelotel.StageAndExclusions),
	)

	pipeline, err := cupel.NewPipeline(cupel.Policy{
		Scorer: scorer.NewPriority(),
		Slicer: slicer.NewGreedy(),
		Placer: placer.NewChronological(),
	})
	if err != nil {
		panic(err)
	}
	budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 100, TargetTokens: 50})
	if err != nil {
		panic(err)
	}
	items := []*cupel.ContextItem{
		cupel.MustItem(cupel.ItemSpec{Content: "You are terse.", Tokens: 5, Kind: cupel.KindSystemPrompt, Pinned: true}),
		cupel.MustItem(cupel.ItemSpec{Content: "User: hi", Tokens: 5, Priority: cupel.Ptr(3)}),
		cupel.MustItem(cupel.ItemSpec{Content: "User: hi", Tokens: 5, Priority: cupel.Ptr(1)}),
		cupel.MustItem(cupel.ItemSpec{Content: "a long document", Tokens: 80, Kind: cupel.KindDocument, Priority: cupel.Ptr(2)}),
	}

	res, err := tracer.Run(context.Background(), pipeline, items, budget)
	if err != nil {
		panic(err)
	}
	fmt.Println("selected:", len(res.Items), "items")

	// The stage spans are exported first, the root span last.
	for _, s := range exp.GetSpans() {
		fmt.Println(s.Name)
		for _, kv := range s.Attributes {
			fmt.Printf("  %s = %s\n", kv.Key, kv.Value.String())
		}
		for _, e := range s.Events {
			fmt.Printf("  event %s:", e.Name)
			for _, kv := range e.Attributes {
				fmt.Printf(" %s", kv.Value.String())
			}
			fmt.Println()
		}
	}
	// Output:
	// selected: 2 items
	// cupel.stage.classify
	//   cupel.stage.name = classify
	//   cupel.stage.item_count_in = 4
	//   cupel.stage.item_count_out = 4
	//   cupel.exclusion.count = 0
	// cupel.stage.score
	//   cupel.stage.name = score
	//   cupel.stage.item_count_in = 3
	//   cupel.stage.item_count_out = 3
	//   cupel.exclusion.count = 0
	// cupel.stage.deduplicate
	//   cupel.stage.name = deduplicate
	//   cupel.stage.item_count_in = 3
	//   cupel.stage.item_count_out = 2
	//   cupel.exclusion.count = 1
	//   event cupel.exclusion: Deduplicated Message 5
	// cupel.stage.slice
	//   cupel.stage.name = slice
	//   cupel.stage.item_count_in = 2
	//   cupel.stage.item_count_out = 1
	//   cupel.exclusion.count = 1
	//   event cupel.exclusion: BudgetExceeded Document 80
	// cupel.stage.place
	//   cupel.stage.name = place
	//   cupel.stage.item_count_in = 2
	//   cupel.stage.item_count_out = 2
	//   cupel.exclusion.count = 0
	// cupel.pipeline
	//   cupel.budget.max_tokens = 100
	//   cupel.verbosity = StageAndExclusions
}
