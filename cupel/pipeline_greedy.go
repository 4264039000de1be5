package cupel

// Stages 4 and 5 of a plain run with the built-in GreedySlice.
//
// The Sort stage orders the survivors by (score descending, survivor
// position), and GreedySlice then orders its input by (density
// descending, Sort-stage position): the composite order (density, score,
// survivor position). When nothing observes the Sort stage's list itself
// (no trace, or a collector that orders the Slice-stage exclusions itself,
// trace_slice.go), the run fills the budget in that composite order directly and
// sorts only the selected items by score, which is what the Place stage
// receives. At 1,000 items under a budget of a tenth of their tokens this
// sorts about a third of the items once instead of all of them twice. The
// selection, its order and the scores are exactly those of the two stages.

// fusedGreedy reports whether stages 4 and 5 may take sliceGreedyFused.
func (r *run) fusedGreedy() bool {
	if !r.fusedTraceable() {
		return false
	}
	_, ok := r.p.slicer.(*GreedySlice)
	return ok
}

// sliceGreedyFused returns what the Sort and Slice stages with GreedySlice
// return for the survivors (indexes into items, ascending) under target:
// the selected items with their scores, in Sort-stage order.
func (r *run) sliceGreedyFused(items []*ContextItem, scores []float64, survivors []int, target int) []ScoredItem {
	if target <= 0 || len(survivors) == 0 {
		return resize(&r.sc.sliced, 0)
	}
	var taken []keyIdx
	if greedyAllFit(items, survivors, target) {
		// Every candidate is taken: no density order to find.
		kp := getScratch(len(survivors))
		defer putScratch(kp)
		taken = (*kp)[:0]
		for pos, i := range survivors {
			if items[i].tokens >= 0 {
				taken = append(taken, keyIdx{descKey(scores[i]), pos})
			}
		}
	} else {
		f := newGreedyFill(len(survivors), target, true)
		defer f.release()
		for pos, i := range survivors {
			f.tie[pos] = descKey(scores[i])
			f.add(pos, scores[i], items[i].tokens)
		}
		taken = f.run()
	}
	r.markTaken(taken, len(survivors))
	sortKeyIdx(taken)
	sliced := resize(&r.sc.sliced, len(taken))
	for k, t := range taken {
		i := survivors[t.idx]
		sliced[k] = ScoredItem{Item: items[i], Score: scores[i]}
	}
	return sliced
}

// greedyAllFit reports whether the candidates of GreedySlice (the survivors'
// items of non-negative tokens) total at most target tokens, so that it
// takes every one of them. It stops at the first item past target.
func greedyAllFit(items []*ContextItem, survivors []int, target int) bool {
	sum := 0
	for _, i := range survivors {
		if t := items[i].tokens; t >= 0 {
			if t > target-sum {
				return false
			}
			sum += t
		}
	}
	return true
}
