package scorer

import "github.com/cupel-go/go-cupel/cupel/internal/keysort"

// countBySubsets is ScoreAll's path for items of at most three tags each
// from a small vocabulary, the usual shape (a few labels per item). It
// returns what countByGroups returns: for every item, the number of entries
// sharing a tag with it (0 for an item without tags), from the interned tag
// ids (ids[off[i]:off[i+1]] for items[i], numTags distinct). Every item has
// at most freqSubsetMaxPerItem tags and numTags <= freqSubsetMaxTags.
//
// By inclusion-exclusion, the number of entries sharing a tag with an item
// of tag set T is
//
//	sum over the non-empty subsets S of T of (-1)^(|S|+1) * c(S),
//
// c(S) being the number of entries whose tags include all of S. With at
// most three tags per entry, c(S) is needed for sets of one to three tags
// only, and every entry adds one to the at most seven subsets of its own
// set: O(N) work in three dense tables indexed by the combinatorial number
// system (subsetTables).
func (fs *freqScratch) countBySubsets(off, ids []int32, numTags int) []int32 {
	numItems := len(off) - 1
	sets := keysort.Resize(&fs.sets, numItems)
	c1, c2, c3 := subsetTables(keysort.Resize(&fs.subsets, subsetTableSize(numTags)), numTags)
	// Every entry adds one to c(S) for every non-empty subset S of its set.
	// (Both switches are written out in the loops: as methods called once
	// an item, they cost about 5% more of configuration C at 1,000 items.)
	for i := range sets {
		s := distinctTags3(ids[off[i]:off[i+1]])
		sets[i] = s
		switch s.k {
		case 1:
			c1[s.a]++
		case 2:
			c1[s.a]++
			c1[s.b]++
			c2[pairIndex(s.a, s.b)]++
		case 3:
			c1[s.a]++
			c1[s.b]++
			c1[s.c]++
			c2[pairIndex(s.a, s.b)]++
			c2[pairIndex(s.a, s.c)]++
			c2[pairIndex(s.b, s.c)]++
			c3[tripleIndex(s.a, s.b, s.c)]++
		}
	}
	// Inclusion-exclusion.
	count := keysort.Resize(&fs.count, numItems)
	for i, s := range sets {
		switch s.k {
		case 0:
			count[i] = 0
		case 1:
			count[i] = c1[s.a]
		case 2:
			count[i] = c1[s.a] + c1[s.b] - c2[pairIndex(s.a, s.b)]
		case 3:
			count[i] = c1[s.a] + c1[s.b] + c1[s.c] -
				c2[pairIndex(s.a, s.b)] - c2[pairIndex(s.a, s.c)] - c2[pairIndex(s.b, s.c)] +
				c3[tripleIndex(s.a, s.b, s.c)]
		}
	}
	return count
}

// The limits of countBySubsets: tags per item, and distinct tags, for which
// its tables hold t + C(t,2) + C(t,3) counters (5,488 at 32, 22 KiB).
const (
	freqSubsetMaxPerItem = 3
	freqSubsetMaxTags    = 32
)

// subsetsApply reports whether countBySubsets serves items of at most
// maxPerItem tags from numTags distinct ones.
func subsetsApply(maxPerItem, numTags int) bool {
	return maxPerItem <= freqSubsetMaxPerItem && numTags <= freqSubsetMaxTags
}

// tagSet3 is a set of k <= 3 distinct tag ids a < b < c (those past k are
// 0).
type tagSet3 struct{ a, b, c, k int32 }

// distinctTags3 returns the set of the tag ids tags (at most three).
func distinctTags3(tags []int32) tagSet3 {
	switch len(tags) {
	case 0:
		return tagSet3{}
	case 1:
		return tagSet3{tags[0], 0, 0, 1}
	case 2:
		a, b := min(tags[0], tags[1]), max(tags[0], tags[1])
		if a == b {
			return tagSet3{a, 0, 0, 1}
		}
		return tagSet3{a, b, 0, 2}
	}
	a, b, c := tags[0], tags[1], tags[2]
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
		return tagSet3{a, 0, 0, 1}
	case a == b:
		return tagSet3{a, c, 0, 2}
	case b == c:
		return tagSet3{a, b, 0, 2}
	}
	return tagSet3{a, b, c, 3}
}

// subsetTableSize is the number of counters of the subset tables for t
// tags.
func subsetTableSize(t int) int { return t + t*(t-1)/2 + t*(t-1)*(t-2)/6 }

// subsetTables clears buf, of subsetTableSize(t) counters, and cuts it into
// the tables of c(S) for the sets S of one, two and three of t tag ids:
// c1[a], c2[pairIndex(a, b)] and c3[tripleIndex(a, b, c)] for a < b < c.
func subsetTables(buf []int32, t int) (c1, c2, c3 []int32) {
	clear(buf)
	return buf[:t], buf[t : t+t*(t-1)/2], buf[t+t*(t-1)/2:]
}

// pairIndex and tripleIndex number the sets {a < b} and {a < b < c}.
func pairIndex(a, b int32) int32      { return a + b*(b-1)/2 }
func tripleIndex(a, b, c int32) int32 { return a + b*(b-1)/2 + c*(c-1)*(c-2)/6 }
