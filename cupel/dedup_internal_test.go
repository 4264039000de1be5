package cupel

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// itemEvents is a TraceCollector keeping the item events it is given.
type itemEvents []TraceEvent

func (*itemEvents) Enabled() bool               { return true }
func (*itemEvents) RecordStageEvent(TraceEvent) {}
func (e *itemEvents) RecordItemEvent(ev TraceEvent) {
	*e = append(*e, ev)
}

// TestDeduplicateTableAgreesWithSpec is the differential test of
// dedup_table.go: on random inputs of 0 to 60 items and of 1,000 and 6,000
// items, with few or many distinct contents, tied and NaN scores, and with
// content hashes that are real, all equal or two-valued (so that the
// table's probes meet collisions), dedupByTable returns the survivors of
// dedupSpec and records the same exclusions in the same order; deduplicate
// takes dedupByTable when deduplication is on and keeps every item when
// it is off.
func TestDeduplicateTableAgreesWithSpec(t *testing.T) {
	defer func(h func(string) uint64) { dedupHash = h }(dedupHash)
	r := rand.New(rand.NewPCG(3, 4))
	hashes := []struct {
		name string
		hash func(string) uint64
	}{
		{"real hash", dedupHash},
		{"all collide", func(string) uint64 { return 42 }},
		{"two values", func(s string) uint64 { return uint64(len(s) % 2) }},
	}
	for _, h := range hashes {
		dedupHash = h.hash
		for trial := range 302 {
			n := r.IntN(61)
			switch trial {
			case 300:
				n = 1000
			case 301:
				n = 6000
			}
			distinct := 1 + r.IntN(n+1)
			items := make([]*ContextItem, n)
			scores := make([]float64, n)
			for i := range items {
				items[i] = MustItem(ItemSpec{Content: "c" + strconv.Itoa(r.IntN(distinct)), Tokens: 1})
				scores[i] = float64(r.IntN(4)) / 4
				if r.IntN(10) == 0 {
					scores[i] = math.NaN()
				}
			}
			var specEvents, tableEvents itemEvents
			spec := &run{p: &Pipeline{dedup: true}, sc: new(scratch), trace: &specEvents}
			want, err := spec.dedupSpec(items, scores)
			if err != nil {
				t.Fatal(err)
			}
			table := &run{p: &Pipeline{dedup: true}, sc: new(scratch), trace: &tableEvents}
			got, err := table.deduplicate(items, scores)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s, trial %d (n %d): survivors %v, want %v", h.name, trial, n, got, want)
			}
			if len(want)+len(specEvents) != n {
				t.Fatalf("%s, trial %d: %d survivors and %d exclusions of %d items", h.name, trial, len(want), len(specEvents), n)
			}
			if !slices.EqualFunc(tableEvents, specEvents, func(a, b TraceEvent) bool {
				return a.Item == b.Item && a.Stage == b.Stage && a.Exclusion == b.Exclusion && math.Float64bits(a.Score) == math.Float64bits(b.Score)
			}) {
				t.Fatalf("%s, trial %d: the table records other exclusions than the spec", h.name, trial)
			}
			off := &run{p: &Pipeline{dedup: false}, sc: new(scratch)}
			if all, _ := off.deduplicate(items, scores); len(all) != n {
				t.Fatalf("%s, trial %d: deduplication off keeps %d of %d items", h.name, trial, len(all), n)
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
	for _, n := range []int{len(items), 6000} {
		// Pad with distinct contents: a larger table.
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
