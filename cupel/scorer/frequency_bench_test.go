package scorer

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
)

// BenchmarkFrequencyScoreAll measures Frequency's paths at N = 100,
// 1,000, 10,000 and 100,000 items, on two shapes of tags:
//
//   - labels: 1 to 3 tags from 20, some upper case, the shape of the
//     pipeline benchmarks (configuration C); ScoreAll counts by subsets;
//   - wide: 0 to 6 tags from 300, where ScoreAll counts by groups; about
//     as many tag sets as items, the grouped walk's quadratic side (not
//     run at 100,000: some 40 s a run).
//
// Sub-benchmarks: spec calls Score once per item (skipped at 100,000, a
// quadratic 10^10 tag comparisons); fast is ScoreAll; groups is ScoreAll
// with countByGroups forced, the path without the subset algorithm.
func BenchmarkFrequencyScoreAll(b *testing.B) {
	shapes := []struct {
		name           string
		vocab, perItem int
		minTags        int
	}{
		{"labels", 20, 3, 1},
		{"wide", 300, 6, 0},
	}
	for _, sh := range shapes {
		for _, n := range []int{100, 1000, 10000, 100000} {
			items := freqBenchItems(n, sh.vocab, sh.minTags, sh.perItem)
			out := make([]float64, n)
			var f Frequency
			b.Run(fmt.Sprintf("%s/N=%d", sh.name, n), func(b *testing.B) {
				if sh.name == "wide" && n > 10000 {
					b.Skip("the grouped walk's quadratic side: some 40 s a run")
				}
				b.Run("spec", func(b *testing.B) {
					if n > 10000 {
						b.Skip("quadratic: about 10^10 tag comparisons a run")
					}
					for b.Loop() {
						for i, it := range items {
							out[i] = f.Score(it, items)
						}
					}
				})
				b.Run("fast", func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						f.ScoreAll(items, out)
					}
				})
				b.Run("groups", func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						scoreAllByGroups(items, out)
					}
				})
			})
		}
	}
}

// scoreAllByGroups is Frequency.ScoreAll with countByGroups for
// every input; the items are not nil.
func scoreAllByGroups(items []*cupel.ContextItem, out []float64) {
	clear(out)
	fs := freqScratchPool.Get().(*freqScratch)
	defer fs.put()
	off, ids, numTags, _ := fs.internTags(items)
	writeFrequencyScores(items, off, fs.countByGroups(off, ids, numTags), len(items), out)
}

// freqBenchItems builds n items deterministically with minTags to
// maxTags tags each from a vocabulary of vocab, a quarter of them upper
// case.
func freqBenchItems(n, vocab, minTags, maxTags int) []*cupel.ContextItem {
	r := rand.New(rand.NewPCG(35, uint64(n)))
	names := make([]string, vocab)
	for i := range names {
		names[i] = "tag-" + strconv.Itoa(i)
	}
	items := make([]*cupel.ContextItem, n)
	for i := range items {
		var tags []string
		for range minTags + r.IntN(maxTags-minTags+1) {
			tag := names[r.IntN(vocab)]
			if r.IntN(4) == 0 {
				tag = strings.ToUpper(tag)
			}
			tags = append(tags, tag)
		}
		items[i] = cupel.MustItem(cupel.ItemSpec{Content: "item " + strconv.Itoa(i), Tokens: 1, Tags: tags})
	}
	return items
}
