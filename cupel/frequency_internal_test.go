package cupel

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestFrequencyBitsetsAgreeWithSpec: FrequencyScorer.ScoreAll gives the
// per-item FREQUENCY-SCORE (Score) bit for bit on both sides of the bitset
// path's limits: item counts around freqBitsetMaxItems, and a tag
// vocabulary that pushes tags x words past freqBitsetMaxWords, with nil
// entries, tagless items, case variants and repeated pointers.
func TestFrequencyBitsetsAgreeWithSpec(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 2))
	cases := []struct {
		n, vocab int
		bitsets  bool
	}{
		{2, 3, true},
		{100, 20, true},
		{1000, 20, true},
		{1000, 300, true}, // more than 64 tags
		{freqBitsetMaxItems, 20, true},
		{freqBitsetMaxItems + 1, 20, false},
		{4000, 100000, false}, // tags x words over freqBitsetMaxWords
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("n=%d,vocab=%d", c.n, c.vocab), func(t *testing.T) {
			items := make([]*ContextItem, c.n)
			for i := range items {
				switch {
				case i > 0 && r.IntN(20) == 0:
					items[i] = items[r.IntN(i)] // repeated pointer (may be nil)
					continue
				case r.IntN(30) == 0:
					continue // nil entry
				}
				var tags []string // 0 to 6: the bitset path has loops for 1, 2, 3 and more
				for range r.IntN(7) {
					tag := fmt.Sprintf("tag%d", r.IntN(c.vocab))
					if r.IntN(3) == 0 {
						tag = "TAG" + tag[3:]
					}
					tags = append(tags, tag)
				}
				items[i] = MustItem(ItemSpec{Content: fmt.Sprint("c", i), Tokens: 1, Tags: tags})
			}
			words := (len(items) + 63) / 64
			distinct := map[string]bool{}
			for _, it := range items {
				if it != nil {
					for _, tag := range it.tags {
						distinct[asciiLower(tag)] = true
					}
				}
			}
			if got := len(items) <= freqBitsetMaxItems && len(distinct)*words <= freqBitsetMaxWords; got != c.bitsets {
				t.Fatalf("case meant to test the bitset path = %v, but it takes it = %v", c.bitsets, got)
			}
			var fsc FrequencyScorer
			out := make([]float64, len(items))
			fsc.ScoreAll(items, out)
			for i, it := range items {
				if want := fsc.Score(it, items); out[i] != want {
					t.Fatalf("item %d: ScoreAll %v, Score %v", i, out[i], want)
				}
			}
		})
	}
}

// TestPointerMultiplicityAgreesWithMap: pointerMultiplicity, with its
// repeat-detecting table up to repeatTableMaxItems and its sort above,
// gives the multiplicities a map counts (nil when no pointer repeats), for
// inputs with and without repeats and with nil entries.
func TestPointerMultiplicityAgreesWithMap(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 3))
	for _, n := range []int{0, 1, 2, 17, 100, repeatTableMaxItems, repeatTableMaxItems + 1, 6000} {
		for _, repeats := range []int{0, 1, 5} {
			items := make([]*ContextItem, n)
			for i := range items {
				if r.IntN(10) > 0 {
					items[i] = MustItem(ItemSpec{Content: "x", Tokens: 1})
				}
			}
			for range repeats {
				if n > 1 {
					items[r.IntN(n)] = items[r.IntN(n)]
				}
			}
			count := map[*ContextItem]int32{}
			for _, it := range items {
				if it != nil {
					count[it]++
				}
			}
			repeated := false
			for _, c := range count {
				repeated = repeated || c > 1
			}
			got := pointerMultiplicity(items)
			if !repeated {
				if got != nil {
					t.Fatalf("n=%d: no pointer repeats, got %v", n, got)
				}
				continue
			}
			if len(got) != n {
				t.Fatalf("n=%d, %d repeats: got %d multiplicities", n, repeats, len(got))
			}
			for i, it := range items {
				if it != nil && got[i] != count[it] {
					t.Fatalf("n=%d: item %d multiplicity %d, want %d", n, i, got[i], count[it])
				}
			}
		}
	}
}
