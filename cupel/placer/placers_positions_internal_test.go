package placer

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/internal/keysort"
	"github.com/cupel-go/go-cupel/internal/testtool"
)

// placerTestLen returns the length of a trial: mostly short, and every
// fourth trial around 1,024 or 4,096 records, where fewRadixPasses switches
// keysort.Sort to the radix sort for keys varying in fewer or in all eight
// bytes, so that the fast paths run on both sides of it.
func placerTestLen(r *rand.Rand, trial int) int {
	if trial%4 == 3 {
		return []int{1024, 4096}[r.IntN(2)] - 40 + r.IntN(80)
	}
	return r.IntN(70)
}

// placerTestScore is a score with many ties and the special values of
// ruling 6 (NaN, -0.0) and infinities.
func placerTestScore(r *rand.Rand) float64 {
	vals := []float64{0, math.Copysign(0, -1), 0.5, 1, -1, math.NaN(), math.Inf(1), math.Inf(-1)}
	if r.IntN(4) == 0 {
		return vals[r.IntN(len(vals))]
	}
	return float64(r.IntN(20)) / 10
}

// placerTestItems returns n distinct items (so that equal item lists mean
// equal positions) with scores from placerTestScore and timestamps from
// at, which returns nil for "no timestamp".
func placerTestItems(r *rand.Rand, n int, at func() *time.Time) []cupel.ScoredItem {
	items := make([]cupel.ScoredItem, n)
	for i := range items {
		items[i] = cupel.ScoredItem{Item: cupel.MustItem(cupel.ItemSpec{Content: "x", Timestamp: at()}), Score: placerTestScore(r)}
	}
	return items
}

// TestUShapedPositionsEqualPlace: the position fast path
// (ushaped_positions.go) gives the order of the spec method
// UShaped.Place, on random score orders and on inputs already in
// score order (which keysort.Sort detects), with ties, NaN, -0.0 and both
// parities of length, on both sides of fewRadixPasses.
func TestUShapedPositionsEqualPlace(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 7))
	var u UShaped
	noTime := func() *time.Time { return nil }
	for trial := range testtool.Iterations(800, 120) {
		items := placerTestItems(r, placerTestLen(r, trial), noTime)
		if trial%3 == 0 {
			slices.SortStableFunc(items, func(a, b cupel.ScoredItem) int { return keysort.CompareScoreDesc(a.Score, b.Score) })
		}
		want := u.Place(items)
		if got := placedItems(items, u.PlacePositions(items)); !slices.Equal(got, want) {
			t.Fatalf("trial %d (n=%d): PlacePositions disagrees with Place", trial, len(items))
		}
	}
}

// TestUShapedPlaceRankedEqualsPlace: for items already in rank order (score
// descending, ties in input order), the pipeline's PlaceRanked gives the
// order of UShaped.Place, with ties, NaN, -0.0 and both parities of
// length.
func TestUShapedPlaceRankedEqualsPlace(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 5))
	var u UShaped
	noTime := func() *time.Time { return nil }
	for trial := range testtool.Iterations(800, 120) {
		items := placerTestItems(r, placerTestLen(r, trial), noTime)
		slices.SortStableFunc(items, func(a, b cupel.ScoredItem) int { return keysort.CompareScoreDesc(a.Score, b.Score) })
		want := u.Place(items)
		if got := placedItems(items, u.PlaceRanked(make([]int, len(items)))); !slices.Equal(got, want) {
			t.Fatalf("trial %d (n=%d): PlaceRanked disagrees with Place", trial, len(items))
		}
	}
}

// TestChronologicalPositionsEqualPlace: the position fast path
// (chronological_positions.go) gives the order of the spec method
// Chronological.Place on both sides of its threshold: trials whose
// timestamps all have an exact UnixNano (the one-key path) and trials with
// timestamps within seconds of each end of the UnixNano range (some of
// them outside it: the comparison path), with equal timestamps, items
// without one, and lengths on both sides of fewRadixPasses.
func TestChronologicalPositionsEqualPlace(t *testing.T) {
	lo, hi := time.Unix(0, math.MinInt64), time.Unix(0, math.MaxInt64)
	var edges []time.Time
	for _, d := range []time.Duration{0, 1, 2, time.Second - 1, time.Second, time.Second + 1, 3 * time.Second} {
		edges = append(edges, lo.Add(d), lo.Add(-d), hi.Add(d), hi.Add(-d))
	}
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	r := rand.New(rand.NewPCG(25, 6))
	var c Chronological
	paths := map[bool]int{} // fast path taken -> trials
	for trial := range testtool.Iterations(800, 120) {
		nearEdges := trial%2 == 1
		at := func() *time.Time {
			if r.IntN(5) == 0 {
				return nil
			}
			ts := base.Add(time.Duration(r.IntN(50)) * time.Millisecond)
			if nearEdges && r.IntN(2) == 0 {
				ts = edges[r.IntN(len(edges))]
			}
			return &ts
		}
		items := placerTestItems(r, placerTestLen(r, trial), at)
		_, fast := chronoFastKeys(items, make([]keysort.KeyIdx, len(items)))
		paths[fast]++
		want := c.Place(items)
		if got := placedItems(items, c.PlacePositions(items)); !slices.Equal(got, want) {
			t.Fatalf("trial %d (n=%d, one-key path %v): PlacePositions disagrees with Place", trial, len(items), fast)
		}
	}
	if paths[true] == 0 || paths[false] == 0 {
		t.Fatalf("both sides of the UnixNano threshold must be tested: %v", paths)
	}
}

// TestChronologicalPlaceAtUnixNanoEdges: the spec method orders instants
// near both ends of the UnixNano range (where the fast path's one key no
// longer applies) as instants, not by their (wrapped) UnixNano.
func TestChronologicalPlaceAtUnixNanoEdges(t *testing.T) {
	hi := time.Unix(0, math.MaxInt64)
	later, earlier := hi.Add(time.Second), hi.Add(-time.Second)
	items := []cupel.ScoredItem{
		{Item: cupel.MustItem(cupel.ItemSpec{Content: "later", Timestamp: &later})},
		{Item: cupel.MustItem(cupel.ItemSpec{Content: "none"})},
		{Item: cupel.MustItem(cupel.ItemSpec{Content: "earlier", Timestamp: &earlier})},
	}
	got := (&Chronological{}).Place(items)
	want := []*cupel.ContextItem{items[2].Item, items[0].Item, items[1].Item}
	if !slices.Equal(got, want) {
		t.Fatalf("placed %v, want earlier, later, none", got)
	}
}

// placedItems returns the items of items at the given positions, in order,
// as the pipeline reads a PositionPlacer's result.
func placedItems(items []cupel.ScoredItem, positions []int) []*cupel.ContextItem {
	out := make([]*cupel.ContextItem, len(positions))
	for i, p := range positions {
		out[i] = items[p].Item
	}
	return out
}
