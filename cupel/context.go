package cupel

import (
	"context"
	"errors"
)

// CanceledError reports a run, slice or stream stopped because its context
// was done. It wraps the context's error, so errors.Is(err,
// context.Canceled) and errors.Is(err, context.DeadlineExceeded) work, and
// the context's cause too when one was set with context.WithCancelCause or
// context.WithDeadlineCause.
type CanceledError struct {
	// Stage is the stage the run was in when it noticed, or, between two
	// stages, the stage it was about to start; "Sort" for the Sort stage,
	// which has no PipelineStage constant (spec chapter "Events").
	Stage PipelineStage
	// Err is ctx.Err(): context.Canceled or context.DeadlineExceeded.
	Err error
	// Cause is context.Cause(ctx) when it differs from Err, else nil.
	Cause error
}

// Error returns a message naming the stage and the context's error.
func (e *CanceledError) Error() string {
	msg := "cupel: run stopped"
	if e.Stage != "" {
		msg += " at the " + string(e.Stage) + " stage"
	}
	msg += ": " + e.Err.Error()
	if e.Cause != nil {
		msg += " (cause: " + e.Cause.Error() + ")"
	}
	return msg
}

// Unwrap returns the context's error and, if set, its cause.
func (e *CanceledError) Unwrap() []error {
	if e.Cause != nil {
		return []error{e.Err, e.Cause}
	}
	return []error{e.Err}
}

// stageSort names the Sort stage in a CanceledError.
const stageSort PipelineStage = "Sort"

// canceller polls a context cheaply: a non-blocking receive on its Done
// channel, which takes no lock while the channel is open. A nil *canceller
// never stops, so the untraced, uncancellable path costs one nil check per
// checkpoint. Loops poll it every few thousand units of work (see pollEvery).
type canceller struct {
	ctx  context.Context
	done <-chan struct{}
}

// newCanceller returns nil for a context that can never be done
// (context.Background, context.TODO, a nil ctx): runs under such a context
// take exactly the path of a run without one.
func newCanceller(ctx context.Context) *canceller {
	if ctx == nil {
		return nil
	}
	done := ctx.Done()
	if done == nil {
		return nil
	}
	return &canceller{ctx: ctx, done: done}
}

// pollEvery is how many units of work (DP cells, items) the long loops do
// between two polls: a poll costs a few nanoseconds, a unit about one, so
// the checks stay well under 1% while a cancellation is noticed within
// tens of microseconds.
const pollEvery = 1 << 14

// err returns a *CanceledError when the context is done, else nil.
func (c *canceller) err(stage PipelineStage) error {
	if c == nil {
		return nil
	}
	select {
	case <-c.done:
		return canceledError(c.ctx, stage)
	default:
		return nil
	}
}

func canceledError(ctx context.Context, stage PipelineStage) error {
	e := &CanceledError{Stage: stage, Err: ctx.Err()}
	if e.Err == nil { // a context whose Done is closed but Err not yet set
		e.Err = context.Canceled
	}
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, e.Err) {
		e.Cause = cause
	}
	return e
}

// ContextSlicer is an optional interface for a [Slicer] that can stop
// early when a context is done. Under [Pipeline.RunContext] with a context
// that can be cancelled, the pipeline calls SliceContext instead of Slice
// (and instead of SliceDetailed: return the details in the SliceResult).
//
// SliceContext must select exactly what Slice selects when ctx is not done.
// When it is, it returns an error wrapping ctx.Err(), such as a
// [*CanceledError]. A slicer that wraps another (a decorator) passes ctx on
// with [SliceWithContext].
//
// The built-in slicers implement it: KnapsackSlice polls ctx while filling
// its table, CountQuotaSlice and CountConstrainedKnapsackSlice between their
// phases and inside the inner slicer, QuotaSlice before each kind's inner
// slice and inside it, GreedySlice before and after its sort and fill, and
// StreamSlice before each item it takes. A slicer without it is called
// through Slice and the context is checked before and after the call.
type ContextSlicer interface {
	Slicer
	SliceContext(ctx context.Context, sorted []ScoredItem, budget ContextBudget) (SliceResult, error)
}

// SliceWithContext runs s on sorted under budget, through SliceContext when
// s is a [ContextSlicer] and otherwise through SliceDetailed or Slice, with
// ctx checked before the call. It is the way for a decorator slicer to call
// its inner slicer so that cancellation reaches it.
func SliceWithContext(ctx context.Context, s Slicer, sorted []ScoredItem, budget ContextBudget) (SliceResult, error) {
	return sliceWith(newCanceller(ctx), s, sorted, budget)
}

