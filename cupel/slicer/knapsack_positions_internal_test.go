package slicer

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
)

// knapsackCase is one random input: scores rich in ties, with values of 0
// (score below 0.0001, negative, NaN) and values at the overflow cap (huge
// and infinite scores); tokens negative, zero, bucket-aligned and over the
// capacity; nil items. One case in four has a few large items under a
// bucket of 1, so that a table row is wider than rules.PollEvery cells.
func knapsackCase(r *rand.Rand) (in []cupel.ScoredItem, bucket, target int) {
	scores := []float64{0, 0.00005, 0.1, 0.25, 0.25, 0.5, 0.5, 0.75, 1, math.NaN(), -0.3, 1e300, math.Inf(1)}
	wide := r.IntN(4) == 0
	n := r.IntN(25)
	if wide {
		n = 1 + r.IntN(6)
	}
	in = make([]cupel.ScoredItem, n)
	for i := range in {
		in[i].Score = scores[r.IntN(len(scores))]
		tok := r.IntN(300) - 10
		switch {
		case wide:
			tok = 1000 + r.IntN(8000)
		case r.IntN(5) == 0:
			tok = 100 * r.IntN(4) // bucket-aligned and zero weights
		}
		if r.IntN(30) == 0 {
			continue // nil Item
		}
		in[i].Item = tokItem(tok)
	}
	if wide {
		return in, 1, 10000 + r.IntN(30000)
	}
	bucket = []int{1, 7, 50, 100}[r.IntN(4)]
	switch r.IntN(4) {
	case 0: // a capacity above the sum of the weights: the table is cut
		target = 5000 + r.IntN(5000)
	default:
		target = r.IntN(1500)
	}
	return in, bucket, target
}

// TestKnapsackSlicePositionsEqualsSlice: the fast path equals the spec
// method. Knapsack.SlicePositions returns the positions of exactly the
// items Knapsack.Slice returns, in the same order, or the same
// *TableTooLargeError, on random instances on both sides of every fork of
// solve: candidates of value 0 and of weight over the capacity (left out of
// the table) and others, a capacity above and below the sum of the weights
// (the table cut), rows narrower and wider than rules.PollEvery cells, and table
// limits just under, at and above the table's cells.
func TestKnapsackSlicePositionsEqualsSlice(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for trial := range 4000 {
		in, bucket, target := knapsackCase(r)
		var n int
		for _, si := range in {
			if si.Item != nil && si.Item.Tokens() > 0 {
				n++
			}
		}
		limit := DefaultKnapsackTableLimit
		if cells := int64(n) * int64(target/bucket); cells > 0 && r.IntN(3) == 0 {
			limit = max(1, cells-1+int64(r.IntN(3)))
		}
		k := &Knapsack{bucket: bucket, limit: limit}
		b := budgetOf(target, target)
		want, wantErr := k.Slice(in, b)
		got, gotErr := k.SlicePositions(in, b)
		var wantTL, gotTL *TableTooLargeError
		if errors.As(wantErr, &wantTL) != errors.As(gotErr, &gotTL) || (wantTL != nil && *wantTL != *gotTL) {
			t.Fatalf("trial %d: Slice error %v, SlicePositions error %v", trial, wantErr, gotErr)
		}
		if wantErr == nil && gotErr != nil || wantErr != nil && gotErr == nil {
			t.Fatalf("trial %d: Slice error %v, SlicePositions error %v", trial, wantErr, gotErr)
		}
		if !slices.Equal(itemsOf(in, got), want) {
			t.Fatalf("trial %d (bucket %d, target %d): SlicePositions %v, Slice %v", trial, bucket, target, itemsOf(in, got), want)
		}
	}
}
