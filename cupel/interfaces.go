package cupel

import "context"

// Scorer computes an item's relevance score (spec chapter 13 (Scorers)).
//
// item is the item being scored and all is the complete list of scoreable
// items, item included; relative scorers compare item with its peers. A
// scorer must be a pure function of its arguments: the pipeline may call it
// from several goroutines at once and must get the same result for the same
// input. Implementations must not modify all, nor keep it after Score
// returns (the pipeline reuses its buffers from run to run).
type Scorer interface {
	Score(item *ContextItem, all []*ContextItem) float64
}

// Slicer selects the items that fit a budget (spec chapter 25 (Slicers)).
//
// sorted is in score-descending order (as the Sort stage produces it) and
// budget is the effective budget, with only maxTokens and targetTokens set.
// The result must be a subset of the input items (the same pointers), in a
// deterministic order. Implementations must not modify sorted, nor keep it
// after Slice returns (the pipeline reuses its buffers). A slicer
// returns an error only for conditions its configuration makes fatal (a
// knapsack table over its limit, a count requirement under slicer.ScarcityThrow).
type Slicer interface {
	Slice(sorted []ScoredItem, budget ContextBudget) ([]*ContextItem, error)
}

// Placer orders the final selection (spec chapter 31 (Placers)).
//
// items is the merged list: pinned items with score 1.0 followed by the
// sliced items with their scores. The result must hold exactly the same items
// in a deterministic order. Implementations must not modify items, nor keep
// it after Place returns (the pipeline reuses its buffers).
type Placer interface {
	Place(items []ScoredItem) []*ContextItem
}

// The optional interfaces.
//
// Besides its required method, a component may implement any of the
// interfaces below; the package documentation ("Your own scorers, slicers
// and placers") lists them in one table with what the pipeline does with
// each and which one it takes when a component implements several. The
// pipeline looks only at these interfaces, never at a component's type: a
// custom component is called exactly as a built-in one is. Each optional
// method must give exactly what the required method gives (package
// cupeltest's TestScorer, TestSlicer and TestPlacer check ScoreAll,
// SliceDetailed, SlicePositions, SliceUnsorted, PlacePositions and
// PlaceRanked), and what it returns is
// checked: a position out of range or repeated fails the run with a
// [*ValidationError] wrapping [ErrInvalidConfig] that names the component,
// never a panic.

// BatchScorer is the batch form of a [Scorer]: it scores every item of the
// Score stage in one call, so that a relative scorer can rank the items once
// (O(N log N)) instead of comparing each item with all the others (O(N^2)).
// Of the built-in scorers (package cupel/scorer), Recency, Priority,
// Frequency, Kind, Decay, Composite and Scaled implement it; the others are
// scored per item.
//
// ScoreAll(items, out) must write into out[i], for every i, exactly what
// Score(items[i], items) returns (the same float64 bits; the per-item Score is
// the reference). len(out) >= len(items); ScoreAll writes nothing beyond
// out[len(items)-1], keeps no reference to items or out after it returns, and
// modifies neither items nor the items. A nil items[i] must get 0 and
// otherwise be ignored, as if it were not in items (the pipeline never passes
// nil, but scorer.Composite and scorer.Scaled hand their children what they
// are given). Like Score, ScoreAll must be safe for concurrent use and must
// not panic. Callers that hold any Scorer use [ScoreBatch], the Score
// stage's dispatch, which takes this path when there is one.
type BatchScorer interface {
	Scorer
	ScoreAll(items []*ContextItem, out []float64)
}

// DetailedSlicer is implemented by slicers that report more than a selection:
// the count-quota slicers report the items they dropped for a reached cap and
// the count requirements they could not meet. The pipeline calls
// SliceDetailed rather than any other method of the slicer, and explains
// those decisions in the SelectionReport (rulings 4 and 8).
//
// SliceDetailed(sorted, budget).Selected must be what Slice(sorted, budget)
// returns. The details are returned from the call rather than kept on the
// slicer, so that one slicer can serve concurrent pipeline runs.
type DetailedSlicer interface {
	Slicer
	SliceDetailed(sorted []ScoredItem, budget ContextBudget) (SliceResult, error)
}

