package cupel

import (
	"context"
	"iter"
	"time"

	"github.com/cupel-go/go-cupel/cupel/internal/keysort"
	"github.com/cupel-go/go-cupel/cupel/internal/rules"
)

// DefaultStreamBatchSize is the micro-batch size of slicer.Stream and
// [Pipeline.RunStream] when none is given ([WithBatchSize]).
const DefaultStreamBatchSize = 64

// RunStream runs the pipeline over candidates as they arrive, in
// micro-batches ([WithBatchSize], by default [DefaultStreamBatchSize]), and
// stops pulling from candidates once the budget is full. It is the
// streaming counterpart of [Pipeline.Run], and takes the same options: each
// batch goes through Classify, Score,
// Deduplicate, Sort and Slice, the pipeline's slicer filling what is left of
// the effective budget, and the Place stage runs once over everything
// selected. Pinned items are included, deduplication applies across the
// whole stream, and a collector of [WithTrace] gets every decision, so the
// SelectionReport ([WithReport]) lists the included and excluded items of
// the stream.
//
// When all the candidates fit in one batch, the result and the report's
// included and excluded lists are those of Run on the same items.
// Otherwise a streamed run differs from a batch run in these places:
//
//   - Scoring: the scorer sees one batch as "all items", so relative
//     scorers (recency, priority and frequency ranks, ScaledScorer) rank an
//     item among its batch, not among all candidates.
//   - Deduplication: within a batch the highest score wins, as in a batch
//     run; a duplicate of content seen in an earlier batch is excluded as
//     Deduplicated against it, whatever the scores (an earlier selection is
//     never taken back).
//   - Slicing: the slicer sees one batch at a time, under the effective
//     target minus the tokens already selected; an item of a later batch
//     cannot displace an earlier selection. After a batch that leaves at
//     most [WithFillTolerance] tokens of the effective target (by default,
//     nothing), or once [WithMaxCandidates] candidates were pulled, no
//     further candidate is pulled: they are not in the result nor the
//     report (TotalCandidates counts the candidates pulled), pinned and
//     zero-token ones included. A source that never ends needs
//     a fill tolerance, a candidate limit or a context with a deadline, since a
//     greedy selection seldom fills a budget to the last token.
//   - Pinned items: each one reduces the effective budget of the batches
//     after it. Pinned tokens are checked against maxTokens - outputReserve
//     as they arrive ([*PinnedExceedsBudgetError]). A pinned item arriving
//     after the budget was spent makes the merged selection overflow, which
//     the pipeline's OverflowStrategy handles as in a batch run.
//   - Order: the merged list the placer gets is the pinned items in arrival
//     order followed by the selected items batch after batch, each batch in
//     Sort-stage order (ruling 13 within a batch).
//   - Report: excluded items are ordered by score (ruling 6); ties follow
//     insertion order, which is stage order within each batch and batch
//     order across batches. The events hold one stage event per stage, as
//     in a batch run, with the durations and item counts summed over the
//     batches; the stage events of Classify, Score, Deduplicate and Slice
//     follow all the item events of those stages.
//
// The pipeline's slicer must not need the whole candidate set at once (a
// [WholeSetSlicer], such as the quota slicers of package cupel/slicer):
// their quotas apply to the whole candidate set, and applied per batch
// they would mean something else ([*ValidationError] wrapping
// [ErrInvalidConfig]). A nil candidate is an
// error wrapping [ErrInvalidItem].
//
// A channel is a source (see the example):
//
//	seq := func(yield func(*cupel.ContextItem) bool) {
//		for it := range ch {
//			if !yield(it) {
//				return
//			}
//		}
//	}
//
// RunStream stops receiving once the budget is full; stop the sender
// (through a context or your own signal) when it must not block on a full
// channel after RunStream returns. Such a source blocks while the channel
// is silent, and a cancelled context cannot interrupt it: to stop on
// ctx.Done() too, select on it and ch in the loop.
func (p *Pipeline) RunStream(candidates iter.Seq[*ContextItem], budget ContextBudget, opts ...RunOption) (Result, error) {
	return p.runStream(nil, candidates, budget, opts)
}

// RunStreamContext is [Pipeline.RunStream] under ctx, with the same
// options: cancellation is checked before each candidate is taken and
// inside the stages, as in [Pipeline.RunContext]; a cancelled run returns a
// [*CanceledError]. It cannot interrupt an iterator that blocks. A nil ctx
// means context.Background().
func (p *Pipeline) RunStreamContext(ctx context.Context, candidates iter.Seq[*ContextItem], budget ContextBudget, opts ...RunOption) (Result, error) {
	return p.runStream(newCanceller(ctx), candidates, budget, opts)
}

