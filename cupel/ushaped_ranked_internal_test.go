package cupel

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cupel-go/go-cupel/internal/testtool"
)

// TestUShapedPlaceRankedAgreesWithPlaceInto: for items already in rank
// order (score descending, ties in input order), the pipeline's placeRanked
// gives exactly the positions of placeInto, which sorts; with ties, NaN,
// -0.0 and both parities of length.
func TestUShapedPlaceRankedAgreesWithPlaceInto(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 5))
	vals := []float64{0, math.Copysign(0, -1), 0.5, 1, -1, math.NaN(), math.Inf(1), math.Inf(-1)}
	var u UShapedPlacer
	for trial := range testtool.Iterations(2000, 300) {
		n := trial % 70
		items := make([]ScoredItem, n)
		for i := range items {
			items[i].Score = float64(r.IntN(20)) / 10
			if r.IntN(4) == 0 {
				items[i].Score = vals[r.IntN(len(vals))]
			}
		}
		slices.SortStableFunc(items, func(a, b ScoredItem) int { return compareScoreDesc(a.Score, b.Score) })
		want := u.placeInto(items, make([]int, n))
		if got := u.placeRanked(make([]int, n)); !slices.Equal(got, want) {
			t.Fatalf("trial %d (n=%d): placeRanked %v, placeInto %v", trial, n, got, want)
		}
	}
}
