package cupel

// The Slice stage's trace in the fused greedy run (pipeline_greedy.go).
//
// A traced run needs the Sort stage's list only to put the Slice stage's
// exclusions in Sort-stage order. A collector that is a
// SliceExclusionRecorder orders them itself, when asked for its events, so
// a run traced into one takes the fused path too, and the pipeline hands
// over the survivors the fill left out in the order the Deduplicate stage
// left them. Its events and report are exactly those of the two stages
// (trace_slice_test.go compares them with item-by-item recording).

// fusedTraceable reports whether the run's collector, if any, can take the
// fused path's Slice-stage exclusions.
func (r *run) fusedTraceable() bool {
	if r.trace == nil {
		return true
	}
	_, ok := r.trace.(SliceExclusionRecorder)
	return ok
}

// markTaken records, when the run is traced, which survivor positions the
// fused fill took (taken: keyIdx{..., survivor position}).
func (r *run) markTaken(taken []keyIdx, survivors int) {
	if r.trace == nil {
		return
	}
	chosen := resize(&r.sc.chosen, survivors)
	clear(chosen)
	for _, t := range taken {
		chosen[t.idx] = true
	}
}

// traceFusedSlice records the Slice stage of a fused run: the exclusion of
// every survivor the fill did not take (markTaken), and the stage event.
func (r *run) traceFusedSlice(items []*ContextItem, scores []float64, survivors []int, sliced []ScoredItem, pinned []*ContextItem, pinnedTokens int) {
	if r.trace == nil {
		return
	}
	if len(sliced) == 0 {
		clear(resize(&r.sc.chosen, len(survivors))) // the fill may not have run
	}
	if len(sliced) < len(survivors) {
		candidates := resize(&r.sc.sorted, len(survivors))
		for pos, i := range survivors {
			candidates[pos] = ScoredItem{Item: items[i], Score: scores[i]}
		}
		selectedTokens := 0
		for _, si := range sliced {
			selectedTokens += si.Item.tokens
		}
		r.explainSliceExclusions(candidates, r.sc.chosen[:len(survivors)], nil, pinned, pinnedTokens, r.budget.Effective(pinnedTokens), selectedTokens)
	}
	r.endStage(StageSlice, len(survivors))
}