// sliceWith is SliceWithContext with a canceller; a nil canceller makes it
// the plain Slice/SliceDetailed call.
func sliceWith(c *canceller, s Slicer, sorted []ScoredItem, budget ContextBudget) (SliceResult, error) {
	if err := c.err(StageSlice); err != nil {
		return SliceResult{}, err
	}
	switch s := s.(type) {
	case cancellableSlicer:
		if c != nil {
			return s.sliceStop(c, sorted, budget)
		}
	case ContextSlicer:
		if c != nil {
			return s.SliceContext(c.ctx, sorted, budget)
		}
	}
	if d, ok := s.(DetailedSlicer); ok {
		return d.SliceDetailed(sorted, budget)
	}
	sel, err := s.Slice(sorted, budget)
	return SliceResult{Selected: sel}, err
}

// sliceItems is how a decorator slicer of this package calls its inner
// slicer: Slice itself when c is nil (so results never depend on a
// custom slicer's SliceDetailed agreeing with its Slice), else sliceWith.
func sliceItems(c *canceller, s Slicer, sorted []ScoredItem, budget ContextBudget) ([]*ContextItem, error) {
	if c == nil {
		return s.Slice(sorted, budget)
	}
	res, err := sliceWith(c, s, sorted, budget)
	return res.Selected, err
}

// cancellableSlicer is the package's own path for its slicers: sliceStop
// takes the canceller itself, so nested slicers share one.
type cancellableSlicer interface {
	sliceStop(c *canceller, sorted []ScoredItem, budget ContextBudget) (SliceResult, error)
}

// positionStopper is a cancellable slicer that reports positions (the
// PositionSlicer fast path): GreedySlice and KnapsackSlice.
type positionStopper interface {
	cancellableSlicer
	positionsStop(c *canceller, sorted []ScoredItem, budget ContextBudget) ([]int, error)
}

func (g *GreedySlice) positionsStop(c *canceller, sorted []ScoredItem, budget ContextBudget) ([]int, error) {
	if err := c.err(StageSlice); err != nil {
		return nil, err
	}
	pos, err := g.SlicePositions(sorted, budget)
	if err == nil {
		err = c.err(StageSlice)
	}
	if err != nil {
		return nil, err
	}
	return pos, nil
}

func (g *GreedySlice) sliceStop(c *canceller, sorted []ScoredItem, budget ContextBudget) (SliceResult, error) {
	pos, err := g.positionsStop(c, sorted, budget)
	if err != nil {
		return SliceResult{}, err
	}
	return SliceResult{Selected: itemsAt(sorted, pos)}, nil
}

// SliceContext implements [ContextSlicer]: Slice, with ctx checked before
// and after the density sort and fill, which take O(N log N) at most.
func (g *GreedySlice) SliceContext(ctx context.Context, sorted []ScoredItem, budget ContextBudget) (SliceResult, error) {
	return g.sliceStop(newCanceller(ctx), sorted, budget)
}

func (k *KnapsackSlice) positionsStop(c *canceller, sorted []ScoredItem, budget ContextBudget) ([]int, error) {
	return k.solve(c, sorted, budget)
}

func (k *KnapsackSlice) sliceStop(c *canceller, sorted []ScoredItem, budget ContextBudget) (SliceResult, error) {
	pos, err := k.solve(c, sorted, budget)
	if err != nil {
		return SliceResult{}, err
	}
	return SliceResult{Selected: itemsAt(sorted, pos)}, nil
}

// SliceContext implements [ContextSlicer]: Slice, polling ctx while the
// table fills (every few thousand cells).
func (k *KnapsackSlice) SliceContext(ctx context.Context, sorted []ScoredItem, budget ContextBudget) (SliceResult, error) {
	return k.sliceStop(newCanceller(ctx), sorted, budget)
}

func (q *QuotaSlice) sliceStop(c *canceller, sorted []ScoredItem, budget ContextBudget) (SliceResult, error) {
	sel, err := q.slice(c, sorted, budget)
	if err != nil {
		return SliceResult{}, err
	}
	return SliceResult{Selected: sel}, nil
}

// SliceContext implements [ContextSlicer]: Slice, passing ctx to the inner
// slicer of each kind.
func (q *QuotaSlice) SliceContext(ctx context.Context, sorted []ScoredItem, budget ContextBudget) (SliceResult, error) {
	return q.sliceStop(newCanceller(ctx), sorted, budget)
}

