// Package cupel selects the context an LLM call sees: it chooses, under a
// token budget, which candidate items (messages, documents, tool outputs,
// memories, system prompts) go into the context window and in what order,
// and explains every inclusion and exclusion.
//
// It implements the Cupel specification 1.3 (the spec book of the
// github.com/wollax/cupel repository) exactly, with the project's rulings
// where the spec is silent or contradicts itself (docs/rulings.md in the
// repository; doc comments cite them as "ruling N"). The pipeline runs six
// fixed stages:
//
//  1. Classify: items with negative tokens are excluded; pinned items bypass
//     scoring and slicing; pinned tokens must fit maxTokens - outputReserve.
//  2. Score: a [Scorer] gives every scoreable item a relevance score.
//  3. Deduplicate: byte-identical content keeps its highest-scored copy.
//  4. Sort: score descending, stable (NaN last).
//  5. Slice: a [Slicer] selects what fits the effective budget.
//  6. Place: pinned items (score 1.0) and the selection are merged, overflow is
//     handled by the [OverflowStrategy], and a [Placer] orders the result.
//
// Build items with [NewItem], a budget with [NewBudget] and a pipeline with
// [NewPipeline], then run it.
//
// # Which entry point to use
//
// Four methods run a pipeline, in the manner of database/sql's Query and
// QueryContext: one per source of items (a slice, or an iter.Seq read in
// micro-batches), each with and without a context. All take the same
// options ([RunOption]) and return the same [Result] for the same input:
//
//	                 a slice of items       an iter.Seq of items
//	no context       [Pipeline.Run]         [Pipeline.RunStream]
//	context          [Pipeline.RunContext]  [Pipeline.RunStreamContext]
//
// The options say what a run records:
//
//   - none: the run selects and records nothing. Use it in production when
//     only the selection matters: it builds no diagnostics at all.
//   - [WithReport] writes the [SelectionReport] into a variable of yours:
//     why each item was included or excluded, with every stage event and
//     every item event in Report.Events. Use it when a person or a test
//     reads the report (the spec's DryRun).
//   - [WithTrace] hands the events to a [TraceCollector] of your own (an
//     OpenTelemetry bridge, a logger), or to a [DiagnosticTraceCollector] at
//     a detail level of your choice: for a report whose event list keeps
//     only the five stage events, pass NewDiagnosticTraceCollector(
//     DetailStage, nil) and call its Report (the included and excluded
//     lists are complete at either level). Given several times, every
//     collector gets every event.
//   - [WithOnOverflow] calls you back when the selection exceeds the target
//     under OverflowProceed.
//   - [WithBatchSize], [WithFillTolerance] and [WithMaxCandidates] shape a
//     stream's micro-batches (stream runs only).
//
// For example:
//
//	var report cupel.SelectionReport
//	result, err := pipeline.Run(items, budget, cupel.WithReport(&report))
//
// A channel is a source of RunStream:
//
//	seq := func(yield func(*cupel.ContextItem) bool) {
//		for it := range ch {
//			if !yield(it) {
//				return
//			}
//		}
//	}
//
// The analyses around a pipeline live in package cupel/analysis, built on
// Run with a report: the spec's DryRunWithPolicy and PolicySensitivity
// (spec chapter 41 (Policy Sensitivity)) are analysis.DryRun and
// analysis.PolicySensitivity, and the budget simulation's GetMarginalItems
// and FindMinBudgetFor (spec chapter 40 (Budget Simulation)) are
// analysis.MarginalItems and analysis.MinBudgetFor.
//
// A built pipeline is reusable and safe for concurrent use, so build it once.
// With context.Background the context forms cost the same as the others.
//
// # The built-in components
//
// This package defines what a component is ([Scorer], [Slicer], [Placer]
// and the optional interfaces below); the spec's built-in components live in
// three packages beside it, one for each kind, named without the suffix the
// package already says:
//
//	package        holds                                             chapters
//	-------------  ------------------------------------------------  --------
//	cupel/scorer   Recency, Priority, Kind, Tag, Frequency,          13-24
//	               Reflexive, MetadataKey, MetadataTrust, Decay,
//	               Composite, Scaled
//	cupel/slicer   Greedy, Knapsack, Quota, CountQuota,              25-30
//	               CountConstrainedKnapsack, Stream, and their
//	               configuration (quota sets, count-quota entries)
//	cupel/placer   Chronological, UShaped                            31-33
//
// So the spec's RecencyScorer is scorer.Recency, GreedySlice is
// slicer.Greedy and UShapedPlacer is placer.UShaped; each package's
// documentation has the full table. They reach the pipeline through the
// optional interfaces below, as a custom component does.
//
// # Identity, immutability and concurrency
//
// Items are immutable and identified by pointer: two items with equal
// content are different items (deduplication alone compares content).
// Nothing the caller passes in is modified. A built pipeline and the built-in
// scorers, slicers and placers are safe for concurrent use.
//
// # Your own scorers, slicers and placers
//
// A custom [Scorer], [Slicer] or [Placer] plugs into [Policy] like a
// built-in one and is called exactly as a built-in one is: which of its
// methods the pipeline calls depends only on the optional interfaces it
// implements (declared together in interfaces.go), never on its type. One
// function per stage picks the method: [ScoreBatch] for the Score stage, one
// for the Slice stage, one for the Place stage.
//
//	stage  rank  interface               the pipeline calls, and what for
//	-----  ----  ----------------------  -------------------------------------
//	Score  1     BatchScorer             ScoreAll: every item in one call
//	       2     Scorer                  Score, once per item
//	Slice  1     DetailedSlicer          SliceDetailed (*): the report explains
//	                                     its cap exclusions and shortfalls
//	       2     UnsortedSlicer          SliceUnsorted, in a run that records
//	                                     nothing or into SliceExclusionRecorders
//	                                     only: no Sort stage, only the
//	                                     selection gets sorted
//	       3     PositionSlicer          SlicePositions (**): positions, no map
//	                                     from items back to their scores
//	       4     Slicer                  Slice (*)
//	       (*)   ContextSlicer           SliceContext, instead of a method
//	                                     marked (*), in a run that can be
//	                                     cancelled
//	       (**)  ContextPositionSlicer   SlicePositionsContext, instead of
//	                                     SlicePositions, in a run that can be
//	                                     cancelled
//	       -     WholeSetSlicer          NeedsWholeSet, in RunStream: true
//	                                     (a quota slicer) refuses the run
//	Place  1     RankedPlacer            PlaceRanked, when the input is in
//	                                     rank order (a batch run without
//	                                     pinned items): no sort
//	       2     PositionPlacer          PlacePositions: positions, no map
//	                                     from items back to their scores
//	       3     Placer                  Place
//	Trace  -     ShortfallRecorder       RecordShortfalls: the count
//	                                     requirements not met (ruling 8)
//	       -     SliceExclusionRecorder  RecordSliceExclusions: the Slice
//	                                     stage's exclusions in one call, which
//	                                     lets the run take row Slice 2
//
// Precedence: the first row of its stage that a component implements, and
// that applies to the run, wins. In a run that can be cancelled, the method
// of that row is replaced by its context form (rows (*) and (**)) when the
// component has it, and is otherwise called with the context checked before
// and after the call. A decorator calling its inner slicer through
// [SliceWithContext] takes rows 1 and 4 only (with their context form),
// since it needs the items in the inner slicer's order.
//
// What an optional method returns is checked: positions out of range or
// repeated, a placer result that is not a permutation, or an item that was
// not in the input fail the run with a [*ValidationError] wrapping
// [ErrInvalidConfig] that names the component, never a panic. Package
// cupeltest's TestScorer, TestSlicer and TestPlacer prove a component
// against the contract, its ScoreAll, SliceDetailed, SlicePositions,
// SliceUnsorted, PlacePositions and PlaceRanked included (not the context
// forms, SliceContext and SlicePositionsContext).
//
// # Cancellation, streaming and logs
//
// [Pipeline.RunContext] and [Pipeline.RunStreamContext] run under a
// context: a done context stops the run between stages and inside the long
// loops (the knapsack table, the count-quota phases, the large sorts) with
// a [CanceledError] wrapping ctx.Err(). Slicers learn of the context
// through the optional [ContextSlicer] interface, which the built-in
// slicers implement. [Pipeline.RunStream] and [Pipeline.RunStreamContext]
// take candidates from an iter.Seq in micro-batches and stop pulling once the
// budget is full; slicer.Stream (package cupel/slicer) is the same online
// selection as a slicer (spec chapter 25 (Slicers) makes StreamSlice
// optional). RunStream documents where a streamed result differs from a
// batch run. [Result.All] and the report's [SelectionReport.IncludedItems]
// and [SelectionReport.ExcludedBy] are iterators, and [NewSlogObserver]
// writes a run's trace events to a log/slog logger.
//
// # Errors
//
// Every error wraps one of the sentinels (ErrInvalidItem, ErrInvalidBudget,
// ErrInvalidConfig, ErrInvalidArgument, ErrPinnedExceedsBudget, ErrOverflow,
// ErrCountRequirementUnmet, ErrTableTooLarge, ErrTokenOverflow,
// ErrNonMonotonicSlicer) for errors.Is, and most carry a typed value
// ([ValidationError], [PinnedExceedsBudgetError], [OverflowError],
// [NonMonotonicSlicerError], slicer.TableTooLargeError, ...) for
// errors.As. The package never panics on caller input, except in the Must helpers meant for
// literals in tests.
//
// # Rulings
//
// Where the specification's chapters contradict each other or are silent,
// the package follows the project's rulings, numbered as in docs/rulings.md;
// the doc comment of each affected function cites the ruling. In short:
// pinned items are reported with score 1.0 (1); PinnedOverride is reported
// when an item would have fitted without the pinned items (2);
// BudgetExceeded.available_tokens is what the selection left (3); count-quota
// cap drops are CountCapExceeded (4); totals count every input item (5);
// exclusions are ordered by score, ties in insertion order Classify,
// Deduplicate, Slice, Truncate, with -0 equal to +0 and NaN last, as in every
// score ordering (6); included items are in placed order (7); shortfalls are
// on the report (8); unknown variants decode (9); the effective budget is the
// spec formula with floors (10); the pinned check ignores reserved slots
// (11); maxTokens 0 is valid (12); the Place stage receives pinned items then
// the sliced items in Sort-stage order, in every run (13); identity is by
// pointer (14); case folding is ASCII only (15); results never depend on map
// order (16); count-quota entries need 0 <= requireCount <= capCount,
// capCount 0 only with requireCount 0 (17); count-quota Phase 1 walks entries
// in declaration order and a required kind without candidates is a shortfall
// of 0 (18); the knapsack refuses tables over 50,000,000 cells with
// ErrTableTooLarge (19); MetadataTrustScorer (scorer.MetadataTrust) reads float64 values and strict
// decimal strings, non-finite values giving the default (20);
// FindMinBudgetFor (analysis.MinBudgetFor) checks the lower bound too and
// refuses quota slicers (21); GetMarginalItems (analysis.MarginalItems) keeps
// reserve, slots and margin in the reduced budget (22); JSON uses the spec's snake_case report names and the data model's
// camelCase item and budget names (23); OpenTelemetry names are the spec's,
// in the nested module cupelotel (24). Ruling 25 concerns the testing
// vocabulary (packages cupeltest and matchers).
package cupel
