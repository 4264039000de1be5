package scorer

import (
	"cmp"
	"encoding/binary"
	"slices"
	"sync"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/internal/keysort"
)

// ScoreAll is the batch path of [Frequency.Score]: it writes
// Score(items[i], items) into out[i] for every i, the same float64 bits,
// without comparing items pairwise.
//
// For an item with tags, Score divides the number of peers sharing a tag
// with it by n - 1, n being the number of non-nil entries. Every entry
// holding the same pointer as the item holds its tags, so that number is
// count - self, where count is the number of entries sharing a tag with the
// item (itself included) and self the number of occurrences of its pointer
// (pointerMultiplicity). ScoreAll interns the ASCII-folded tags
// (internTags) and computes count with one of two algorithms, forking once:
//
//   - every item has at most freqSubsetMaxPerItem (3) tags, from at most
//     freqSubsetMaxTags (32) distinct folded tags: countBySubsets, by
//     inclusion-exclusion over the subsets of each item's tags, O(N);
//   - otherwise countByGroups, which works for any input, over the groups
//     of items with equal tag sets.
//
// Both count the same integers, and the division is Score's, so the
// results are equal. TestFrequencyScoreAllAgreesWithSpec checks it on
// random inputs on both sides of both limits (3 against 4 tags per item,
// 32 against 33 distinct tags), with case variants, repeated tags, tagless
// items, nil entries and repeated pointers; TestInternTagsAgreesWithMap
// checks the interning, cache included. BenchmarkFrequencyScoreAll
// compares the paths: the grouped walk is 27x (100 items) to 500x (10,000)
// faster than Score per item, the subset path 1.6x to 3.6x faster than
// the grouped walk on its inputs.
func (*Frequency) ScoreAll(items []*cupel.ContextItem, out []float64) {
	n := 0
	for i, it := range items {
		out[i] = 0.0
		if it != nil {
			n++
		}
	}
	if n <= 1 {
		return
	}
	fs := freqScratchPool.Get().(*freqScratch)
	defer fs.put()
	off, ids, numTags, maxPerItem := fs.internTags(items)
	if numTags == 0 {
		return
	}
	var count []int32
	if subsetsApply(maxPerItem, numTags) {
		count = fs.countBySubsets(off, ids, numTags)
	} else {
		count = fs.countByGroups(off, ids, numTags)
	}
	writeFrequencyScores(items, off, count, n, out)
}

// writeFrequencyScores writes into out[i] (count[i] - self) / (n - 1) for
// every items[i] with tags (off[i] < off[i+1]), self being the number of
// occurrences of items[i]'s pointer, and leaves the other entries.
func writeFrequencyScores(items []*cupel.ContextItem, off, count []int32, n int, out []float64) {
	mult := pointerMultiplicity(items) // nil when no pointer repeats
	denom := float64(n - 1)
	for i := range items {
		if off[i] == off[i+1] { // nil or without tags
			continue
		}
		self := int32(1)
		if mult != nil {
			self = mult[i]
		}
		out[i] = float64(count[i]-self) / denom
	}
}

