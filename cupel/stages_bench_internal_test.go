package cupel

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/cupel-go/go-cupel/cupel/internal/keysort"
)

// The benchmarks of this file decide which fast paths of the Deduplicate
// and Sort stages, and of the helpers they share with the components, stay:
// each times the spec function (sub-benchmark "spec") and the fast path
// ("fast", or one per algorithm) at 100, 1,000, 10,000 and 100,000 items in
// the same run. Run them with
//
//	go test ./cupel -run XXX -bench 'Deduplicate|Sort|SortByScore' -count 1

var stageBenchSizes = []int{100, 1000, 10000, 100000}

// dedupBenchInput is n items of which about one in ten repeats the content
// of an earlier one, with scores in a hundred levels (so that ties happen),
// each with two tags of twenty.
func dedupBenchInput(n int) ([]*ContextItem, []float64) {
	r := rand.New(rand.NewPCG(35, uint64(n)))
	items := make([]*ContextItem, n)
	scores := make([]float64, n)
	for i := range items {
		c := i
		if i > 0 && r.IntN(10) == 0 {
			c = r.IntN(i)
		}
		tags := []string{"tag-" + strconv.Itoa(r.IntN(20)), "tag-" + strconv.Itoa(r.IntN(20))}
		items[i] = MustItem(ItemSpec{Content: "item " + strconv.Itoa(c) + " of the benchmark input", Tokens: 1, Tags: tags})
		scores[i] = float64(r.IntN(100)) / 100
	}
	return items, scores
}

func BenchmarkDeduplicate(b *testing.B) {
	for _, n := range stageBenchSizes {
		items, scores := dedupBenchInput(n)
		ru := &run{p: &Pipeline{dedup: true}, sc: new(scratch)}
		for _, alg := range []struct {
			name string
			f    func([]*ContextItem, []float64) ([]int, error)
		}{
			{"spec", ru.dedupSpec},
			{"fast", ru.dedupByTable},
		} {
			b.Run("N="+strconv.Itoa(n)+"/"+alg.name, func(b *testing.B) {
				for b.Loop() {
					if _, err := alg.f(items, scores); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// sortBenchKeys are n records in idx order whose keys have the given shape.
func sortBenchKeys(shape string, n int) []keysort.KeyIdx {
	r := rand.New(rand.NewPCG(35, uint64(n)))
	k := make([]keysort.KeyIdx, n)
	for i := range k {
		var key uint64
		switch shape {
		case "scores": // composite scores: all eight bytes vary
			key = keysort.DescKey(r.Float64())
		case "seconds": // recency keys in seconds over a month: three bytes vary
			key = uint64(1_767_225_600+r.Int64N(30*24*3600)) ^ (1 << 63)
		case "priorities": // one byte varies
			key = uint64(r.Int64N(11)) ^ (1 << 63)
		case "sorted":
			key = uint64(i / 3)
		}
		k[i] = keysort.KeyIdx{Key: key, Idx: i}
	}
	return k
}

func BenchmarkSortKeyIdx(b *testing.B) {
	for _, shape := range []string{"scores", "seconds", "priorities", "sorted"} {
		for _, n := range stageBenchSizes {
			keys := sortBenchKeys(shape, n)
			work := make([]keysort.KeyIdx, n)
			for _, alg := range []struct {
				name string
				f    func([]keysort.KeyIdx)
			}{
				{"spec", func(k []keysort.KeyIdx) { slices.SortFunc(k, keysort.Cmp) }},
				{"fast", keysort.Sort},
				{"introsort", keysort.IntroSortKeyIdx},
				{"radix", func(k []keysort.KeyIdx) { _ = keysort.RadixSortKeyIdx(k, keysort.VaryingBits(k), nil) }},
			} {
				b.Run(shape+"/N="+strconv.Itoa(n)+"/"+alg.name, func(b *testing.B) {
					for b.Loop() {
						copy(work, keys)
						alg.f(work)
					}
				})
			}
		}
	}
}

// BenchmarkSortByScore times the Sort stage: "spec" is the spec's SORT
// with a comparator (a stable sort by keysort.CompareScoreDesc), "fast" is
// sortByScore.
func BenchmarkSortByScore(b *testing.B) {
	for _, n := range stageBenchSizes {
		items, scores := dedupBenchInput(n)
		for i := range scores {
			scores[i] = rand.New(rand.NewPCG(1, uint64(i))).Float64()
		}
		survivors := make([]int, n)
		for i := range survivors {
			survivors[i] = i
		}
		sorted := make([]ScoredItem, n)
		b.Run("N="+strconv.Itoa(n)+"/spec", func(b *testing.B) {
			keys := make([]int, n)
			for b.Loop() {
				copy(keys, survivors)
				slices.SortStableFunc(keys, func(a, b int) int { return keysort.CompareScoreDesc(scores[a], scores[b]) })
				for k, i := range keys {
					sorted[k] = ScoredItem{Item: items[i], Score: scores[i]}
				}
			}
		})
		b.Run("N="+strconv.Itoa(n)+"/fast", func(b *testing.B) {
			for b.Loop() {
				if _, err := sortByScore(sorted, items, scores, survivors, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
