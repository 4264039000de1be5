package cupelotel_test

import (
	"context"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupelotel"
)

// A tracer runs the pipeline in a span of its own (the package
// documentation's example; compiled, not run: pipeline, items and budget
// are the application's).
func ExampleTracer_Run() {
	ctx := context.Background()
	var pipeline *cupel.Pipeline
	var items []*cupel.ContextItem
	var budget cupel.ContextBudget
	tracer := cupelotel.NewTracer(cupelotel.WithVerbosity(cupelotel.StageOnly))
	res, err := tracer.Run(ctx, pipeline, items, budget)
	_, _ = res, err
}

// A run of the application's own, traced by a collector (the package
// documentation's example; compiled, not run).
func ExampleTracer_Start() {
	ctx := context.Background()
	var pipeline *cupel.Pipeline
	var items []*cupel.ContextItem
	var budget cupel.ContextBudget
	tracer := cupelotel.NewTracer()
	ctx, c := tracer.Start(ctx, budget)
	res, err := pipeline.Run(items, budget, cupel.WithTrace(c))
	c.End(err)
	_, _ = ctx, res
}
