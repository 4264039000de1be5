package cupel

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/cupel-go/go-cupel/cupel/internal/keysort"
)

// TestSortByScoreAgreesWithSpec: on random survivors of 0 to 60 items and
// of 1,000, 5,000 and 20,000 items (both sides of fewRadixPasses), with
// tied, infinite, NaN and signed-zero scores drawn from few or many
// values, sortByScore gives the order of the spec's SORT written with a
// comparator: a stable sort by keysort.CompareScoreDesc of the deduplicated list.
// keysort.DescKey is checked against keysort.CompareScoreDesc on the same scores.
func TestSortByScoreAgreesWithSpec(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 10))
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, -1}
	for trial := range 303 {
		n := r.IntN(61)
		if trial >= 300 {
			n = []int{1000, 5000, 20000}[trial-300]
		}
		levels := 1 + r.IntN(2*n+1)
		items := make([]*ContextItem, n)
		scores := make([]float64, n)
		for i := range items {
			items[i] = MustItem(ItemSpec{Content: strconv.Itoa(i), Tokens: 1})
			scores[i] = float64(r.IntN(levels)) / float64(levels)
			if r.IntN(8) == 0 {
				scores[i] = special[r.IntN(len(special))]
			}
		}
		var survivors []int // every item but about one in five
		for i := range n {
			if r.IntN(5) > 0 {
				survivors = append(survivors, i)
			}
		}
		want := slices.Clone(survivors)
		slices.SortStableFunc(want, func(a, b int) int { return keysort.CompareScoreDesc(scores[a], scores[b]) })
		got, err := sortByScore(make([]ScoredItem, len(survivors)), items, scores, survivors, nil)
		if err != nil {
			t.Fatal(err)
		}
		for k, i := range want {
			if got[k].Item != items[i] || math.Float64bits(got[k].Score) != math.Float64bits(scores[i]) {
				t.Fatalf("trial %d (n %d): position %d holds item %s, want %d", trial, n, k, got[k].Item.content, i)
			}
		}
		for k := 1; k < len(want); k++ {
			a, b := scores[want[k-1]], scores[want[k]]
			if c := keysort.CompareScoreDesc(a, b); (c < 0) != (keysort.DescKey(a) < keysort.DescKey(b)) || (c == 0) != (keysort.DescKey(a) == keysort.DescKey(b)) {
				t.Fatalf("descKey orders %v and %v otherwise than compareScoreDesc", a, b)
			}
		}
	}
}