// runStream is RunStream and RunStreamContext: c is nil when the run
// cannot be cancelled.
func (p *Pipeline) runStream(c *canceller, candidates iter.Seq[*ContextItem], budget ContextBudget, opts []RunOption) (Result, error) {
	cfg := newRunConfig(opts)
	if err := cfg.check(true); err != nil {
		return Result{}, err
	}
	size := cfg.batchSize
	if size == 0 {
		size = DefaultStreamBatchSize
	}
	if w, ok := p.slicer.(WholeSetSlicer); ok && w.NeedsWholeSet() {
		return Result{}, invalidConfig("Pipeline", "Slicer", typeName(p.slicer), "applies its quotas to the whole candidate set, which RunStream sees one micro-batch at a time")
	}
	s := streamRun{run: run{p: p, budget: budget, onOverflow: cfg.onOverflow, stop: c, sc: getScratchBuffers()}, tolerance: cfg.fillTolerance}
	defer putScratchBuffers(s.sc)
	report := s.setTrace(&cfg, 0)
	if err := s.stop.err(StageClassify); err != nil {
		return Result{}, err
	}
	batch := make([]*ContextItem, 0, size)
	taken := 0
	for it := range candidates {
		if err := s.stop.err(StageClassify); err != nil {
			return Result{}, err
		}
		batch = append(batch, it)
		taken++
		last := taken == cfg.maxCandidates
		if len(batch) < size && !last {
			continue
		}
		if err := s.batch(batch); err != nil {
			return Result{}, err
		}
		batch = batch[:0]
		if last || s.full() {
			break
		}
	}
	if err := s.stop.err(StageClassify); err != nil {
		return Result{}, err
	}
	if len(batch) > 0 {
		if err := s.batch(batch); err != nil {
			return Result{}, err
		}
	}
	res, err := s.finish()
	if err == nil && report != nil {
		*cfg.report = *report.Report()
	}
	return res, err
}

// streamRun is the state of one RunStream: a run plus what the batches
// accumulate.
type streamRun struct {
	run
	pulled            int // candidates taken from the source
	pos, neg          int // sums of their non-negative and negative tokens
	pinned            []*ContextItem
	pinnedTokens      int
	sliced            []ScoredItem
	selectedTokens    int // Σ tokens of sliced
	seen              map[string]struct{}
	nScoreable, nSort int
	durations         [4]time.Duration // Classify, Score, Deduplicate, Slice (+Sort)
	scores            []float64
	tolerance         int
}

// effective is the effective budget of the whole stream so far.
func (s *streamRun) effective() ContextBudget { return s.budget.Effective(s.pinnedTokens) }

// full reports whether at most the fill tolerance is left of the
// effective target.
func (s *streamRun) full() bool {
	return s.effective().targetTokens-s.selectedTokens <= s.tolerance
}

func (s *streamRun) since(stage int, t time.Time) {
	if s.trace != nil {
		s.durations[stage] += time.Since(t)
	}
}

func (s *streamRun) now() time.Time {
	if s.trace != nil {
		return time.Now()
	}
	return time.Time{}
}

