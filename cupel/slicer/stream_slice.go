package slicer

import (
	"context"
	"iter"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/internal/keysort"
	"github.com/cupel-go/go-cupel/internal/enginehook"
)

// Stream is the spec's StreamSlice (chapter "Slicers", which makes it
// optional), an online slicer: it selects from scored items as they
// arrive, without the whole sorted list, and stops pulling from its source
// once the budget is full. Its result is, as every slicer's, a subset of its
// input (the items it pulled) within budget.TargetTokens().
//
// It reads the source in micro-batches of BatchSize items. Each batch is
// ordered by score descending (arrival order breaking ties, NaN last, as
// the Sort stage orders) and filled greedily by value density into what is
// left of targetTokens, exactly as [Greedy] fills a batch input. After
// each batch, when what is left of targetTokens is at most the fill
// tolerance (0 by default: nothing is left), the budget is full and it stops
// pulling: the rest of the source is not read (range-over-func sources see
// yield return false; a channel is simply no longer received from). With a
// tolerance of 0, a source that never ends and never fills the budget
// exactly is read forever: give such a source a tolerance (for instance the
// smallest item size you expect), or a context with a deadline.
//
// Where a streamed selection differs from Greedy on the same items:
// items are compared by density within their batch only, so a dense item in
// a later batch cannot displace an earlier selection; zero-token items after
// the point where the budget is full are never seen, so not selected; and
// the output is in batch order, each batch in density order. When all the
// items fit in one batch the selection is Greedy's on the items sorted
// by score.
//
// The zero value and a nil *Stream use [cupel.DefaultStreamBatchSize]. A
// Stream is immutable and safe for concurrent use.
type Stream struct {
	batch     int
	tolerance int
}

// NewStream returns a Stream reading micro-batches of batchSize
// items (> 0), or a [*cupel.ValidationError] wrapping [cupel.ErrInvalidConfig]. The one
// option that configures it is [cupel.WithFillTolerance]; any other is an error.
func NewStream(batchSize int, opts ...cupel.RunOption) (*Stream, error) {
	if batchSize <= 0 {
		return nil, enginehook.InvalidConfig("StreamSlice", "batchSize", batchSize, "must be > 0")
	}
	s := &Stream{batch: batchSize}
	for _, o := range opts {
		switch name, n := enginehook.RunOptionSetting(o); name {
		case "":
		case "WithFillTolerance":
			s.tolerance = n
		default:
			return nil, enginehook.InvalidConfig("StreamSlice", "option", name, "does not configure a StreamSlice: only WithFillTolerance does")
		}
	}
	if s.tolerance < 0 {
		return nil, enginehook.InvalidConfig("StreamSlice", "fillTolerance", s.tolerance, "must be >= 0")
	}
	return s, nil
}

// FillTolerance returns the number of tokens that may be left of the target
// when the budget counts as full.
func (s *Stream) FillTolerance() int {
	if s == nil {
		return 0
	}
	return s.tolerance
}

// BatchSize returns the micro-batch size.
func (s *Stream) BatchSize() int {
	if s == nil || s.batch <= 0 {
		return cupel.DefaultStreamBatchSize
	}
	return s.batch
}

// SliceSeq selects from items as the iterator yields them (see the type
// documentation). It stops with a [*cupel.CanceledError] wrapping ctx.Err() when
// ctx is done, checking it before each item is taken; it cannot interrupt
// an iterator that blocks. A nil ctx means context.Background().
func (s *Stream) SliceSeq(ctx context.Context, items iter.Seq[cupel.ScoredItem], budget cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	size, tolerance := s.BatchSize(), s.FillTolerance()
	remaining := budget.TargetTokens()
	selected := []*cupel.ContextItem{}
	if remaining <= 0 {
		return selected, stopped(ctx)
	}
	batch := make([]cupel.ScoredItem, 0, size)
	flush := func() {
		for _, p := range streamGreedy(batch, remaining) {
			selected = append(selected, batch[p].Item)
			remaining -= batch[p].Item.Tokens()
		}
		batch = batch[:0]
	}
	for si := range items {
		if err := stopped(ctx); err != nil {
			return nil, err
		}
		batch = append(batch, si)
		if len(batch) == size {
			flush()
			if remaining <= tolerance {
				break
			}
		}
	}
	if err := stopped(ctx); err != nil {
		return nil, err
	}
	if len(batch) > 0 {
		flush()
	}
	return selected, nil
}

// SliceChan is SliceSeq over a channel: it receives until the channel is
// closed, the budget is full or ctx is done, whichever comes first, and then
// stops receiving. Stop the sender (through ctx or your own signal) when it
// must not block on a full channel after SliceChan returns.
func (s *Stream) SliceChan(ctx context.Context, items <-chan cupel.ScoredItem, budget cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	return s.SliceSeq(ctx, chanSeq(ctx, items), budget)
}

// Slice implements [cupel.Slicer]: sorted is read as a stream, in its order.
func (s *Stream) Slice(sorted []cupel.ScoredItem, budget cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	return s.SliceSeq(context.Background(), sliceSeq(sorted), budget)
}

// SliceContext implements [cupel.ContextSlicer].
func (s *Stream) SliceContext(ctx context.Context, sorted []cupel.ScoredItem, budget cupel.ContextBudget) (cupel.SliceResult, error) {
	sel, err := s.SliceSeq(ctx, sliceSeq(sorted), budget)
	return cupel.SliceResult{Selected: sel}, err
}

func sliceSeq[T any](s []T) iter.Seq[T] {
	return func(yield func(T) bool) {
		for _, v := range s {
			if !yield(v) {
				return
			}
		}
	}
}

// chanSeq yields what ch delivers until it is closed or ctx is done.
func chanSeq[T any](ctx context.Context, ch <-chan T) iter.Seq[T] {
	return func(yield func(T) bool) {
		var done <-chan struct{}
		if ctx != nil {
			done = ctx.Done()
		}
		for {
			select {
			case <-done:
				return
			case v, ok := <-ch:
				if !ok || !yield(v) {
					return
				}
			}
		}
	}
}

// streamGreedy returns the positions in batch that Greedy selects
// from the batch sorted by score (arrival order breaking ties) under
// target.
func streamGreedy(batch []cupel.ScoredItem, target int) []int {
	kp := keysort.GetScratch(len(batch))
	defer keysort.PutScratch(kp)
	keys := (*kp)[:len(batch)]
	for i, si := range batch {
		keys[i] = keysort.KeyIdx{Key: keysort.DescKey(si.Score), Idx: i}
	}
	keysort.Sort(keys)
	sorted := make([]cupel.ScoredItem, len(batch))
	for k, ki := range keys {
		sorted[k] = batch[ki.Idx]
	}
	pos, _ := (*Greedy)(nil).SlicePositions(sorted, budgetOf(target, target))
	for i, p := range pos {
		pos[i] = keys[p].Idx
	}
	return pos
}
