package slicer

import (
	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/internal/keysort"
)

// SliceUnsorted implements [cupel.UnsortedSlicer]: it returns the positions in
// items of exactly the items Slice returns for items in the Sort stage's
// order (score descending, ties in input order), without that order. It is
// the pipeline's fast path for Greedy: an untraced run skips the Sort
// stage and sorts only the selection.
//
// Greedy orders its input by (density descending, Sort-stage
// position), and the Sort-stage position of an item is its rank by (score
// descending, input position): the composite order (density, score, input
// position), which greedyFill (with tie keys) follows directly. At 1,000
// items under a budget of a tenth of their tokens this sorts about a third of
// the items once instead of all of them twice.
//
//   - (a) It must equal [Greedy.Slice] on the Sort stage's list.
//   - (b) It forks where every candidate (the items of tokens >= 0) fits the
//     target together (greedyAllFit): it takes them all with no density
//     order; otherwise it runs the fill.
//   - (c) greedy_unsorted_test.go: "GreedySlice.SliceUnsorted" compares it
//     with Slice on the sorted list on random inputs on both sides of the
//     fork, and "a plain run with GreedySlice" compares whole untraced runs
//     with runs that take the Sort stage and Slice.
//
// BenchmarkUnsortedSlice (pipeline A and C, "fast" with it, "spec" without
// it) shows what it saves.
func (*Greedy) SliceUnsorted(items []cupel.ScoredItem, budget cupel.ContextBudget, dst []int) ([]int, error) {
	out := dst[:0]
	target := budget.TargetTokens()
	if target <= 0 || len(items) == 0 {
		return out, nil
	}
	if greedyAllFit(items, target) {
		for pos, si := range items {
			if si.Item != nil && si.Item.Tokens() >= 0 {
				out = append(out, pos)
			}
		}
		return out, nil
	}
	f := newGreedyFill(len(items), target, true)
	defer f.release()
	for pos, si := range items {
		if si.Item != nil {
			f.tie[pos] = keysort.DescKey(si.Score)
			f.add(pos, si.Score, si.Item.Tokens())
		}
	}
	for _, t := range f.run() {
		out = append(out, t.Idx)
	}
	return out, nil
}

// greedyAllFit reports whether the candidates of Greedy (the items of
// non-negative tokens) total at most target tokens, so that it takes every
// one of them. It stops at the first item past target.
func greedyAllFit(items []cupel.ScoredItem, target int) bool {
	sum := 0
	for _, si := range items {
		if si.Item == nil {
			continue
		}
		if t := si.Item.Tokens(); t >= 0 {
			if t > target-sum {
				return false
			}
			sum += t
		}
	}
	return true
}
