package cupel

// The subset path of FrequencyScorer.ScoreAll, for items of at most three
// tags each from a small vocabulary (the usual shape: a few labels per
// item). By inclusion-exclusion, the number of entries sharing a tag with
// an item of tag set T is
//
//	sum over the non-empty subsets S of T of (-1)^(|S|+1) * c(S),
//
// c(S) being the number of entries whose tags include all of S. With at
// most three tags per entry, c(S) is needed for sets of one to three tags
// only, and every entry adds one to the at most seven subsets of its own
// set: O(N) work in three dense tables indexed by the combinatorial
// number system, instead of the bitset path's N x tags x N/64 word
// operations. The counts are the same integers, so the scores are too.

// freqSubsetMaxTags bounds the vocabulary of the subset path: its tables
// hold 1 + t + C(t,2) + C(t,3) counters for t distinct tags (5,489 at 32).
const (
	freqSubsetMaxTags    = 32
	freqSubsetMaxPerItem = 3
)

// freqSubsetTableSize is the number of counters the subset path clears for
// numTags distinct tags.
func freqSubsetTableSize(numTags int) int {
	t := numTags
	return t + t*(t-1)/2 + t*(t-1)*(t-2)/6
}

// useFreqSubsets reports whether ScoreAll counts with the subset path:
// every item has at most freqSubsetMaxPerItem tag occurrences, the
// vocabulary is at most freqSubsetMaxTags, and clearing the tables costs
// no more than a few operations per item.
func useFreqSubsets(numItems, numTags, maxPerItem int) bool {
	return maxPerItem <= freqSubsetMaxPerItem && numTags <= freqSubsetMaxTags &&
		freqSubsetTableSize(numTags) <= 4*numItems
}

// sortedDistinct3 returns the distinct ids of tags (at most three), in
// ascending order, and how many there are.
func sortedDistinct3(tags []int32) (a, b, c int32, k int) {
	switch len(tags) {
	case 0:
		return 0, 0, 0, 0
	case 1:
		return tags[0], 0, 0, 1
	case 2:
		a, b = tags[0], tags[1]
		if a > b {
			a, b = b, a
		}
		if a == b {
			return a, 0, 0, 1
		}
		return a, b, 0, 2
	}
	a, b, c = tags[0], tags[1], tags[2]
	if a > b {
		a, b = b, a
	}
	if b > c {
		b, c = c, b
	}
	if a > b {
		a, b = b, a
	}
	switch {
	case a == b && b == c:
		return a, 0, 0, 1
	case a == b:
		return a, c, 0, 2
	case b == c:
		return a, b, 0, 2
	}
	return a, b, c, 3
}

// pairIndex and tripleIndex number the sets {a < b} and {a < b < c}.
func pairIndex(a, b int32) int32      { return a + b*(b-1)/2 }
func tripleIndex(a, b, c int32) int32 { return a + b*(b-1)/2 + c*(c-1)*(c-2)/6 }

// internTagSets interns the folded tags of items, every one of which has
// at most freqSubsetMaxPerItem tag occurrences (maxPerItem the most), and
// returns, for each item, its sorted distinct tag ids a < b < c and their
// number k packed as k | a<<8 | b<<16 | c<<24, with the number of distinct
// tags. It stops with ok false as soon as the vocabulary outgrows what
// useFreqSubsets accepts for these items; ScoreAll then takes another
// path, which goes on interning in the same table (internMore). It does
// the same if the fast hash probes too long, which cannot happen while
// the table holds at most freqSubsetMaxTags <= tagProbeLimit tags (a probe
// passes at most that many occupied slots); the other path handles it.
func (fs *freqScratch) internTagSets(items []*ContextItem, maxPerItem int) (sets []int32, numTags int, ok bool) {
	fs.tags.reset(false)
	sets = resize(&fs.itemGroup, len(items))
	limit := 0 // ids below limit keep the subset path
	for limit < freqSubsetMaxTags && useFreqSubsets(len(items), limit+1, maxPerItem) {
		limit++
	}
	for i, it := range items {
		var ids [freqSubsetMaxPerItem]int32
		k := 0
		if it != nil {
			for _, tag := range it.tags {
				id := fs.tags.hit(tag)
				if id < 0 {
					id = fs.tagID(tag)
				}
				if id < 0 || int(id) >= limit {
					return nil, 0, false
				}
				ids[k] = id
				k++
			}
		}
		a, b, c, k := sortedDistinct3(ids[:k])
		sets[i] = int32(k) | a<<8 | b<<16 | c<<24
	}
	return sets, len(fs.tags.names), true
}

// frequencyBySubsets writes the FrequencyScorer scores of items to out, as
// frequencyByBitsets does, by inclusion-exclusion over the subsets of each
// item's tags; sets[i] holds items[i]'s distinct tag ids as internTagSets
// packs them.
func frequencyBySubsets(fs *freqScratch, items []*ContextItem, sets []int32, numTags, n int, out []float64) {
	t := numTags
	counts := resize(&fs.subsets, freqSubsetTableSize(t))
	clear(counts)
	c1, c2, c3 := counts[:t], counts[t:t+t*(t-1)/2], counts[t+t*(t-1)/2:]
	for _, set := range sets {
		a, b, c := set>>8&0xff, set>>16&0xff, set>>24
		switch set & 0xff {
		case 1:
			c1[a]++
		case 2:
			c1[a]++
			c1[b]++
			c2[pairIndex(a, b)]++
		case 3:
			c1[a]++
			c1[b]++
			c1[c]++
			c2[pairIndex(a, b)]++
			c2[pairIndex(a, c)]++
			c2[pairIndex(b, c)]++
			c3[tripleIndex(a, b, c)]++
		}
	}
	mult := pointerMultiplicity(items)
	denom := float64(n - 1)
	for i, set := range sets {
		a, b, c := set>>8&0xff, set>>16&0xff, set>>24
		var count int32
		switch set & 0xff {
		case 0:
			continue
		case 1:
			count = c1[a]
		case 2:
			count = c1[a] + c1[b] - c2[pairIndex(a, b)]
		case 3:
			count = c1[a] + c1[b] + c1[c] -
				c2[pairIndex(a, b)] - c2[pairIndex(a, c)] - c2[pairIndex(b, c)] +
				c3[tripleIndex(a, b, c)]
		}
		self := int32(1)
		if mult != nil {
			self = mult[i]
		}
		out[i] = float64(count-self) / denom
	}
}
