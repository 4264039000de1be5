// Package cupel selects the context an LLM call sees: it chooses, under a
// token budget, which candidate items (messages, documents, tool outputs,
// memories, system prompts) go into the context window and in what order,
// and explains every inclusion and exclusion.
//
// It implements the Cupel specification 1.3 exactly, with the project's
// CLARIFICATIONS. The pipeline runs six fixed stages:
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
// Build items with [NewItem], a budget with [NewBudget], a pipeline with
// [NewPipeline], then call [Pipeline.Run], or [Pipeline.DryRun] to get the
// [SelectionReport] as well. Pass a [TraceCollector] in [RunOptions] to
// observe a run; without one the pipeline builds no diagnostics at all.
//
// # Identity, immutability and concurrency
//
// Items are immutable and identified by pointer: two items with equal
// content are different items (deduplication alone compares content).
// Nothing the caller passes in is modified. A built pipeline and the built-in
// scorers, slicers and placers are safe for concurrent use.
//
// # Cancellation, streaming and logs
//
// [Pipeline.RunContext] and [Pipeline.DryRunContext] run under a context:
// a done context stops the run between stages and inside the long loops
// (the knapsack table, the count-quota phases, the large sorts) with a
// [CanceledError] wrapping ctx.Err(). Slicers learn of the context through
// the optional [ContextSlicer] interface, which the built-in slicers
// implement. [Pipeline.RunStream] and [Pipeline.RunChan] take candidates
// from an iter.Seq or a channel in micro-batches and stop pulling once the
// budget is full; [StreamSlice] is the same online selection as a slicer
// (spec chapter "Slicers" makes StreamSlice optional). RunStream documents
// where a streamed result differs from a batch run. [Result.All] and the
// report's [SelectionReport.IncludedItems] and [SelectionReport.ExcludedBy]
// are iterators, and [NewSlogObserver] writes a run's trace events to a
// log/slog logger.
//
// # Errors
//
// Every error wraps one of the sentinels (ErrInvalidItem, ErrInvalidBudget,
// ErrInvalidConfig, ErrPinnedExceedsBudget, ErrOverflow,
// ErrCountRequirementUnmet, ErrTableTooLarge, ErrTokenOverflow) for
// errors.Is, and most carry a typed value ([ValidationError],
// [PinnedExceedsBudgetError], [OverflowError], ...) for errors.As. The
// package never panics on caller input, except in the Must helpers meant for
// literals in tests.
//
// # Clarifications
//
// Where the specification's chapters contradict each other or are silent,
// the package follows the project's CLARIFICATIONS.md; the doc comment of
// each affected function cites the item. In short: pinned items are reported
// with score 1.0 (1); PinnedOverride is reported when an item would have fitted
// without the pinned items (2); BudgetExceeded.available_tokens is what the
// selection left (3); count-quota cap drops are CountCapExceeded (4); totals
// count every input item (5); exclusions are ordered by score with insertion
// order Classify, Deduplicate, Slice, Truncate and NaN last (6); included
// items are in placed order (7); shortfalls are on the report (8); unknown
// variants decode (9); the effective budget is the spec formula with floors
// (10); the pinned check ignores reserved slots (11); maxTokens 0 is valid
// (12); truncation walks pinned items then the Sort-stage order (13);
// identity is by pointer (14); case folding is ASCII only (15); results never
// depend on map order (16); count-quota entries need 0 <= requireCount <=
// capCount, capCount 0 only with requireCount 0 (17); count-quota Phase 1
// walks entries in declaration order and a required kind without candidates
// is a shortfall of 0 (18); the knapsack refuses tables over 50,000,000 cells
// with ErrTableTooLarge (19); MetadataTrustScorer reads float64 values and
// strict decimal strings, non-finite values giving the default (20);
// FindMinBudgetFor checks the lower bound too and refuses quota slicers (21);
// GetMarginalItems keeps reserve, slots and margin in the reduced budget (22);
// JSON uses the spec's snake_case report names and the data model's camelCase
// item and budget names (23); OpenTelemetry names are the spec's, in the
// nested module cupelotel (24).
package cupel
