package cupel

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cupel-go/go-cupel/internal/testtool"
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
			checkScoreAllAgrees(t, "items", items)
		})
	}
}

// TestPointerMultiplicityAgreesWithMap: pointerMultiplicity, with its
// repeat-detecting table up to repeatTableMaxItems and its sort above,
// gives the multiplicities a map counts (nil when no pointer repeats), for
// inputs with and without repeats and with nil entries.
func TestPointerMultiplicityAgreesWithMap(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 3))
	for _, n := range []int{0, 1, 2, 17, 100, 4096, 4097, 6000} {
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

// TestFrequencySubsetsAgreeWithSpec: FrequencyScorer.ScoreAll gives the
// per-item FREQUENCY-SCORE (Score) bit for bit on both sides of every
// limit of the subset path: at most 3 tags per item against 4, a
// vocabulary of freqSubsetMaxTags against one more, and a table of at most
// 4 counters per item against more; with repeated tags within an item
// (two or three occurrences of one tag), case variants, tagless items, nil
// entries and repeated pointers.
func TestFrequencySubsetsAgreeWithSpec(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 10))
	// 32 tags need 5,488 counters: 1,372 items and more may use them.
	atLimit := (freqSubsetTableSize(freqSubsetMaxTags) + 3) / 4
	cases := []struct {
		n, vocab, perItem int
		subsets           bool
	}{
		{2, 1, 1, true},
		{3, 2, 2, true},
		{100, 5, 3, true},
		{1000, 20, 3, true},
		{1000, 20, 4, false}, // an item with four tags
		{atLimit, freqSubsetMaxTags, 3, true},
		{atLimit - 1, freqSubsetMaxTags, 3, false}, // tables above 4 per item
		{3000, freqSubsetMaxTags + 1, 3, false},    // vocabulary too large
		{100, 20, 3, false},                        // 1,350 counters for 100 items
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("n=%d,vocab=%d,perItem=%d", c.n, c.vocab, c.perItem), func(t *testing.T) {
			for trial := range 5 {
				items := make([]*ContextItem, c.n)
				for i := range items {
					switch {
					case i > 0 && r.IntN(20) == 0:
						items[i] = items[r.IntN(i)] // repeated pointer (may be nil)
						continue
					case c.n > 3 && r.IntN(30) == 0:
						continue // nil entry
					}
					k := r.IntN(c.perItem + 1)
					if i == 0 {
						k = c.perItem // the most tags occur
					}
					var tags []string
					for range k {
						tag := fmt.Sprintf("tag%d", r.IntN(c.vocab))
						if r.IntN(4) == 0 && len(tags) > 0 {
							tag = tags[r.IntN(len(tags))] // repeated within the item
						}
						if r.IntN(3) == 0 {
							tag = "TAG" + tag[3:]
						}
						tags = append(tags, tag)
					}
					items[i] = MustItem(ItemSpec{Content: fmt.Sprint("c", i), Tokens: 1, Tags: tags})
				}
				// Every tag of the vocabulary occurs, so that its size is the case's.
				for v := range c.vocab {
					items[r.IntN(len(items))] = MustItem(ItemSpec{Content: fmt.Sprint("v", v), Tokens: 1, Tags: []string{fmt.Sprintf("tag%d", v)}})
				}
				distinct, maxPer := map[string]bool{}, 0
				for _, it := range items {
					if it != nil {
						maxPer = max(maxPer, len(it.tags))
						for _, tag := range it.tags {
							distinct[asciiLower(tag)] = true
						}
					}
				}
				if got := useFreqSubsets(len(items), len(distinct), maxPer); got != c.subsets {
					t.Fatalf("case meant to test the subset path = %v, but it takes it = %v (%d tags, %d per item)", c.subsets, got, len(distinct), maxPer)
				}
				checkScoreAllAgrees(t, fmt.Sprintf("trial %d", trial), items)
			}
		})
	}
}

// TestSortedDistinct3: the distinct ids of up to three, ascending, for
// every arrangement of ids with and without repeats.
func TestSortedDistinct3(t *testing.T) {
	for _, tags := range [][]int32{{}, {4}, {4, 4}, {2, 9}, {9, 2}, {5, 5, 5}, {1, 2, 3}, {3, 1, 2}, {2, 3, 1}, {3, 2, 1}, {7, 7, 1}, {1, 7, 7}, {7, 1, 7}, {0, 0, 6}, {6, 0, 6}} {
		want := slices.Compact(slices.Sorted(slices.Values(tags)))
		a, b, c, k := sortedDistinct3(tags)
		got := []int32{a, b, c}[:k]
		if !slices.Equal(got, want) {
			t.Errorf("sortedDistinct3(%v) = %v, want %v", tags, got, want)
		}
	}
}

// checkScoreAllAgrees fails t unless FrequencyScorer.ScoreAll gives every
// item of items the score FrequencyScorer.Score gives it; what names the
// input in the message. Score, the reference, costs a pass over items per
// item: under the race detector, which makes that 5 to 20 times slower,
// it checks an evenly spread sample of about checkSampleUnderRace items
// (the first and the last among them), while ScoreAll still scores all of
// them, on the same path; the plain and 386 passes check every item.
func checkScoreAllAgrees(t *testing.T, what string, items []*ContextItem) {
	t.Helper()
	var fsc FrequencyScorer
	out := make([]float64, len(items))
	fsc.ScoreAll(items, out)
	step := max(1, len(items)/max(1, testtool.Iterations(len(items), checkSampleUnderRace)))
	for i := 0; i < len(items); i += step {
		checkScoreOf(t, what, &fsc, items, out, i)
	}
	if n := len(items); n > 0 && (n-1)%step != 0 {
		checkScoreOf(t, what, &fsc, items, out, n-1)
	}
}

// checkSampleUnderRace is how many items checkScoreAllAgrees checks under
// the race detector.
const checkSampleUnderRace = 200

func checkScoreOf(t *testing.T, what string, fsc *FrequencyScorer, items []*ContextItem, out []float64, i int) {
	t.Helper()
	if want := fsc.Score(items[i], items); out[i] != want {
		t.Fatalf("%s: item %d (tags %q): ScoreAll %v, Score %v", what, i, items[i].tags, out[i], want)
	}
}
