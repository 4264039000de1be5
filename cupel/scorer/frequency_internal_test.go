package scorer

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/internal/testtool"
)

// freqCase describes random inputs for the frequency tests: n entries with
// 0 to perItem tags each from a vocabulary of vocab tags ("tag<i>", a
// third of them upper-cased, a quarter of the later tags of an item
// repeating an earlier one), about 1 in 30 entries nil and 1 in 20 a
// pointer already in the list (possibly nil). A fraction common of the
// items (0: none) also carry the tag "Common", when they have room for it,
// to make one tag dominate.
type freqCase struct {
	n, vocab, perItem int
	common            float64
}

// items draws one input of c with r. Every tag of the vocabulary occurs
// (on fresh items spread over the list), so that its size is the case's,
// and the first item has perItem tags, so that the most tags occur.
func (c freqCase) items(r *rand.Rand) []*cupel.ContextItem {
	items := make([]*cupel.ContextItem, c.n)
	for i := range items {
		switch {
		case i > 0 && r.IntN(20) == 0:
			items[i] = items[r.IntN(i)] // repeated pointer (may be nil)
			continue
		case i > 0 && c.n > 3 && r.IntN(30) == 0:
			continue // nil entry
		}
		k := r.IntN(c.perItem + 1)
		if i == 0 {
			k = c.perItem
		}
		var tags []string
		for range k {
			tag := fmt.Sprintf("tag%d", r.IntN(c.vocab))
			if r.IntN(4) == 0 && len(tags) > 0 {
				tag = strings.Clone(tags[r.IntN(len(tags))]) // repeated within the item
			}
			if r.IntN(3) == 0 {
				tag = strings.ToUpper(tag)
			}
			tags = append(tags, tag)
		}
		if c.common > 0 && r.Float64() < c.common && len(tags) < c.perItem {
			tags = append(tags, "Common")
		}
		items[i] = cupel.MustItem(cupel.ItemSpec{Content: fmt.Sprint("c", i), Tokens: 1, Tags: tags})
	}
	for v := range c.vocab { // at distinct places (c.n > c.vocab), past the first
		if i := 1 + v*(c.n-1)/c.vocab; i < c.n {
			items[i] = cupel.MustItem(cupel.ItemSpec{Content: fmt.Sprint("v", v), Tokens: 1, Tags: []string{fmt.Sprintf("tag%d", v)}})
		}
	}
	return items
}

// TestFrequencyScoreAllAgreesWithSpec: Frequency.ScoreAll gives the
// per-item FREQUENCY-SCORE (Score) bit for bit on both sides of the fork
// between its two algorithms (subsetsApply: 3 against 4 tags per item, 32
// against 33 distinct tags), from 2 to 1,500 items, with case variants,
// repeated tags within an item, tagless items, nil entries, repeated
// pointers and one tag carried by most items. On every input, both
// countBySubsets (where it applies) and countByGroups give the counts
// Score implies, whichever ScoreAll takes.
func TestFrequencyScoreAllAgreesWithSpec(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 10))
	cases := []struct {
		freqCase
		subsets bool
	}{
		{freqCase{2, 1, 1, 0}, true},
		{freqCase{3, 2, 2, 0}, true},
		{freqCase{100, 5, 3, 0}, true},
		{freqCase{1000, 20, 3, 0}, true},
		{freqCase{1000, 20, 3, 0.8}, true}, // "common" makes 21 tags
		{freqCase{1000, 20, 4, 0}, false},  // an item with four tags
		{freqCase{100, freqSubsetMaxTags, 3, 0}, true},
		{freqCase{1000, freqSubsetMaxTags, 3, 0}, true},
		{freqCase{1000, freqSubsetMaxTags + 1, 3, 0}, false},
		{freqCase{100, freqSubsetMaxTags + 1, 1, 0}, false},
		{freqCase{1000, 300, 6, 0}, false},  // more than 64 tags
		{freqCase{1500, 40, 4, 0.9}, false}, // a dominant tag
		{freqCase{1500, 1000, 3, 0}, false}, // many groups
		{freqCase{1000, 8, 6, 0.5}, false},  // few tags, many per item
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("n=%d,vocab=%d,perItem=%d,common=%v", c.n, c.vocab, c.perItem, c.common), func(t *testing.T) {
			for trial := range testtool.Iterations(2, 1) {
				items := c.items(r)
				fs := new(freqScratch)
				off, ids, numTags, maxPer := fs.internTags(items)
				if got := subsetsApply(maxPer, numTags); got != c.subsets {
					t.Fatalf("case meant to test the subset path = %v, but it takes it = %v (%d tags, %d per item)", c.subsets, got, numTags, maxPer)
				}
				want := sharingCounts(items)
				if c.subsets {
					checkCounts(t, "countBySubsets", fs.countBySubsets(off, ids, numTags), want)
				}
				checkCounts(t, "countByGroups", fs.countByGroups(off, ids, numTags), want)
				checkScoreAllAgrees(t, fmt.Sprintf("trial %d", trial), items)
			}
		})
	}
}

