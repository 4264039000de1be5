package cupel

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// TestDeduplicateUnderHashCollisions forces every content hash to collide
// (and, separately, to be a tiny range, or leaves it real) and checks the survivors against the
// spec's DEDUPLICATE with a map from content to best index.
func TestDeduplicateUnderHashCollisions(t *testing.T) {
	defer func(h func(string) uint64) { dedupHash = h }(dedupHash)
	reference := func(items []*ContextItem, scores []float64) []int {
		best := map[string]int{}
		for i, it := range items {
			if j, ok := best[it.content]; !ok || compareScoreDesc(scores[i], scores[j]) < 0 {
				best[it.content] = i
			}
		}
		var out []int
		for i, it := range items {
			if best[it.content] == i {
				out = append(out, i)
			}
		}
		return out
	}
	r := rand.New(rand.NewPCG(3, 4))
	hashes := map[string]func(string) uint64{
		"all collide": func(string) uint64 { return 42 },
		"two buckets": func(s string) uint64 { return uint64(len(s) % 2) },
		"real hash":   dedupHash,
	}
	// Small inputs use the hash table, those above dedupTableMaxItems the
	// sort of content hashes: both sides of the threshold are checked.
	sizes := []int{dedupTableMaxItems - 1, dedupTableMaxItems, dedupTableMaxItems + 1, dedupTableMaxItems + 300}
	for name, h := range hashes {
		dedupHash = h
		for trial := range 200 + len(sizes) {
			n := 1 + r.IntN(60)
			if trial >= 200 {
				n = sizes[trial-200]
			}
			items := make([]*ContextItem, n)
			scores := make([]float64, n)
			for i := range items {
				items[i] = MustItem(ItemSpec{Content: "c" + strconv.Itoa(r.IntN(n/2+1)), Tokens: 1})
				scores[i] = float64(r.IntN(4)) / 4
				if r.IntN(10) == 0 {
					scores[i] = math.NaN()
				}
			}
			ru := &run{p: &Pipeline{dedup: true}, sc: new(scratch)}
			got, _ := ru.deduplicate(items, scores)
			if want := reference(items, scores); !slices.Equal(got, want) {
				t.Fatalf("%s, trial %d: survivors %v, want %v", name, trial, got, want)
			}
		}
	}
}

// TestContentHashFollowsEveryConstructor builds items of one content by
// every way the package makes an item (NewItem, UnmarshalJSON, a copy by
// WithCountedTokens) and checks that deduplicate keeps only the best of
// them: an item whose cached content hash differed from the others' would
// survive beside them. The zero ContextItem (content "") is deduplicated
// with another zero item the same way.
func TestContentHashFollowsEveryConstructor(t *testing.T) {
	const content = "the same words"
	built := MustItem(ItemSpec{Content: content, Tokens: 3})
	var decoded ContextItem
	if err := decoded.UnmarshalJSON([]byte(`{"content":"` + content + `","tokens":5}`)); err != nil {
		t.Fatal(err)
	}
	counted, err := WithCountedTokens([]*ContextItem{built}, TokenCounterFunc(func(string) (int, error) { return 7, nil }))
	if err != nil {
		t.Fatal(err)
	}
	items := []*ContextItem{built, &decoded, counted[0], {}, {}}
	scores := []float64{0.1, 0.9, 0.5, 0.2, 0.3}
	for _, n := range []int{len(items), dedupTableMaxItems + 1} {
		// Past dedupTableMaxItems deduplicate sorts the hashes instead of
		// probing a table: pad with distinct contents to take that path.
		in, sc := slices.Clone(items), slices.Clone(scores)
		for i := len(in); i < n; i++ {
			in = append(in, MustItem(ItemSpec{Content: "pad " + strconv.Itoa(i), Tokens: 1}))
			sc = append(sc, 0)
		}
		ru := &run{p: &Pipeline{dedup: true}, sc: new(scratch)}
		got, err := ru.deduplicate(in, sc)
		if err != nil {
			t.Fatal(err)
		}
		if want := []int{1, 4}; !slices.Equal(got[:2], want) || len(got) != n-3 {
			t.Fatalf("n=%d: survivors start %v (of %d), want %v (of %d): the decoded item and the better zero item", n, got[:min(len(got), 4)], len(got), want, n-3)
		}
	}
}
