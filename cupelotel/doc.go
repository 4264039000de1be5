// Package cupelotel bridges go-cupel's pipeline diagnostics to OpenTelemetry
// tracing (spec chapter 39 (OpenTelemetry Integration)): each pipeline run
// becomes a trace.
//
// It lives in its own module so that the core module,
// github.com/cupel-go/go-cupel, depends on no OpenTelemetry package; the
// core only knows its [cupel.TraceCollector] interface, which this package's
// [Collector] implements.
//
// # Usage
//
// Make one [Tracer] for the application and trace each run with
// [Tracer.Run]:
//
//	tracer := cupelotel.NewTracer(cupelotel.WithVerbosity(cupelotel.StageOnly))
//	res, err := tracer.Run(ctx, pipeline, items, budget)
//
// or, to hold the collector yourself, with [Tracer.Start] and
// [Collector.End]:
//
//	ctx, c := tracer.Start(ctx, budget)
//	res, err := pipeline.Run(items, budget, cupel.WithTrace(c))
//	c.End(err)
//
// The tracer comes from the global TracerProvider (otel.GetTracerProvider)
// unless [WithTracerProvider] names another. Its instrumentation scope name
// is [ScopeName], the import path of this package (ruling 24).
//
// # What a run records
//
// A run is a root span cupel.pipeline (attributes cupel.budget.max_tokens
// and cupel.verbosity) with exactly five child spans, in order,
// cupel.stage.classify, cupel.stage.score, cupel.stage.deduplicate,
// cupel.stage.slice and cupel.stage.place, each with cupel.stage.name
// (lowercase), cupel.stage.item_count_in and cupel.stage.item_count_out.
// Sort has no span. No span carries a duration attribute: a span's start
// and end timestamps are its duration. Integer attributes are int64,
// cupel.item.score is float64, the rest are strings.
//
// The [Verbosity] tiers add per-item events:
//
//   - StageOnly: nothing more.
//   - StageAndExclusions: cupel.exclusion.count on every stage span (0 where
//     the stage excluded nothing), and one cupel.exclusion event per excluded
//     item on the span of the stage that excluded it, with
//     cupel.exclusion.reason (the ExclusionReason variant name, passed
//     through as is, so CountCapExceeded and variants this package does not
//     know appear under their own names), cupel.exclusion.item_kind and
//     cupel.exclusion.item_tokens. Classify excludes NegativeTokens,
//     Deduplicate Deduplicated, Slice BudgetExceeded, PinnedOverride and
//     CountCapExceeded, and Place, under OverflowTruncate, BudgetExceeded and
//     PinnedOverride.
//   - Full: also one cupel.item.included event per included item on the
//     cupel.stage.place span, in placed order, with cupel.item.kind,
//     cupel.item.tokens and cupel.item.score (1.0 for pinned items).
//
// # Item counts
//
// cupel.stage.item_count_in is the ItemCount of the stage's event: the items
// that entered the stage. cupel.stage.item_count_out is the items that left
// it, which the bridge derives as item_count_in less the items the stage
// excluded (the exclusion events recorded for that stage, counted at every
// tier). So in every tier, in − out of a stage is the number of items that
// stage excluded, its cupel.exclusion.count. In particular:
//
//   - Classify's out counts the pinned items too: they leave Classify, on
//     their way to Place, bypassing Score, Deduplicate and Slice. Only
//     negative-token items do not leave it. Score's in is therefore
//     Classify's out less the pinned items.
//   - Score excludes nothing: out = in.
//   - Slice's out is the number of items the slicer selected.
//   - Place's in is the pinned items plus the selection, and its out is the
//     number of items in the context window (less than in only when
//     OverflowTruncate dropped items).
//
// # Span timing
//
// The pipeline reports a stage after it completes, with its measured
// DurationMs. The collector notes the time each stage event arrives, which
// is the stage's end (the pipeline reports it right after measuring), and
// builds the stage spans when the run ends, with explicit timestamps:
//
//   - cupel.stage.classify starts at its end minus its DurationMs, the moment
//     the pipeline started Classify (never before the root span's start);
//   - every later stage starts where the previous stage's span ended, and
//     ends when its own stage event arrived.
//
// The five spans are thus contiguous and each covers its stage's measured
// duration completely; a stage's span also covers the short hand-off since
// the previous stage ended, that is, the pipeline's bookkeeping between
// stages and, for cupel.stage.slice, the Sort step, which has no span of its
// own (spec chapter 36 (Events)) and which prepares Slice's input. Because the
// spans are built after the run, exporting them never adds to a stage's time.
// Exclusion and inclusion events carry the time their item event arrived,
// inside their stage's span. The root span starts when [Tracer.Start] is
// called and ends when [Collector.End] is.
//
// # Errors
//
// [Collector.End] takes the run's error. A failed run (pinned items over
// budget, an overflow under OverflowThrow, a slicer error, ...) sets the root
// span's status to Error; the stage the run failed in gets a span ending at
// End with status Error and the error as an exception event, and the stages
// after it, which never ran, get no span. [Tracer.Run] does this for you,
// and records a panic of the pipeline's components the same way before
// re-raising it.
//
// # Cost when not recording
//
// When the run's root span does not record (no SDK installed, the no-op
// provider, or a sampler that drops the trace), [Collector.Enabled] returns
// false and the pipeline takes its null path, building no event. The bridge
// then allocates nothing of its own: [Tracer.Start] returns a shared disabled
// collector. With OpenTelemetry's no-op provider it does not even call the
// tracer, so a traced run costs exactly what an untraced one does; with an
// SDK whose sampler drops the trace, the only extra cost is the SDK's own
// Start of the root span (two allocations in SDK v1.46). The package's specs
// assert both and its benchmarks (go test -bench .) show them.
//
// # Stability
//
// The cupel.* names are pre-stable in the specification: they may change as
// the OpenTelemetry conventions for LLM applications settle. Use them for
// debugging, not for alerting.
package cupelotel