// sharingCounts is what both counting algorithms return, derived from the
// spec: for an item with tags, the peers Score counts plus the
// occurrences of its own pointer; 0 otherwise.
func sharingCounts(items []*cupel.ContextItem) []int32 {
	want := make([]int32, len(items))
	for i, it := range items {
		if it == nil || it.NumTags() == 0 {
			continue
		}
		for _, other := range items {
			if other == it || other != nil && sharesAnyTag(it, other) {
				want[i]++
			}
		}
	}
	return want
}

func checkCounts(t *testing.T, name string, got, want []int32) {
	t.Helper()
	if !slices.Equal(got, want) {
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: item %d counts %d entries sharing a tag, want %d", name, i, got[i], want[i])
			}
		}
	}
}

// TestFrequencyScoreAllEdges: ScoreAll gives Score's result where it
// returns early or nothing is tagged: no items, one item, one item among
// nil entries, the same pointer twice (each the other's only peer, but
// skipped by identity), and items without tags.
func TestFrequencyScoreAllEdges(t *testing.T) {
	a := cupel.MustItem(cupel.ItemSpec{Content: "a", Tokens: 1, Tags: []string{"x"}})
	b := cupel.MustItem(cupel.ItemSpec{Content: "b", Tokens: 1, Tags: []string{"X"}})
	bare := cupel.MustItem(cupel.ItemSpec{Content: "c", Tokens: 1})
	for _, items := range [][]*cupel.ContextItem{
		nil, {a}, {nil, a, nil}, {a, a}, {a, a, b}, {bare, bare}, {bare, nil, a}, {a, b, nil, bare},
	} {
		checkScoreAllAgrees(t, fmt.Sprint(len(items), " items"), items)
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
			items := make([]*cupel.ContextItem, n)
			for i := range items {
				if r.IntN(10) > 0 {
					items[i] = cupel.MustItem(cupel.ItemSpec{Content: "x", Tokens: 1})
				}
			}
			for range repeats {
				if n > 1 {
					items[r.IntN(n)] = items[r.IntN(n)]
				}
			}
			count := map[*cupel.ContextItem]int32{}
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

// TestDistinctTags3: the distinct ids of up to three, ascending, for
// every arrangement of ids with and without repeats.
func TestDistinctTags3(t *testing.T) {
	for _, tags := range [][]int32{{}, {4}, {4, 4}, {2, 9}, {9, 2}, {5, 5, 5}, {1, 2, 3}, {3, 1, 2}, {2, 3, 1}, {3, 2, 1}, {7, 7, 1}, {1, 7, 7}, {7, 1, 7}, {0, 0, 6}, {6, 0, 6}} {
		want := slices.Compact(slices.Sorted(slices.Values(tags)))
		s := distinctTags3(tags)
		got := []int32{s.a, s.b, s.c}[:s.k]
		if !slices.Equal(got, want) {
			t.Errorf("distinctTags3(%v) = %v, want %v", tags, got, want)
		}
	}
}

// checkScoreAllAgrees fails t unless Frequency.ScoreAll gives every
// item of items the score Frequency.Score gives it; what names the
// input in the message. Score, the reference, costs a pass over items per
// item: under the race detector, which makes that 5 to 20 times slower,
// it checks an evenly spread sample of about checkSampleUnderRace items
// (the first and the last among them), while ScoreAll still scores all of
// them, on the same path; the plain and 386 passes check every item.
func checkScoreAllAgrees(t *testing.T, what string, items []*cupel.ContextItem) {
	t.Helper()
	var fsc Frequency
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

func checkScoreOf(t *testing.T, what string, fsc *Frequency, items []*cupel.ContextItem, out []float64, i int) {
	t.Helper()
	if want := fsc.Score(items[i], items); out[i] != want {
		t.Fatalf("%s: item %d (tags %q): ScoreAll %v, Score %v", what, i, items[i].Tags(), out[i], want)
	}
}