func (c *CountQuotaSlice) sliceStop(stop *canceller, sorted []ScoredItem, budget ContextBudget) (SliceResult, error) {
	if c == nil || isNil(c.inner) {
		return SliceResult{}, invalidConfig("CountQuotaSlice", "inner", nil, "must not be nil")
	}
	p := c.policy
	p.name = "CountQuotaSlice"
	return p.run(stop, sorted, budget, func(residual []ScoredItem, b ContextBudget) ([]*ContextItem, error) {
		return sliceItems(stop, c.inner, residual, b)
	})
}

// SliceContext implements [ContextSlicer]: SliceDetailed, checking ctx
// between the phases and passing it to the inner slicer.
func (c *CountQuotaSlice) SliceContext(ctx context.Context, sorted []ScoredItem, budget ContextBudget) (SliceResult, error) {
	return c.sliceStop(newCanceller(ctx), sorted, budget)
}

// SliceContext implements [ContextSlicer]: SliceDetailed, checking ctx
// between the phases and while the knapsack table fills.
func (c *CountConstrainedKnapsackSlice) SliceContext(ctx context.Context, sorted []ScoredItem, budget ContextBudget) (SliceResult, error) {
	return c.sliceStop(newCanceller(ctx), sorted, budget)
}

// RunContext is [Pipeline.Run] under ctx, with the same options: the run
// stops with a [*CanceledError] wrapping ctx.Err() once ctx is done. It
// checks ctx before each stage and inside the stages: every few thousand
// items in Classify and Deduplicate, between the passes of the large sorts
// (Deduplicate, Sort) and while a slicer works (the knapsack table, the
// count-quota phases; see [ContextSlicer]). It does not interrupt a scorer
// or placer call: a run notices a cancellation during scoring when scoring
// ends.
//
// A stopped run returns no result. Nothing the caller passed is modified:
// neither items nor the items themselves; a collector of [WithTrace] keeps
// the events recorded before the stop, a [WithReport] destination is left
// as it was, and the [WithOnOverflow] callback is never called by a
// stopped run, since the Place stage is the last checkpoint before it.
//
// A context that can never be done (context.Background, context.TODO, a
// nil ctx) makes RunContext exactly Run, with no extra work or allocation.
func (p *Pipeline) RunContext(ctx context.Context, items []*ContextItem, budget ContextBudget, opts ...RunOption) (Result, error) {
	return p.runBatch(newCanceller(ctx), items, budget, opts)
}

// checkpoint returns a *CanceledError when the run's context is done; stage
// is the stage about to run.
func (r *run) checkpoint(stage PipelineStage) error {
	return r.stop.err(stage)
}

// slicer is the pipeline's slicer, bound to the run's canceller when the
// run can be cancelled: the binding calls the slicer through sliceWith, so
// a cancellable slicer polls the context while it works.
func (r *run) slicer() Slicer {
	if r.stop == nil {
		return r.p.slicer
	}
	if ps, ok := r.p.slicer.(positionStopper); ok {
		return boundPositions{s: ps, c: r.stop}
	}
	return boundSlicer{s: r.p.slicer, c: r.stop}
}

// boundPositions is a positional built-in slicer with the canceller of one
// run; it keeps the PositionSlicer fast path.
type boundPositions struct {
	s positionStopper
	c *canceller
}

func (b boundPositions) Slice(sorted []ScoredItem, budget ContextBudget) ([]*ContextItem, error) {
	res, err := b.s.sliceStop(b.c, sorted, budget)
	return res.Selected, err
}

func (b boundPositions) SlicePositions(sorted []ScoredItem, budget ContextBudget) ([]int, error) {
	return b.s.positionsStop(b.c, sorted, budget)
}

// boundSlicer is a slicer with the canceller of one run. It is a
// DetailedSlicer, so the pipeline keeps the details (cap exclusions,
// shortfalls) of count-quota slicers.
type boundSlicer struct {
	s Slicer
	c *canceller
}

func (b boundSlicer) Slice(sorted []ScoredItem, budget ContextBudget) ([]*ContextItem, error) {
	res, err := b.SliceDetailed(sorted, budget)
	return res.Selected, err
}

func (b boundSlicer) SliceDetailed(sorted []ScoredItem, budget ContextBudget) (SliceResult, error) {
	res, err := sliceWith(b.c, b.s, sorted, budget)
	if err == nil {
		err = b.c.err(StageSlice)
	}
	return res, err
}
