package explore

import (
	"slices"
	"strconv"
	"strings"

	"github.com/cupel-go/go-cupel/runner/casefile"
)

// go-cupel's sorts change algorithm with the input's size: sortKeyIdx
// (cupel/sort_radix.go, fewRadixPasses) takes the radix sort from about
// 1,000 records for keys that differ in few bytes (priorities, ranks) and
// from about 4,000 for keys that differ in all eight (scores, densities).
// The generator reaches beyond both, rarely: a case of thousands of items
// costs as much as hundreds of small ones, and the paths past the
// thresholds differ from the small ones in how they sort, not in what
// they decide, so a few cases of each kind in every 20,000 are enough to
// compare them.
const (
	// exploreRadixItems is about where keys that differ in few bytes start
	// to be sorted by radix.
	exploreRadixItems = 1024
	// exploreTableItems is about where keys that differ in all eight bytes
	// start to be sorted by radix. (Up to issue 35 it was also the largest
	// input go-cupel deduplicated with a table and scored by frequency with
	// bitsets; both thresholds are gone.)
	exploreTableItems = 4096
	// explorePipelineItems is the smallest size of a pipeline case beyond
	// exploreTableItems (largeSize).
	explorePipelineItems = 4900
	// exploreMaxItems is the largest case the generator makes.
	exploreMaxItems = 5600
)

// genLongKind is a kind of 65 bytes, one more than go-cupel folds in a
// stack buffer (cupel/scorer/kind.go): a kind no scorer or quota names by
// default, like any unusual kind a caller may use.
var genLongKind = "Note-" + strings.Repeat("Long", 15)

// Coverage features of the sizes beyond the engine's thresholds.
const (
	featureRadixItems = "1,024+ items (radix sort)"
	featureTableItems = "4,097+ items (radix sort of scores)"
)

// largeSize is the size of one case in a hundred, the large ones. Of
// those, one in fifty (1 in 5,000 cases) has more than exploreTableItems
// items, and two in fifty (1 in 2,500) from exploreRadixItems to twice that
// (the radix sort of few-byte keys); the rest have 81 to 300 items.
//
// Pipeline cases go beyond exploreTableItems three times as often, with
// 4,900 items or more: the pipeline deduplicates and scores the items left
// after classification (not pinned, tokens not negative: about 86 % of
// them), and their count must be past the threshold. Scoring cases stay at
// 300 items or fewer: the scoring stage compares every item's score
// computed alone (the spec's pseudocode), which for the frequency and
// recency scorers looks at every other item, so a scoring case of
// thousands of items costs seconds where a pipeline case costs
// milliseconds; pipeline cases reach the same batch scoring.
func (g *exploreGen) largeSize(stage string) int {
	q := g.r.IntN(50)
	switch {
	case stage == casefile.StageScoring:
	case stage == casefile.StagePipeline && q < 3:
		return explorePipelineItems + g.r.IntN(exploreMaxItems-explorePipelineItems+1)
	case q == 0:
		return exploreTableItems + 1 + g.r.IntN(explorePipelineItems-exploreTableItems)
	case q < 3 || (stage == casefile.StagePipeline && q < 5):
		return exploreRadixItems + g.r.IntN(exploreRadixItems)
	}
	return 81 + g.r.IntN(220)
}

// genWideTags are the tags of half the large cases: more than 64 distinct
// tags, past which the engine's tag-group walk keys groups by their sorted
// tag ids instead of a bit mask.
var genWideTags = func() []string {
	out := slices.Clone(genTags)
	for i := range 100 {
		out = append(out, "t"+strconv.Itoa(i))
	}
	return out
}()

// largeShares are the percentages of items with content duplicated from an
// earlier item and of items with tags, and the tags to draw from, in a case
// of n items: in the large cases more duplicates and tags, and half the
// time genWideTags, since deduplication groups and tag frequencies are what
// the paths beyond the thresholds compute differently.
func (g *exploreGen) largeShares(n int) (dup, tagged int, tags []string) {
	switch {
	case n < exploreRadixItems:
		return 8, 30, genTags
	case g.chance(50):
		return 25, 60, genWideTags
	}
	return 25, 60, genTags
}

// largeScorer is the frequency scorer for every pipeline case beyond
// exploreTableItems and half of those of exploreRadixItems items or more:
// the engine computes it by bitsets up to exploreTableItems items and by
// walking tag groups above. The other scorers score each item alone, and
// their large cases differ from small ones only in the sort that follows.
func (g *exploreGen) largeScorer(n int) (string, bool) {
	if n < exploreRadixItems || !slices.Contains(g.leaves, "frequency") || (n <= exploreTableItems && !g.chance(50)) {
		return "", false
	}
	return "frequency", true
}
