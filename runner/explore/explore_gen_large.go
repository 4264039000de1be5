package explore

// go-cupel changes algorithm at two input sizes. The generator reaches
// beyond both, rarely: a case of thousands of items costs as much as
// hundreds of small ones, and the paths past the thresholds differ from
// the small ones in how they sort and group, not in what they decide, so
// a few cases of each kind in every 20,000 are enough to compare them.
const (
	// exploreRadixItems is the number of keys from which go-cupel sorts by
	// radix instead of by introsort (radixThreshold, cupel/sortkey.go).
	exploreRadixItems = 1024
	// exploreTableItems is the largest input go-cupel deduplicates with an
	// open-addressing table (dedupTableMaxItems, cupel/dedup_table.go) and
	// scores by frequency with bitsets (freqBitsetMaxItems,
	// cupel/scorer_frequency.go); above, it sorts content hashes and walks
	// tag groups.
	exploreTableItems = 4096
	// exploreMaxItems is the largest case the generator makes.
	exploreMaxItems = 5000
)

// Coverage features of the sizes beyond the engine's thresholds.
const (
	featureRadixItems = "1,024+ items (radix sort)"
	featureTableItems = "4,097+ items (no dedup table, no bitsets)"
)

// largeSize is the size of one case in a hundred, the large ones: one in
// fifty of those (1 in 5,000 cases) has more than exploreTableItems items,
// two in fifty (1 in 2,500) from exploreRadixItems to twice that (the
// radix sort, and still the table and the bitsets), the rest from 81 to
// 300.
func (g *exploreGen) largeSize() int {
	switch q := g.r.IntN(50); {
	case q == 0:
		return exploreTableItems + 1 + g.r.IntN(exploreMaxItems-exploreTableItems)
	case q < 3:
		return exploreRadixItems + g.r.IntN(exploreRadixItems)
	}
	return 81 + g.r.IntN(220)
}

// largeShares are the percentages of items with content duplicated from an
// earlier item and of items with tags, in a case of n items: higher in the
// large cases, where deduplication groups and tag frequencies are what the
// paths beyond the thresholds compute differently.
func largeShares(n int) (dup, tagged int) {
	if n >= exploreRadixItems {
		return 25, 60
	}
	return 8, 30
}