// batch runs the stages up to Slice over one micro-batch.
func (s *streamRun) batch(items []*ContextItem) error {
	// Classify.
	t := s.now()
	scoreable := make([]*ContextItem, 0, len(items))
	for i, it := range items {
		if it == nil {
			return &ValidationError{Type: "Pipeline input", Field: "candidates[" + itoa(s.pulled+i) + "]", Value: nil, Reason: "must not be nil", sentinel: ErrInvalidItem}
		}
		var ok bool
		if it.tokens >= 0 {
			s.pos, ok = rules.AddTokens(s.pos, it.tokens)
		} else {
			s.neg, ok = rules.AddTokens(s.neg, it.tokens)
		}
		if !ok {
			return &TokenOverflowError{What: "the items' tokens"}
		}
	}
	s.pulled += len(items)
	for _, it := range items {
		switch {
		case it.tokens < 0:
			if s.trace != nil {
				s.exclude(codeClassify, it, 0, NegativeTokens(it.tokens))
			}
		case it.pinned:
			s.pinned = append(s.pinned, it)
			s.pinnedTokens += it.tokens
		default:
			scoreable = append(scoreable, it)
		}
	}
	if available := satSub(s.budget.maxTokens, s.budget.outputReserve); s.pinnedTokens > available {
		return &PinnedExceedsBudgetError{PinnedTokens: s.pinnedTokens, Available: available}
	}
	s.since(0, t)

	// Score: the batch is the scorer's "all items".
	if err := s.checkpoint(StageScore); err != nil {
		return err
	}
	t = s.now()
	if len(scoreable) > 0 {
		s.scores = ScoreBatch(s.p.scorer, scoreable, s.scores)
	}
	scores := s.scores[:len(scoreable)]
	s.nScoreable += len(scoreable)
	s.since(1, t)

	// Deduplicate: within the batch, then against earlier batches.
	if err := s.checkpoint(StageDeduplicate); err != nil {
		return err
	}
	t = s.now()
	survivors, err := s.deduplicate(scoreable, scores)
	if err != nil {
		return err
	}
	if s.p.dedup {
		if s.seen == nil {
			s.seen = make(map[string]struct{})
		}
		kept := survivors[:0]
		for _, i := range survivors {
			it := scoreable[i]
			if _, dup := s.seen[it.content]; dup {
				if s.trace != nil {
					s.exclude(codeDeduplicate, it, scores[i], Deduplicated(it.content))
				}
				continue
			}
			s.seen[it.content] = struct{}{}
			kept = append(kept, i)
		}
		survivors = kept
	}
	s.since(2, t)

	// Sort and Slice under what is left of the effective budget.
	if err := s.checkpoint(stageSort); err != nil {
		return err
	}
	t = s.now()
	sorted, err := sortByScore(keysort.Resize(&s.sc.sorted, len(survivors)), scoreable, scores, survivors, s.stop)
	if err != nil {
		return err
	}
	if err := s.checkpoint(StageSlice); err != nil {
		return err
	}
	s.nSort += len(sorted)
	eff := s.effective()
	b := sliceBudget(eff.maxTokens-s.selectedTokens, eff.targetTokens-s.selectedTokens)
	chosen, capped, err := s.sliceBatch(sorted, b)
	if err != nil {
		return err
	}
	batchTokens := 0
	for k, si := range sorted {
		if chosen[k] {
			s.sliced = append(s.sliced, si)
			batchTokens += si.Item.tokens
		}
	}
	if s.trace != nil {
		s.explainBatch(sorted, chosen, capped, b, batchTokens)
	}
	s.selectedTokens += batchTokens
	s.since(3, t)
	return nil
}

// sliceBatch runs the pipeline's slicer on one sorted batch and marks the
// positions it selected, as the batch pipeline's Slice stage does
// ([sliceSorted]).
func (s *streamRun) sliceBatch(sorted []ScoredItem, b ContextBudget) ([]bool, []CapExclusion, error) {
	chosen, _, res, err := sliceSorted(s.stop, s.p.slicer, sorted, b, keysort.Resize(&s.sc.chosen, len(sorted)))
	if err != nil {
		return nil, nil, err
	}
	return chosen, res.CapExcluded, nil
}

// explainBatch records why each item of the batch the slicer left out was
// excluded, as the batch pipeline does (rulings 2, 3 and 4) with the
// batch's budget b: BudgetExceeded's available_tokens is what the stream
// has left after this batch; PinnedOverride applies when the item would
// have fitted what was left had the pinned items' tokens not been counted.
func (s *streamRun) explainBatch(sorted []ScoredItem, chosen []bool, capped []CapExclusion, b ContextBudget, batchTokens int) {
	unpinnedTarget := b.targetTokens
	if len(s.pinned) > 0 && s.pinnedTokens > 0 {
		unpinnedTarget = s.budget.Effective(0).targetTokens - s.selectedTokens
	}
	s.excludeUnchosen(sorted, chosen, capped, s.pinned, b.targetTokens, unpinnedTarget, max(0, b.targetTokens-batchTokens))
}

// finish records the stage events of the first five stages and runs the
// Place stage over everything selected.
func (s *streamRun) finish() (Result, error) {
	if s.trace != nil {
		counts := [4]int{s.pulled, s.nScoreable, s.nScoreable, s.nSort}
		for i, stage := range [4]PipelineStage{StageClassify, StageScore, StageDeduplicate, StageSlice} {
			s.trace.RecordStageEvent(TraceEvent{Stage: stage, DurationMs: float64(s.durations[i].Nanoseconds()) / 1e6, ItemCount: counts[i]})
		}
	}
	if err := s.checkpoint(StagePlace); err != nil {
		return Result{}, err
	}
	s.beginStage()
	res, err := s.place(s.pinned, s.sliced, false)
	if err != nil {
		return Result{}, err
	}
	s.endStage(StagePlace, len(s.pinned)+len(s.sliced))
	return res, nil
}
