package slicer

import (
	"context"
	"math"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/internal/rules"
)

// SlicePositions returns the positions in sorted of the items
// [Knapsack.Slice] selects, in its order: the pipeline's
// [cupel.PositionSlicer] fast path. It must equal Slice exactly (same items, same
// order, same error); TestKnapsackSlicePositionsEqualsSlice checks that on
// random inputs on both sides of every fork below.
func (k *Knapsack) SlicePositions(sorted []cupel.ScoredItem, budget cupel.ContextBudget) ([]int, error) {
	return k.solve(context.Background(), sorted, budget)
}

// knapCand is a DP candidate: its position in the input, weight and value.
type knapCand struct {
	idx int
	dw  int
	v   int64
}

// solve is SlicePositions, polling ctx while the table
// fills (before each block of about rules.PollEvery cells). It fills a smaller
// table than Slice, with the same result:
//
//   - The keep table has one bit per cell, not one bool.
//   - A candidate whose value is 0, or whose weight exceeds the capacity,
//     gets no row: it can never be kept, because dp is non-decreasing in w
//     and the comparison is strict.
//   - The table stops at column c = min(capacity, the sum of the remaining
//     candidates' weights): every column beyond c would repeat column c,
//     so the reconstruction starts from c instead of capacity.
//
// The table guard (ruling 19) still counts every positive-token candidate
// against the spec's capacity, as Slice does.
//
// It pays where the table is cut (BenchmarkKnapsackSlice, spec against fast
// in one run): at 100 items of 50-550 tokens under 128,000 tokens (capacity
// 1,280, weights summing to about 350) it is 3x to 10x faster than Slice.
// Elsewhere its time is Slice's within the noise of a loaded machine (the
// bit table is no faster than a bool table), and its keep table takes an
// eighth of the memory: 6.4 MB against 45 MB at 100,000 items under 30,000
// tokens.
func (k *Knapsack) solve(ctx context.Context, sorted []cupel.ScoredItem, budget cupel.ContextBudget) ([]int, error) {
	target := budget.TargetTokens()
	if len(sorted) == 0 || target <= 0 {
		return []int{}, nil
	}
	bucket := k.BucketSize()

	zeros, n := 0, 0
	for _, si := range sorted {
		if si.Item == nil {
			continue
		}
		switch t := si.Item.Tokens(); {
		case t == 0:
			zeros++
		case t > 0:
			n++
		}
	}
	capacity := target / bucket
	if n == 0 || capacity == 0 {
		return zeroTokenPositions(sorted, zeros, 0), nil
	}
	if err := checkKnapsackTable(n, capacity, k.TableLimit()); err != nil {
		return nil, err
	}

	vmax := int64(math.MaxInt64) / int64(n)
	cands := make([]knapCand, 0, n)
	sumW := 0
	for i, si := range sorted {
		it := si.Item
		if it == nil || it.Tokens() <= 0 {
			continue
		}
		dw := ceilDiv(it.Tokens(), bucket)
		if dw > capacity {
			continue
		}
		v := knapsackValue(si.Score, vmax)
		if v == 0 {
			continue
		}
		cands = append(cands, knapCand{i, dw, v})
		sumW = min(sumW+dw, capacity) // dw <= capacity, so no overflow
	}
	c := sumW // effective capacity: columns above sumW repeat column sumW
	m := len(cands)
	if m == 0 {
		return zeroTokenPositions(sorted, zeros, 0), nil
	}

	dp := make([]int64, c+1)
	rowWords := (c + 64) / 64 // c+1 bits per row, rounded up to whole words
	keep := make([]uint64, m*rowWords)
	// The rows are filled in blocks of about rules.PollEvery cells, with a poll of
	// ctx (when there is one) before each block.
	block := max(1, rules.PollEvery/(c+1))
	for lo := 0; lo < m; lo += block {
		if err := stopped(ctx); err != nil {
			return nil, err
		}
		for i := lo; i < min(lo+block, m); i++ {
			row := keep[i*rowWords : (i+1)*rowWords]
			dw, dv := cands[i].dw, cands[i].v
			for w := c; w >= dw; w-- {
				if with := dp[w-dw] + dv; with > dp[w] {
					dp[w] = with
					row[w>>6] |= 1 << (uint(w) & 63)
				}
			}
		}
	}

	// Reconstruct twice: count, then fill an exactly sized result that starts
	// with the zero-token items.
	selected, rem := 0, c
	for i := m - 1; i >= 0; i-- {
		if keep[i*rowWords+rem>>6]&(1<<(uint(rem)&63)) != 0 {
			rem -= cands[i].dw
			selected++
		}
	}
	out := zeroTokenPositions(sorted, zeros, selected)
	rem = c
	for i := m - 1; i >= 0; i-- {
		if keep[i*rowWords+rem>>6]&(1<<(uint(rem)&63)) != 0 {
			rem -= cands[i].dw
			out = append(out, cands[i].idx)
		}
	}
	return out, nil
}

// zeroTokenPositions returns the positions of the zero-token items of sorted
// (input order), in a slice with room for extra more positions.
func zeroTokenPositions(sorted []cupel.ScoredItem, zeros, extra int) []int {
	out := make([]int, 0, zeros+extra)
	if zeros == 0 {
		return out
	}
	for i, si := range sorted {
		if si.Item != nil && si.Item.Tokens() == 0 {
			out = append(out, i)
		}
	}
	return out
}
