package cupel

// The Slice stage's exclusions, handed to a SliceExclusionRecorder in one
// call (trace.go), and their trace in a run that took the UnsortedSlicer
// path (run.sliceUnsorted, pipeline.go).
//
// A traced run needs the Sort stage's list only to put the Slice stage's
// exclusions in Sort-stage order. A collector that is a
// SliceExclusionRecorder orders them itself, when asked for its events, so
// a run traced into one takes the UnsortedSlicer path too, and the pipeline hands
// over the survivors the fill left out in the order the Deduplicate stage
// left them. Its events and report are exactly those of the two stages
// (trace_slice_test.go compares them with item-by-item recording on the
// unfused path, on random inputs). It pays: configuration D (BenchmarkTraceCost's
// "item") took 1.4-1.5x less CPU time per run with it at 10k and 100k items.

// fusedTraceable reports whether the run's collector, if any, can take the
// fused path's Slice-stage exclusions.
func (r *run) fusedTraceable() bool {
	if r.trace == nil {
		return true
	}
	_, ok := r.trace.(SliceExclusionRecorder)
	return ok
}

// traceUnsortedSlice records the Slice stage of a run that took the
// UnsortedSlicer path: the exclusion of every candidate the slicer left
// out, and the stage event. sliceUnsorted leaves the candidates, in the
// Deduplicate stage's order, in r.sc.sorted and the slicer's choice in
// r.sc.chosen.
func (r *run) traceUnsortedSlice(sliced []ScoredItem, pinned []*ContextItem, pinnedTokens int) {
	if r.trace == nil {
		return
	}
	candidates, chosen := r.sc.sorted, r.sc.chosen
	if len(sliced) < len(candidates) {
		r.explainSliceExclusions(candidates, chosen, nil, pinned, pinnedTokens, r.budget.Effective(pinnedTokens), sliced)
	}
	r.endStage(StageSlice, len(candidates))
}

// unfitReason returns the reason a Slice-stage candidate the slicer left
// out, and no count-quota cap dropped, was excluded: PinnedOverride when
// pinned items exist and its tokens exceed target but not unpinnedTarget,
// the target had the pinned items' tokens not been counted (ruling 2); else
// BudgetExceeded with available tokens (ruling 3).
func unfitReason(pinned []*ContextItem, target, unpinnedTarget, available int) func(*ContextItem) ExclusionReason {
	var override ExclusionReason
	if len(pinned) > 0 {
		override = PinnedOverride(pinned[0].content)
	}
	return func(it *ContextItem) ExclusionReason {
		if len(pinned) > 0 && it.tokens > target && it.tokens <= unpinnedTarget {
			return override
		}
		return BudgetExceeded(it.tokens, available)
	}
}

// excludeUnchosenAtOnce hands the sorted items whose chosen flag is false
// to the run's collector in one call, with their reason, when it is a
// [SliceExclusionRecorder], and reports whether it was.
func (r *run) excludeUnchosenAtOnce(sorted []ScoredItem, chosen []bool, reason func(*ContextItem) ExclusionReason) bool {
	rec, ok := r.trace.(SliceExclusionRecorder)
	if !ok {
		return false
	}
	n := 0
	for _, c := range chosen {
		if !c {
			n++
		}
	}
	excluded := make([]ScoredItem, n)
	j := 0
	for k := range sorted {
		if !chosen[k] {
			excluded[j] = sorted[k]
			j++
		}
	}
	rec.RecordSliceExclusions(excluded, reason)
	return true
}
