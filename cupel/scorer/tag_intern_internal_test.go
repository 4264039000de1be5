package scorer

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
)

// TestInternTagsAgreesWithMap: internTags gives every tag occurrence the
// id a map of ASCII-lower-cased tags (ContextKind.Key) gives it (first appearance order), keeps
// every item's tags in order with repeats, and reports the number of
// distinct folded tags and the most tags of an item; for shared strings,
// fresh copies of equal strings, prefixes of one string, the empty tag,
// case variants and non-ASCII tags (only ASCII folds: "É" and "é" differ,
// as do "K" and the Kelvin sign), with nil entries, and more distinct
// strings than the cache in front of the map has entries, so that entries
// collide and are replaced. The same scratch,
// returned to its state after put, interns the next input from id 0.
func TestInternTagsAgreesWithMap(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 9))
	long := "Tag-0123456789-ABCDEFGHIJ"
	vocab := []string{"", "k", "K", "\u212A", "é", "É", "\xffA", "\xffa", "tag", "TAG", "Tag", long}
	for k := range len(long) + 1 {
		vocab = append(vocab, long[:k])
	}
	for i := range tagCacheSize { // more strings than cache entries
		vocab = append(vocab, fmt.Sprintf("t%d", i), fmt.Sprintf("T%d", i))
	}
	fs := new(freqScratch)
	for trial := range 30 {
		items := make([]*cupel.ContextItem, r.IntN(1500))
		for i := range items {
			if r.IntN(20) == 0 {
				continue
			}
			var tags []string
			for range r.IntN(6) {
				tag := vocab[r.IntN(len(vocab))]
				if r.IntN(4) == 0 {
					tag = strings.Clone(tag) // equal bytes, distinct data
				}
				tags = append(tags, tag)
			}
			items[i] = cupel.MustItem(cupel.ItemSpec{Content: fmt.Sprint(i), Tokens: 1, Tags: tags})
		}
		off, ids, numTags, maxPer := fs.internTags(items)
		want, wantMax := map[string]int32{}, 0
		for i, it := range items {
			got := ids[off[i]:off[i+1]]
			var tags []string
			if it != nil {
				tags = it.Tags()
			}
			if len(got) != len(tags) {
				t.Fatalf("trial %d: item %d has %d ids for %d tags", trial, i, len(got), len(tags))
			}
			wantMax = max(wantMax, len(tags))
			for j, tag := range tags {
				id, seen := want[cupel.ContextKind(tag).Key()]
				if !seen {
					id = int32(len(want))
					want[cupel.ContextKind(tag).Key()] = id
				}
				if got[j] != id {
					t.Fatalf("trial %d: item %d tag %q has id %d, want %d", trial, i, tag, got[j], id)
				}
			}
		}
		if numTags != len(want) || maxPer != wantMax {
			t.Fatalf("trial %d: %d distinct tags, %d at most per item; want %d, %d", trial, numTags, maxPer, len(want), wantMax)
		}
		fs.release() // as put does after a run
	}
}

// TestFreqScratchReleaseDropsStrings: a scratch released to the pool holds no
// tag string of the items it served, in its map or its cache, nor a group
// key.
func TestFreqScratchReleaseDropsStrings(t *testing.T) {
	items := []*cupel.ContextItem{
		cupel.MustItem(cupel.ItemSpec{Content: "a", Tokens: 1, Tags: []string{"a", "B", "c", "d"}}),
		cupel.MustItem(cupel.ItemSpec{Content: "b", Tokens: 1, Tags: []string{"a"}}),
	}
	fs := new(freqScratch)
	off, ids, numTags, _ := fs.internTags(items)
	fs.countByGroups(off, ids, numTags)
	if len(fs.tagIDs) == 0 || len(fs.groupOf) == 0 {
		t.Fatalf("the scratch interned %d tags and %d groups, want some", len(fs.tagIDs), len(fs.groupOf))
	}
	fs.release()
	if len(fs.tagIDs) != 0 || len(fs.groupOf) != 0 {
		t.Fatalf("after release the scratch holds %d tags and %d groups, want none", len(fs.tagIDs), len(fs.groupOf))
	}
	for i, e := range fs.cache {
		if e != (tagCacheEntry{}) {
			t.Fatalf("after release cache entry %d holds %q", i, e.tag)
		}
	}
}
