package cupel

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestTagTableAgreesWithMap: the table gives each folded tag the id a map
// gives it (first appearance order) and keeps the names folded, under the
// fast and the strong hash and with the fast hash forced to collide, where
// it reports the overlong probe instead; for tags of every length around
// the 8-byte steps, the empty tag, bytes above 0x7f and case variants.
func TestTagTableAgreesWithMap(t *testing.T) {
	defer func(h func([]byte) uint64) { tagFastHash = h }(tagFastHash)
	r := rand.New(rand.NewPCG(25, 7))
	var vocab []string
	for n := range 26 {
		vocab = append(vocab, strings.Repeat("ab", n/2)+strings.Repeat("c", n%2))
	}
	vocab = append(vocab, "Tag", "TAG", "tag", "\xffx", "\xffX", "k", "\u212A", "x\x00", "x")
	for i := range 200 {
		vocab = append(vocab, fmt.Sprintf("t%d", i))
	}
	for _, c := range []struct {
		name    string
		hash    func([]byte) uint64
		strong  bool
		collide bool
	}{
		{"fast", fastTagHash, false, false},
		{"strong", fastTagHash, true, false},
		{"fast, all colliding", func([]byte) uint64 { return 7 }, false, true},
		{"strong, fast colliding", func([]byte) uint64 { return 7 }, true, false},
	} {
		tagFastHash = c.hash
		for trial := range 50 {
			var tt tagTable
			tt.reset(c.strong)
			want := map[string]int32{}
			failed := false
			for range 1 + r.IntN(600) {
				tag := vocab[r.IntN(min(len(vocab), 10+trial*5))]
				fold := []byte(tag)
				lowered := false
				for j, b := range fold {
					if 'A' <= b && b <= 'Z' {
						fold[j] = b + 'a' - 'A'
						lowered = true
					}
				}
				got := tt.intern(fold, tag, lowered)
				if got < 0 {
					if !c.collide {
						t.Fatalf("%s, trial %d: intern(%q) reported an overlong probe", c.name, trial, tag)
					}
					failed = true
					break
				}
				id, ok := want[string(fold)]
				if !ok {
					id = int32(len(want))
					want[string(fold)] = id
				}
				if got != id || tt.names[got] != string(fold) {
					t.Fatalf("%s, trial %d: intern(%q) = %d (name %q), want %d", c.name, trial, tag, got, tt.names[got], id)
				}
			}
			if c.collide && len(want) > tagProbeLimit+1 && !failed {
				t.Fatalf("%s, trial %d: %d colliding tags never reported an overlong probe", c.name, trial, len(want))
			}
		}
	}
}

// TestFrequencyScoresUnderTagHashCollisions: with the fast tag hash forced
// to collide, ScoreAll starts again with the strong hash and still gives
// the per-item scores.
func TestFrequencyScoresUnderTagHashCollisions(t *testing.T) {
	defer func(h func([]byte) uint64) { tagFastHash = h }(tagFastHash)
	tagFastHash = func([]byte) uint64 { return 7 }
	r := rand.New(rand.NewPCG(25, 8))
	items := make([]*ContextItem, 500)
	for i := range items {
		var tags []string
		for range r.IntN(5) {
			tags = append(tags, fmt.Sprintf("Tag%d", r.IntN(100)))
		}
		items[i] = MustItem(ItemSpec{Content: fmt.Sprint(i), Tokens: 1, Tags: tags})
	}
	var fsc FrequencyScorer
	out := make([]float64, len(items))
	fsc.ScoreAll(items, out)
	for i, it := range items {
		if want := fsc.Score(it, items); out[i] != want {
			t.Fatalf("item %d: ScoreAll %v, Score %v", i, out[i], want)
		}
	}
}