// PositionSlicer is the positional form of a [Slicer]: it returns the
// selection as positions in sorted rather than as items, sparing the
// pipeline the map that matches items back to their scores. slicer.Greedy
// and slicer.Knapsack implement it.
//
// SlicePositions(sorted, budget) must return distinct positions, each in
// [0, len(sorted)), in any order, such that the items at those positions are
// exactly the items Slice(sorted, budget) returns (the same pointers, as many
// times each), and the same error as Slice. A slicer that is also a
// [DetailedSlicer] is called through SliceDetailed, whose details the report
// needs, and not through this. A decorator's inner slicer is called through
// Slice (or SliceDetailed, SliceContext), which gives the order the
// decorator may depend on.
type PositionSlicer interface {
	Slicer
	SlicePositions(sorted []ScoredItem, budget ContextBudget) ([]int, error)
}

// ContextSlicer is implemented by a [Slicer] that can stop early when a
// context is done. In a run that can be cancelled ([Pipeline.RunContext]
// with a context that can be done), the pipeline calls SliceContext instead
// of SliceDetailed or Slice. A [PositionSlicer] is called by the pipeline
// through SlicePositions, or through SlicePositionsContext when it is a
// [ContextPositionSlicer], and by [SliceWithContext] through SliceContext.
// A slicer called without its context form is called with the context
// checked before and after the call.
//
// SliceContext must select exactly what Slice selects (and report the
// details SliceDetailed reports) when ctx is not done. When it is, it
// returns an error wrapping ctx.Err(), such as a [*CanceledError]. A slicer
// that wraps another (a decorator) passes ctx on with [SliceWithContext].
//
// The built-in slicers (package cupel/slicer) implement it: Knapsack polls
// ctx while filling its table, CountQuota and CountConstrainedKnapsack
// between their phases and inside the inner slicer, Quota before each
// kind's inner slice and inside it, Greedy before and after its fill, and
// Stream before each item it takes.
type ContextSlicer interface {
	Slicer
	SliceContext(ctx context.Context, sorted []ScoredItem, budget ContextBudget) (SliceResult, error)
}

// ContextPositionSlicer is the context form of a [PositionSlicer]: in a run
// that can be cancelled, the pipeline calls SlicePositionsContext instead of
// SlicePositions. slicer.Knapsack implements it, polling ctx while its table
// fills.
//
// SlicePositionsContext must return what SlicePositions returns when ctx is
// not done, and an error wrapping ctx.Err(), such as a [*CanceledError], when
// it is.
type ContextPositionSlicer interface {
	PositionSlicer
	SlicePositionsContext(ctx context.Context, sorted []ScoredItem, budget ContextBudget) ([]int, error)
}

// UnsortedSlicer is implemented by a [Slicer] that can do without the Sort
// stage: in a run that records nothing (no [WithTrace], no [WithReport])
// or whose collector is a [SliceExclusionRecorder] (a report's is), the
// pipeline hands SliceUnsorted the deduplicated items in input order
// instead of sorting them first, and then sorts only the selection into the
// Sort stage's order for the Place stage. slicer.Greedy implements it: it
// orders its candidates by density anyway, so the score order only breaks
// its ties. A run traced into any other collector calls the slicer as any
// other, since that collector gets the Slice stage's exclusions in the
// Sort stage's order.
//
// SliceUnsorted(items, budget, dst) must append to dst[:0] and return, as
// append does, distinct positions in items, each in [0, len(items)) and in
// any order, of exactly the items Slice(sorted, budget) returns, where
// sorted is items in the Sort stage's order: score descending, ties in
// input order, NaN after every number and -0 equal to +0 (ruling 6). It
// keeps no reference to dst or the result (the pipeline reuses them) and
// returns the error Slice returns. The pipeline checks the context, when the
// run can be cancelled, before and after the call.
type UnsortedSlicer interface {
	Slicer
	SliceUnsorted(items []ScoredItem, budget ContextBudget, dst []int) ([]int, error)
}

// WholeSetSlicer is implemented by a [Slicer] whose decisions need the
// whole candidate set at once, such as a slicer applying quotas to it (the
// quota and count-quota slicers of package cupel/slicer). A streamed run
// ([Pipeline.RunStream]) sees its candidates one micro-batch at a time, in
// which such a slicer's decisions would mean something else: it refuses a
// slicer whose NeedsWholeSet returns true, with a [*ValidationError]
// wrapping [ErrInvalidConfig], before it pulls a candidate. A decorator
// may return what its inner slicer says.
type WholeSetSlicer interface {
	Slicer
	NeedsWholeSet() bool
}