// countByGroups returns, for every item, the number of entries of items
// sharing a tag with it (0 for an item without tags), from the interned
// tag ids (ids[off[i]:off[i+1]] for items[i], numTags distinct). Any
// input: it is ScoreAll's path when countBySubsets does not apply.
//
// It groups the items by their set of distinct tags (items with equal sets
// get equal counts) and lists, for every tag, the groups holding it. For a
// group S, the entries sharing a tag with S are the union over the tags t
// of S of the entries holding t. It counts that union without double
// counting: it orders S's tags by decreasing list length, takes the
// entries holding the first tag from a precomputed total, and for each
// later tag adds the groups holding it that hold none of S's earlier tags.
//
// For N items with T tag occurrences and G distinct tag sets, that is
// O(N + T) to group, then, for every set S and every tag of S but its most
// frequent, a check per group holding that tag: linear when items carry a
// few tags from a small vocabulary, or share one dominant tag, and O(G^2)
// checks at worst. An exact method that is sub-quadratic in general is not
// expected to exist: deciding whether some two items share no tag is the
// Orthogonal Vectors problem.
func (fs *freqScratch) countByGroups(off, ids []int32, numTags int) []int32 {
	numItems := len(off) - 1
	if fs.groupOf == nil {
		fs.groupOf = make(map[string]int32)
	}
	// Group the items: group g has gCount[g] entries and the distinct tags
	// gTags[gOff[g]:gOff[g+1]], ascending; itemGroup[i] is items[i]'s
	// group, -1 for an item without tags.
	var (
		itemGroup = keysort.Resize(&fs.itemGroup, numItems)
		gOff      = append(fs.gOff[:0], 0)
		gTags     = fs.gTags[:0]
		gCount    = fs.gCount[:0]
		set       = fs.set[:0]
		key       = fs.key[:0]
	)
	for i := range numItems {
		itemGroup[i] = -1
		if off[i] == off[i+1] {
			continue
		}
		set = append(set[:0], ids[off[i]:off[i+1]]...)
		slices.Sort(set)
		set = slices.Compact(set)
		key = key[:0]
		for _, t := range set {
			key = binary.LittleEndian.AppendUint32(key, uint32(t))
		}
		g, ok := fs.groupOf[string(key)]
		if !ok {
			g = int32(len(gCount))
			fs.groupOf[string(key)] = g
			gTags = append(gTags, set...)
			gOff = append(gOff, int32(len(gTags)))
			gCount = append(gCount, 0)
		}
		gCount[g]++
		itemGroup[i] = g
	}
	fs.gOff, fs.gTags, fs.gCount, fs.set, fs.key = gOff, gTags, gCount, set, key
	numGroups := len(gCount)

	// The groups holding tag t are tGroups[tOff[t]:tOff[t+1]]; withTag[t] is
	// the number of entries holding t.
	tOff := keysort.Resize(&fs.tOff, numTags+1)
	withTag := keysort.Resize(&fs.withTag, numTags)
	clear(tOff)
	clear(withTag)
	for g := range numGroups {
		for _, t := range gTags[gOff[g]:gOff[g+1]] {
			tOff[t+1]++
			withTag[t] += gCount[g]
		}
	}
	for t := range numTags {
		tOff[t+1] += tOff[t]
	}
	tGroups := keysort.Resize(&fs.tGroups, len(gTags))
	next := keysort.Resize(&fs.next, numTags)
	copy(next, tOff[:numTags])
	for g := range numGroups {
		for _, t := range gTags[gOff[g]:gOff[g+1]] {
			tGroups[next[t]] = int32(g)
			next[t]++
		}
	}

	// For every group S, the entries sharing a tag with it.
	shared := keysort.Resize(&fs.shared, numGroups)
	marked := keysort.Resize(&fs.marked, numTags) // S's tags counted so far
	clear(marked)
	listLen := func(t int32) int32 { return tOff[t+1] - tOff[t] }
	byListLen := func(x, y int32) int { // most frequent first, ties by id
		if c := cmp.Compare(listLen(y), listLen(x)); c != 0 {
			return c
		}
		return cmp.Compare(x, y)
	}
	for g := range numGroups {
		tags := append(set[:0], gTags[gOff[g]:gOff[g+1]]...)
		slices.SortFunc(tags, byListLen)
		count := withTag[tags[0]]
		marked[tags[0]] = true
		for _, t := range tags[1:] {
			for _, h := range tGroups[tOff[t]:tOff[t+1]] {
				if !holdsMarked(gTags[gOff[h]:gOff[h+1]], marked) {
					count += gCount[h]
				}
			}
			marked[t] = true
		}
		for _, t := range tags {
			marked[t] = false
		}
		shared[g] = count
	}

	count := keysort.Resize(&fs.count, numItems)
	for i, g := range itemGroup {
		count[i] = 0
		if g >= 0 {
			count[i] = shared[g]
		}
	}
	return count
}

// holdsMarked reports whether some tag of tags is marked.
func holdsMarked(tags []int32, marked []bool) bool {
	for _, t := range tags {
		if marked[t] {
			return true
		}
	}
	return false
}

// freqScratch holds the buffers of one Frequency.ScoreAll call, so
// that a scorer serving run after run allocates nothing in the common case
// (tags already lower case, seen in an earlier run's table size).
type freqScratch struct {
	tagIDs    map[string]int32 // internTags: folded tag -> id
	cache     [tagCacheSize]tagCacheEntry
	cacheUsed bool // an entry of cache may be set
	fold      []byte
	off       []int32
	ids       []int32
	count     []int32
	subsets   []int32 // countBySubsets
	sets      []tagSet3
	groupOf   map[string]int32 // countByGroups: tag set -> group
	key       []byte
	set       []int32
	marked    []bool

	itemGroup, gOff, gTags, gCount, tOff, withTag, tGroups, next, shared []int32
}

var freqScratchPool = sync.Pool{New: func() any { return new(freqScratch) }}

// put returns fs to the pool, released; buffers grown past
// keysort.MaxScratchItems are left to the collector.
func (fs *freqScratch) put() {
	if len(fs.off) > keysort.MaxScratchItems {
		return
	}
	fs.release()
	freqScratchPool.Put(fs)
}

// release drops the strings fs holds, the items' tags and the group keys,
// so that a pooled scratch keeps no item's strings alive.
func (fs *freqScratch) release() {
	clear(fs.tagIDs)
	if fs.cacheUsed {
		clear(fs.cache[:])
		fs.cacheUsed = false
	}
	clear(fs.groupOf)
}
