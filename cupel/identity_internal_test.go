package cupel

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// TestPointerMultiplicityAgreesWithSpec is the differential test of
// pointerMultiplicity: on random inputs of 0 to 6,000 entries, with no,
// few or many repeated pointers and with nil entries, it returns what
// pointerMultiplicitySpec counts with a map (nil when no pointer repeats).
// Calls of every size follow each other, so a pooled table left dirty by
// an earlier call would show.
func TestPointerMultiplicityAgreesWithSpec(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 14))
	for trial := range 400 {
		n := r.IntN(70)
		if trial%40 == 0 {
			n = []int{1000, 4096, 4097, 6000}[r.IntN(4)]
		}
		// Distinct contents mostly (the table's case), a few shared ones,
		// or, one trial in three, one content for all (a probe sequence
		// past maxIdentityProbes from 65 items on: the map's case).
		items := make([]*ContextItem, n)
		for i := range items {
			if r.IntN(10) > 0 {
				content := "x"
				if trial%3 != 0 {
					content = strconv.Itoa(i - i%(1+r.IntN(3)))
				}
				items[i] = MustItem(ItemSpec{Content: content, Tokens: 1})
			}
		}
		repeats := []int{0, 0, 1, 3, n}[r.IntN(5)]
		for range repeats {
			if n > 1 {
				items[r.IntN(n)] = items[r.IntN(n)]
			}
		}
		want := pointerMultiplicitySpec(items)
		got := pointerMultiplicity(items)
		if (got == nil) != (want == nil) || !slices.Equal(got, want) {
			t.Fatalf("trial %d (n %d, %d repeats): multiplicities %v, want %v", trial, n, repeats, got, want)
		}
	}
}