// RankedPlacer is implemented by a [Placer] whose order depends only on
// each item's rank by score (score descending, ties in input order), as
// placer.UShaped's does: for len(out) items already in rank order,
// PlaceRanked(out) writes the placed order to out as positions, with no
// sort, and returns out. The pipeline calls it
// when the Place stage's input is in rank order: in a batch run without
// pinned items, whose selection comes in the Sort stage's order (ruling 13).
//
// PlaceRanked(out) must make out a permutation of 0, 1, ..., len(out)-1
// such that, for any items of length len(out) in rank order,
// items[out[i]].Item is Place(items)[i] for every i, and keep no reference
// to out. The pipeline passes a buffer of its own and checks the
// permutation as it checks PlacePositions'.
type RankedPlacer interface {
	Placer
	PlaceRanked(out []int) []int
}

// PositionPlacer is the positional form of a [Placer]: it returns the placed
// order as positions in its input rather than as items, sparing the pipeline
// the map that matches items back to their scores. placer.Chronological and
// placer.UShaped implement it.
//
// PlacePositions(items) must return a permutation of 0, 1, ...,
// len(items)-1: result[i] is the position in items of the item placed i-th,
// and items[result[i]].Item must be Place(items)[i] for every i. The pipeline
// checks the permutation: a result of the wrong length, or with an
// out-of-range or repeated position, fails the run with a [*ValidationError]
// wrapping [ErrInvalidConfig] that names the placer, never a panic.
type PositionPlacer interface {
	Placer
	PlacePositions(items []ScoredItem) []int
}

// SliceResult is what a [DetailedSlicer] returns.
type SliceResult struct {
	// Selected is what Slice would return.
	Selected []*ContextItem
	// CapExcluded lists the items dropped because their kind reached its
	// capCount, in the order they were dropped.
	CapExcluded []CapExclusion
	// Shortfalls lists the count requirements that could not be met under
	// slicer.ScarcityDegrade, in entry order.
	Shortfalls []CountRequirementShortfall
}

// CapExclusion records an item a count-quota slicer dropped because its kind
// had reached its capCount (ruling 4).
type CapExclusion struct {
	Item *ContextItem
	// Kind is the kind as spelled in the quota entry.
	Kind ContextKind
	// Cap is the entry's capCount.
	Cap int
	// Count is the number of items of that kind already selected.
	Count int
}

// CountRequirementShortfall records a count requirement that could not be
// met under ScarcityDegrade (spec chapter 29 (CountQuotaSlice)).
type CountRequirementShortfall struct {
	// Kind is the kind as spelled in the quota entry.
	Kind           ContextKind `json:"kind"`
	RequiredCount  int         `json:"required_count"`
	SatisfiedCount int         `json:"satisfied_count"`
}

// ShortfallRecorder is implemented by collectors that want the count
// requirements a run could not meet (ruling 8). The pipeline calls it
// after the Slice stage, only when there are shortfalls.
type ShortfallRecorder interface {
	RecordShortfalls(s []CountRequirementShortfall)
}

// SliceExclusionRecorder is an optional interface of a [TraceCollector]
// for collectors that take the Slice stage's exclusions in one call rather
// than one RecordItemEvent each, and may work out each exclusion's reason
// only when they need it. [DiagnosticTraceCollector] implements it.
//
// When the slicer reported no count-quota cap exclusions, the pipeline
// calls RecordSliceExclusions once per Slice stage (once per micro-batch in
// a stream run) in place of one RecordItemEvent for each s of the
// candidates the slicer left out, in Sort-stage order, with the event whose
// Stage is StageSlice, ItemCount 1, Item s.Item, Score s.Score and
// Exclusion reason(s.Item).
// excluded holds them either in that order or in the order the Deduplicate
// stage left them, which the Sort stage orders by score descending (ties in
// that order, NaN last, as in every score ordering: ruling 6); the
// collector puts them in Sort-stage order when it needs the order. This
// lets a run traced into it take the [UnsortedSlicer] path (slicer.Greedy:
// select without sorting every candidate). The
// collector may keep excluded and reorder it; the pipeline does not use it
// again. reason is BudgetExceeded or PinnedOverride as rulings 2 and 3
// decide them for the run; it depends only on the item, and may be called
// at any time, any number of times.
type SliceExclusionRecorder interface {
	RecordSliceExclusions(excluded []ScoredItem, reason func(*ContextItem) ExclusionReason)
}
