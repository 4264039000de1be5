package cupelotel

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// ScopeName is the instrumentation scope (tracer) name of the bridge: its
// import path, following Go convention (ruling 24). Span, attribute
// and event names are the specification's cupel.* names.
const ScopeName = "github.com/cupel-go/go-cupel/cupelotel"

// Verbosity is how much of a run the bridge records (spec chapter
// 39 (OpenTelemetry Integration), CupelVerbosity). The zero value is StageOnly.
type Verbosity int

// The verbosity tiers, in increasing order: each records everything the
// previous one does.
const (
	// StageOnly records the root span and the five stage spans with their
	// item counts, and no per-item event. Production-safe.
	StageOnly Verbosity = iota
	// StageAndExclusions adds one cupel.exclusion event per excluded item on
	// the span of the stage that excluded it, and cupel.exclusion.count on
	// every stage span. Meant for staging.
	StageAndExclusions
	// Full adds one cupel.item.included event per included item on the
	// cupel.stage.place span. Development only: a run over n items records up
	// to n events.
	Full
)

// String returns the tier name as recorded in cupel.verbosity: "StageOnly",
// "StageAndExclusions" or "Full".
func (v Verbosity) String() string {
	switch v {
	case StageOnly:
		return "StageOnly"
	case StageAndExclusions:
		return "StageAndExclusions"
	case Full:
		return "Full"
	}
	return fmt.Sprintf("Verbosity(%d)", int(v))
}

// Option configures a [Tracer].
type Option func(*config)

type config struct {
	provider  trace.TracerProvider
	verbosity Verbosity
}

// WithTracerProvider makes the Tracer take its tracer from tp instead of the
// global provider (otel.GetTracerProvider). A nil tp is ignored.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *config) {
		if tp != nil {
			c.provider = tp
		}
	}
}

// WithVerbosity sets the verbosity tier; the default is StageOnly.
func WithVerbosity(v Verbosity) Option {
	return func(c *config) { c.verbosity = v }
}

// Tracer turns pipeline runs into traces. Create one per application (or
// per verbosity) with [NewTracer] and use it for every run: it is immutable
// and safe for concurrent use. Each run gets its own [Collector], from
// [Tracer.Start], or is traced end to end by [Tracer.Run]. The zero Tracer
// is not usable.
type Tracer struct {
	tracer    trace.Tracer
	verbosity Verbosity
	// never is set when the provider is OpenTelemetry's no-op provider: no
	// run can record, so Start skips even the tracer call.
	never bool
	// clock replaces time.Now in tests; nil in production.
	clock func() time.Time
}

// NewTracer returns a Tracer whose tracer, named [ScopeName], comes from the
// global TracerProvider unless [WithTracerProvider] says otherwise. The
// global provider is consulted through OpenTelemetry's delegating global, so
// a Tracer made before otel.SetTracerProvider still reaches the provider set
// later.
func NewTracer(opts ...Option) *Tracer {
	cfg := config{verbosity: StageOnly}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.provider == nil {
		cfg.provider = otel.GetTracerProvider()
	}
	_, never := cfg.provider.(noop.TracerProvider)
	return &Tracer{
		tracer:    cfg.provider.Tracer(ScopeName),
		verbosity: cfg.verbosity,
		never:     never,
	}
}

// Verbosity returns the tracer's verbosity tier.
func (t *Tracer) Verbosity() Verbosity { return t.verbosity }

// disabled is the collector of every run whose root span does not record.
// It is never modified, so one value serves all such runs.
var disabled = &Collector{}

// Start starts the root span cupel.pipeline of one run, as a child of the
// span in ctx, and returns the context carrying it with the run's collector.
// Pass the collector to the run with [cupel.WithTrace], then call
// [Collector.End] with the run's error when the run returns.
//
// When the root span does not record (no SDK installed, the no-op provider,
// or a sampler that drops the trace) the collector is disabled: its Enabled
// is false, so the pipeline takes its null path, and the bridge allocates
// nothing. With the no-op provider the tracer is not even called and ctx is
// returned as is.
func (t *Tracer) Start(ctx context.Context, budget cupel.ContextBudget) (context.Context, *Collector) {
	if t.never {
		return ctx, disabled
	}
	var (
		ctx2 context.Context
		root trace.Span
		at   time.Time
	)
	if t.clock != nil {
		at = t.clock()
		ctx2, root = t.tracer.Start(ctx, spanPipeline, trace.WithTimestamp(at))
	} else {
		ctx2, root = t.tracer.Start(ctx, spanPipeline)
	}
	if !root.IsRecording() {
		return ctx2, disabled
	}
	if t.clock == nil {
		at = time.Now()
	}
	root.SetAttributes(
		attribute.Int(attrBudgetMaxTokens, budget.MaxTokens()),
		attribute.String(attrVerbosity, t.verbosity.String()),
	)
	return ctx2, &Collector{
		enabled:    true,
		tracer:     t.tracer,
		verbosity:  t.verbosity,
		clock:      t.clock,
		ctx:        ctx2,
		root:       root,
		rootStart:  at,
		inputCount: -1,
	}
}

// Run runs p over items under budget with the run traced: it starts the
// root span, runs the pipeline with the run's collector, and ends the root
// span with the run's error (a panic in the pipeline's scorer, slicer or
// placer is recorded as an error, then re-raised).
//
// opts is passed to the pipeline ([cupel.Pipeline.Run]) with the run's
// collector added; a collector of the caller's ([cupel.WithTrace], a
// [cupel.WithReport] report) still receives every event, shortfalls
// included. When the run does not record, opts reaches the pipeline
// unchanged.
func (t *Tracer) Run(ctx context.Context, p *cupel.Pipeline, items []*cupel.ContextItem, budget cupel.ContextBudget, opts ...cupel.RunOption) (cupel.Result, error) {
	_, c := t.Start(ctx, budget)
	if !c.enabled {
		return p.Run(items, budget, opts...)
	}
	c.inputCount = len(items)
	opts = append(slices.Clip(opts), cupel.WithTrace(c))
	ended := false
	defer func() {
		if ended {
			return
		}
		r := recover()
		if r == nil { // runtime.Goexit: nothing to re-raise
			c.End(errors.New("cupelotel: pipeline run did not return"))
			return
		}
		c.End(fmt.Errorf("cupelotel: pipeline run panicked: %v", r))
		panic(r)
	}()
	res, err := p.Run(items, budget, opts...)
	ended = true
	c.End(err)
	return res, err
}
