package scorer

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
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
		// Distinct contents mostly, a few shared ones, or, one trial in
		// three, one content for all; one trial in four bounds the probe
		// sequences to one slot, so that the first collision takes the
		// map fallback.
		items := make([]*cupel.ContextItem, n)
		for i := range items {
			if r.IntN(10) > 0 {
				content := "x"
				if trial%3 != 0 {
					content = strconv.Itoa(i - i%(1+r.IntN(3)))
				}
				items[i] = cupel.MustItem(cupel.ItemSpec{Content: content, Tokens: 1})
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
		if trial%4 == 1 {
			got = multiplicityByTable(items, 1)
		}
		if (got == nil) != (want == nil) || !slices.Equal(got, want) {
			t.Fatalf("trial %d (n %d, %d repeats): multiplicities %v, want %v", trial, n, repeats, got, want)
		}
	}
}

// BenchmarkPointerMultiplicity times pointerMultiplicitySpec ("spec") and
// pointerMultiplicity ("fast") at 100, 1,000, 10,000 and 100,000 distinct
// items, about one in ten repeating the content of an earlier one (the
// input of cupel's BenchmarkDeduplicate).
func BenchmarkPointerMultiplicity(b *testing.B) {
	for _, n := range []int{100, 1000, 10000, 100000} {
		r := rand.New(rand.NewPCG(35, uint64(n)))
		items := make([]*cupel.ContextItem, n)
		for i := range items {
			c := i
			if i > 0 && r.IntN(10) == 0 {
				c = r.IntN(i)
			}
			items[i] = cupel.MustItem(cupel.ItemSpec{Content: "item " + strconv.Itoa(c) + " of the benchmark input", Tokens: 1})
		}
		for _, alg := range []struct {
			name string
			f    func([]*cupel.ContextItem) []int32
		}{
			{"spec", pointerMultiplicitySpec},
			{"fast", pointerMultiplicity},
		} {
			b.Run("N="+strconv.Itoa(n)+"/"+alg.name, func(b *testing.B) {
				for b.Loop() {
					alg.f(items)
				}
			})
		}
	}
}
