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
// checkpoint. Loops poll it every few thousand units of work (see rules.PollEvery).
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

// poller returns a function that checks c for stage (the form the sorts
// of internal/keysort poll), or nil when c is nil.
func (c *canceller) poller(stage PipelineStage) func() error {
	if c == nil {
		return nil
	}
	return func() error { return c.err(stage) }
}

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
