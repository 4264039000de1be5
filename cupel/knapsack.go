package cupel

import (
	"math"
	"math/bits"
)

// DefaultBucketSize is the KnapsackSlice bucket size the spec recommends
// (chapter 27 (KnapsackSlice)).
const DefaultBucketSize = 100

// DefaultKnapsackTableLimit is the default cap on the knapsack table's cells
// (ruling 19).
const DefaultKnapsackTableLimit int64 = 50_000_000

// knapsackScale converts scores to integer DP values (spec: floor(score*10000)).
const knapsackScale = 10000

// KnapsackOption configures a [KnapsackSlice] built by [NewKnapsackSlice].
type KnapsackOption func(*KnapsackSlice)

// WithTableLimit sets the largest knapsack table, in cells (candidates x
// capacity), the slicer agrees to build; it must be > 0. The default is
// [DefaultKnapsackTableLimit].
func WithTableLimit(cells int64) KnapsackOption {
	return func(k *KnapsackSlice) { k.limit = cells }
}

// KnapsackSlice selects items by 0/1 knapsack dynamic programming, maximising
// the total scaled score within targetTokens (spec chapter 27 (KnapsackSlice)).
// It follows the spec's pseudocode exactly:
//
//   - Zero-token items are always selected and skip the DP; items with
//     negative tokens (and ScoredItems with a nil Item) are never selected.
//   - value = max(0, floor(score*10000)) (a NaN score gives 0), weight =
//     ceil(tokens/bucketSize), capacity = floor(targetTokens/bucketSize).
//   - A 1-D value array is filled in reverse weight order; an item is kept at
//     weight w only when it strictly improves dp[w] (withItem > dp[w]), which
//     is what decides between equally valued solutions.
//   - The solution is reconstructed from the last candidate to the first.
//   - The output is the zero-token items (input order) followed by the DP
//     selection in reconstruction order (reverse input order).
//
// Before the table is built, cells = candidates x capacity (candidates being
// the items with tokens > 0) is compared with the table limit; above it the
// slicer returns a [*TableTooLargeError] (ruling 19).
//
// Implementation notes, none of which changes the result: the keep table
// uses one bit per cell; candidates whose value is 0 or whose weight exceeds
// the capacity are left out of the table (they can never be kept, because dp
// is non-decreasing in w and the comparison is strict); and the table is cut
// at the sum of the remaining weights (any column beyond it repeats that
// column). DP values are capped at MaxInt64/candidates so that sums never
// overflow; this only affects scores above about 9e14/candidates.
//
// The zero value (and a nil *KnapsackSlice) uses [DefaultBucketSize] and
// [DefaultKnapsackTableLimit]. A KnapsackSlice is immutable and safe for
// concurrent use.
type KnapsackSlice struct {
	bucket int
	limit  int64
}

// NewKnapsackSlice returns a KnapsackSlice with the given bucket size (> 0)
// and options, or a [*ValidationError] wrapping [ErrInvalidConfig].
func NewKnapsackSlice(bucketSize int, opts ...KnapsackOption) (*KnapsackSlice, error) {
	if bucketSize <= 0 {
		return nil, invalidConfig("KnapsackSlice", "bucketSize", bucketSize, "must be > 0")
	}
	k := &KnapsackSlice{bucket: bucketSize, limit: DefaultKnapsackTableLimit}
	for _, o := range opts {
		if o != nil {
			o(k)
		}
	}
	if k.limit <= 0 {
		return nil, invalidConfig("KnapsackSlice", "tableLimit", k.limit, "must be > 0")
	}
	return k, nil
}

// BucketSize returns the bucket size used to discretize tokens.
func (k *KnapsackSlice) BucketSize() int {
	if k == nil || k.bucket <= 0 {
		return DefaultBucketSize
	}
	return k.bucket
}

// TableLimit returns the largest table, in cells, the slicer will build.
func (k *KnapsackSlice) TableLimit() int64 {
	if k == nil || k.limit <= 0 {
		return DefaultKnapsackTableLimit
	}
	return k.limit
}

// Slice implements [Slicer]. It returns a [*TableTooLargeError] when the
// table would exceed the limit. It does not modify sorted.
func (k *KnapsackSlice) Slice(sorted []ScoredItem, budget ContextBudget) ([]*ContextItem, error) {
	idx, err := k.solve(nil, sorted, budget)
	if err != nil {
		return nil, err
	}
	out := make([]*ContextItem, len(idx))
	for i, j := range idx {
		out[i] = sorted[j].Item
	}
	return out, nil
}

// knapCand is a DP candidate: its position in the input, weight and value.
type knapCand struct {
	idx int
	dw  int
	v   int64
}

// solve returns the positions in sorted of the selected items, in output
// order (zero-token items first, then reconstruction order). A non-nil
// canceller is polled while the table fills (about every pollEvery cells).
func (k *KnapsackSlice) solve(c0 *canceller, sorted []ScoredItem, budget ContextBudget) ([]int, error) {
	target := budget.targetTokens
	if len(sorted) == 0 || target <= 0 {
		return []int{}, nil
	}
	bucket, limit := k.BucketSize(), k.TableLimit()

	zeros, n := 0, 0
	for _, si := range sorted {
		if si.Item == nil {
			continue
		}
		switch t := si.Item.tokens; {
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
	// Table guard (ruling 19), on the spec's capacity.
	hi, lo := bits.Mul64(uint64(n), uint64(capacity))
	if hi != 0 || lo > math.MaxInt64 || int64(lo) > limit {
		cells := int64(math.MaxInt64)
		if hi == 0 && lo <= math.MaxInt64 {
			cells = int64(lo)
		}
		return nil, &TableTooLargeError{Candidates: n, Capacity: capacity, Cells: cells, Limit: limit}
	}

	// Active candidates: value > 0 and weight <= capacity (see the type doc).
	vmax := int64(math.MaxInt64) / int64(n)
	cands := make([]knapCand, 0, n)
	sumW := 0
	for i, si := range sorted {
		it := si.Item
		if it == nil || it.tokens <= 0 {
			continue
		}
		dw := it.tokens / bucket
		if it.tokens%bucket != 0 {
			dw++
		}
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
	// The rows are filled in blocks of about pollEvery cells, with a poll of
	// the canceller (when there is one) before each block.
	block := max(1, pollEvery/(c+1))
	for lo := 0; lo < m; lo += block {
		if c0 != nil {
			if err := c0.err(StageSlice); err != nil {
				return nil, err
			}
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

// knapsackValue returns max(0, floor(score*10000)) capped at vmax; NaN -> 0.
func knapsackValue(score float64, vmax int64) int64 {
	x := math.Floor(score * knapsackScale)
	if !(x > 0) {
		return 0
	}
	if x >= float64(vmax) {
		return vmax
	}
	return int64(x)
}

// zeroTokenPositions returns the positions of the zero-token items of sorted
// (input order), in a slice with room for extra more positions.
func zeroTokenPositions(sorted []ScoredItem, zeros, extra int) []int {
	out := make([]int, 0, zeros+extra)
	if zeros == 0 {
		return out
	}
	for i, si := range sorted {
		if si.Item != nil && si.Item.tokens == 0 {
			out = append(out, i)
		}
	}
	return out
}

// SlicePositions is the pipeline's PositionSlicer fast path.
func (k *KnapsackSlice) SlicePositions(sorted []ScoredItem, budget ContextBudget) ([]int, error) {
	return k.solve(nil, sorted, budget)
}
