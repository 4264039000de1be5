package slicer

import (
	"math"
	"math/bits"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/internal/enginehook"
)

// DefaultBucketSize is the Knapsack bucket size the spec recommends
// (chapter 27 (KnapsackSlice)).
const DefaultBucketSize = 100

// DefaultKnapsackTableLimit is the default cap on the knapsack table's cells
// (ruling 19).
const DefaultKnapsackTableLimit int64 = 50_000_000

// knapsackScale converts scores to integer DP values (spec: floor(score*10000)).
const knapsackScale = 10000

// KnapsackOption configures a [Knapsack] built by [NewKnapsack].
type KnapsackOption func(*Knapsack)

// WithTableLimit sets the largest knapsack table, in cells (candidates x
// capacity), the slicer agrees to build; it must be > 0. The default is
// [DefaultKnapsackTableLimit].
func WithTableLimit(cells int64) KnapsackOption {
	return func(k *Knapsack) { k.limit = cells }
}

// Knapsack is the spec's KnapsackSlice (chapter 27): it selects items by 0/1
// knapsack dynamic programming, maximising the total scaled score within
// targetTokens.
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
// slicer returns a [*TableTooLargeError] (ruling 19). DP values are capped
// at MaxInt64/candidates so that sums never overflow; this only affects
// scores above about 9e14/candidates.
//
// The zero value (and a nil *Knapsack) uses [DefaultBucketSize] and
// [DefaultKnapsackTableLimit]. A Knapsack is immutable and safe for
// concurrent use. [Knapsack.SlicePositions] (knapsack_positions.go) is
// its fast path, which the pipeline takes.
type Knapsack struct {
	bucket int
	limit  int64
}

// NewKnapsack returns a Knapsack with the given bucket size (> 0)
// and options, or a [*cupel.ValidationError] wrapping [cupel.ErrInvalidConfig].
func NewKnapsack(bucketSize int, opts ...KnapsackOption) (*Knapsack, error) {
	if bucketSize <= 0 {
		return nil, enginehook.InvalidConfig("KnapsackSlice", "bucketSize", bucketSize, "must be > 0")
	}
	k := &Knapsack{bucket: bucketSize, limit: DefaultKnapsackTableLimit}
	for _, o := range opts {
		if o != nil {
			o(k)
		}
	}
	if k.limit <= 0 {
		return nil, enginehook.InvalidConfig("KnapsackSlice", "tableLimit", k.limit, "must be > 0")
	}
	return k, nil
}

// BucketSize returns the bucket size used to discretize tokens.
func (k *Knapsack) BucketSize() int {
	if k == nil || k.bucket <= 0 {
		return DefaultBucketSize
	}
	return k.bucket
}

// TableLimit returns the largest table, in cells, the slicer will build.
func (k *Knapsack) TableLimit() int64 {
	if k == nil || k.limit <= 0 {
		return DefaultKnapsackTableLimit
	}
	return k.limit
}

// Slice implements [cupel.Slicer]: KNAPSACK-SLICE, spec chapter 27
// (KnapsackSlice), section Algorithm, step by step. It returns a
// [*TableTooLargeError] when the table would exceed the limit. It does not
// modify sorted.
//
// Three additions to the pseudocode: a nil Item is skipped; the table guard
// (ruling 19) runs before step 4; and values are capped so that the DP's
// sums cannot overflow (see knapsackValue).
func (k *Knapsack) Slice(sorted []cupel.ScoredItem, budget cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	if len(sorted) == 0 || budget.TargetTokens() <= 0 {
		return []*cupel.ContextItem{}, nil
	}
	bucketSize := k.BucketSize()

	// Step 1: pre-filter zero-token items (always included).
	zeroTokenItems := []*cupel.ContextItem{}
	var candidates []cupel.ScoredItem
	for _, si := range sorted {
		if si.Item == nil {
			continue
		}
		if si.Item.Tokens() == 0 {
			zeroTokenItems = append(zeroTokenItems, si.Item)
		} else if si.Item.Tokens() > 0 {
			candidates = append(candidates, si)
		}
	}
	if len(candidates) == 0 {
		return zeroTokenItems, nil
	}
	n := len(candidates)

	// Step 2: build parallel arrays.
	weights := make([]int, n)
	values := make([]int64, n)
	items := make([]*cupel.ContextItem, n)
	vmax := int64(math.MaxInt64) / int64(n)
	for i, c := range candidates {
		weights[i] = c.Item.Tokens()
		values[i] = knapsackValue(c.Score, vmax)
		items[i] = c.Item
	}

	// Step 3: discretize capacity and weights.
	capacity := budget.TargetTokens() / bucketSize
	if capacity == 0 {
		return zeroTokenItems, nil
	}
	discretizedWeights := make([]int, n)
	for i := range n {
		discretizedWeights[i] = ceilDiv(weights[i], bucketSize)
	}

	// Ruling 19: refuse a table over the limit before building it.
	if err := checkKnapsackTable(n, capacity, k.TableLimit()); err != nil {
		return nil, err
	}

	// Step 4: DP with 1D value array + 2D keep table.
	dp := make([]int64, capacity+1)
	keep := make([][]bool, n)
	cells := make([]bool, n*(capacity+1)) // one allocation for every row
	for i := range keep {
		keep[i] = cells[i*(capacity+1) : (i+1)*(capacity+1)]
	}
	for i := range n {
		dw, dv := discretizedWeights[i], values[i]
		for w := capacity; w >= dw; w-- {
			if withItem := dp[w-dw] + dv; withItem > dp[w] {
				dp[w] = withItem
				keep[i][w] = true
			}
		}
	}

	// Step 5: reconstruct solution.
	selected := []*cupel.ContextItem{}
	remainingCapacity := capacity
	for i := n - 1; i >= 0; i-- {
		if keep[i][remainingCapacity] {
			selected = append(selected, items[i])
			remainingCapacity -= discretizedWeights[i]
		}
	}

	// Step 6: combine zero-token items with selected items.
	result := make([]*cupel.ContextItem, 0, len(zeroTokenItems)+len(selected))
	result = append(result, zeroTokenItems...)
	result = append(result, selected...)
	return result, nil
}

// ceilDiv is ceil(a/b) for a >= 0 and b > 0, without overflow.
func ceilDiv(a, b int) int {
	q := a / b
	if a%b != 0 {
		q++
	}
	return q
}

// checkKnapsackTable returns a [*TableTooLargeError] when a table of
// candidates x capacity cells exceeds limit (ruling 19); cells that
// overflow int64 are reported as MaxInt64.
func checkKnapsackTable(candidates, capacity int, limit int64) error {
	hi, lo := bits.Mul64(uint64(candidates), uint64(capacity))
	if hi == 0 && lo <= math.MaxInt64 && int64(lo) <= limit {
		return nil
	}
	cells := int64(math.MaxInt64)
	if hi == 0 && lo <= math.MaxInt64 {
		cells = int64(lo)
	}
	return &TableTooLargeError{Candidates: candidates, Capacity: capacity, Cells: cells, Limit: limit}
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
