package cupel

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

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

// TestChronologicalAtUnixNanoEdges: near both ends of the UnixNano range,
// where the placer's one-key fast path gives way to (seconds,
// nanoseconds) keys, the order is that of sorting by cmpChrono.
func TestChronologicalAtUnixNanoEdges(t *testing.T) {
	lo, hi := time.Unix(0, math.MinInt64), time.Unix(0, math.MaxInt64)
	near := []time.Time{}
	for _, d := range []time.Duration{0, 1, 2, time.Second - 1, time.Second, time.Second + 1, 3 * time.Second} {
		near = append(near, lo.Add(d), lo.Add(-d), hi.Add(d), hi.Add(-d))
	}
	near = append(near, time.Unix(1e9, 5))
	r := rand.New(rand.NewPCG(25, 6))
	var c ChronologicalPlacer
	for trial := range testtool.Iterations(500, 100) {
		n := 2 + r.IntN(12)
		items := make([]ScoredItem, n)
		ref := make([]chronoKey, n)
		for i := range items {
			spec := ItemSpec{Content: "x"}
			ref[i] = chronoKey{none: true, idx: i}
			if r.IntN(5) > 0 {
				at := near[r.IntN(len(near))]
				spec.Timestamp = &at
				ref[i] = chronoKey{sec: at.Unix(), nsec: int32(at.Nanosecond()), idx: i}
			}
			items[i].Item = MustItem(spec)
		}
		slices.SortFunc(ref, cmpChrono)
		want := make([]int, n)
		for i, k := range ref {
			want[i] = k.idx
		}
		if got := c.placeInto(items, make([]int, n)); !slices.Equal(got, want) {
			t.Fatalf("trial %d: placed %v, want %v", trial, got, want)
		}
	}
}
