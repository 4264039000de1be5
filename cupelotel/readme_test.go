package cupelotel_test

import (
	"context"

	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupelotel"
)

// The Go of README.md and of the repository's README: the blocks there are
// copies of these functions, checked by go test ./internal/doccheck in the
// main module, and compiled here.
var _ = []any{traced, startUp, withProvider, ownCollector}

func traced(ctx context.Context, pipeline *cupel.Pipeline, items []*cupel.ContextItem, budget cupel.ContextBudget) (cupel.Result, error) {
	tracer := cupelotel.NewTracer(cupelotel.WithVerbosity(cupelotel.StageAndExclusions)) // global provider by default
	res, err := tracer.Run(ctx, pipeline, items, budget)
	return res, err
}

func startUp(ctx context.Context, exporter sdktrace.SpanExporter, pipeline *cupel.Pipeline, items []*cupel.ContextItem, budget cupel.ContextBudget) (cupel.Result, error) {
	// At start-up: the application's usual provider and exporter
	// (otlptracegrpc.New(ctx), say).
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exporter))
	defer func() { _ = tp.Shutdown(ctx) }() // flushes the last traces
	otel.SetTracerProvider(tp)

	// Once: the bridge. It is safe for concurrent use.
	tracer := cupelotel.NewTracer(cupelotel.WithVerbosity(cupelotel.StageOnly))

	// Per request: a traced run. ctx carries the request's span, so the
	// cupel.pipeline span becomes its child.
	return tracer.Run(ctx, pipeline, items, budget)
}

func withProvider(tp *sdktrace.TracerProvider) *cupelotel.Tracer {
	return cupelotel.NewTracer(
		cupelotel.WithTracerProvider(tp),
		cupelotel.WithVerbosity(cupelotel.StageAndExclusions),
	)
}

func ownCollector(ctx context.Context, tracer *cupelotel.Tracer, pipeline *cupel.Pipeline, items []*cupel.ContextItem, budget cupel.ContextBudget) (cupel.Result, error) {
	ctx, c := tracer.Start(ctx, budget)
	res, err := pipeline.Run(items, budget, cupel.WithTrace(c))
	c.End(err) // builds the five stage spans and ends cupel.pipeline
	_ = ctx    // carries the cupel.pipeline span
	return res, err
}
