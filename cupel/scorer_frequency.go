package cupel

import (
	"cmp"
	"encoding/binary"
	"math/bits"
	"slices"
	"sync"
)

// FrequencyScorer scores an item by the proportion of its peers that share
// at least one tag with it: matching / (length(allItems) - 1) (spec chapter
// 18 (FrequencyScorer)).
//
// Tags compare with ASCII case folding only (ruling 15): "Important"
// matches "important", but "K" does not match the Kelvin sign U+212A. The
// item itself is skipped by pointer identity (ruling 14): every
// occurrence of the same *ContextItem in allItems is skipped, while a
// distinct item with equal content counts as a peer. The denominator is
// always length(allItems) - 1, not reduced for skipped occurrences or
// tagless peers. An item without tags, or a list of at most one item, scores
// 0.0.
//
// A nil item scores 0, and nil entries of allItems are ignored as if absent
// (they count neither as peers nor in the denominator). The zero value is
// ready to use; a FrequencyScorer is safe for concurrent use.
type FrequencyScorer struct{}

// NewFrequencyScorer returns a FrequencyScorer.
func NewFrequencyScorer() *FrequencyScorer { return &FrequencyScorer{} }

// Score implements FREQUENCY-SCORE of spec chapter 18 (FrequencyScorer):
// O(N * T^2) per item for N items of T tags.
func (*FrequencyScorer) Score(item *ContextItem, allItems []*ContextItem) float64 {
	if item == nil || len(item.tags) == 0 {
		return 0.0
	}
	n, matching := 0, 0
	for _, other := range allItems {
		if other == nil {
			continue
		}
		n++
		if other == item || len(other.tags) == 0 {
			continue
		}
		if sharesAnyTag(item.tags, other.tags) {
			matching++
		}
	}
	if n <= 1 {
		return 0.0
	}
	return float64(matching) / float64(n-1)
}

// sharesAnyTag is SHARES-ANY-TAG: whether some tag of a equals some tag of b
// under ASCII case folding.
func sharesAnyTag(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if asciiEqualFold(x, y) {
				return true
			}
		}
	}
	return false
}

// ScoreAll computes every item's score without comparing items pairwise.
//
// Items of at most three tags from at most 32 distinct ones are counted by
// inclusion-exclusion over the subsets of each item's tags
// (frequencyBySubsets), and up to a few thousand items with bitsets
// (frequencyByBitsets); otherwise as follows.
//
// It interns the folded tags, then groups the items by their set of distinct
// folded tags (items with equal sets get equal counts; with at most 64
// distinct tags a set is a bit mask) and builds, for every tag, the list of
// groups holding it. For a group S it counts the entries that share a tag
// with S, the union over the tags t of S of the entries holding t, without
// double counting: it orders S's tags by decreasing list length, takes the
// entries holding the first tag from a precomputed total, and for each later
// tag adds the groups holding it that hold none of S's earlier tags. An
// item's score is then (count(S) - occurrences of its own pointer) / (n - 1):
// the occurrences of the item itself are exactly the entries of S that the
// spec's identity check skips, and every other entry of S is a peer sharing
// all its tags.
//
// Cost, for N items with T tags in all and G distinct tag sets: O(N + T)
// hashing to group, then, for every set S and every tag t of S but its most
// frequent, one check per group holding t (O(1) with bit masks, O(size of
// that group) otherwise). That is linear when items carry a few tags from a
// small vocabulary, or share one dominant tag, and O(G^2) checks at worst: an exact
// method that is sub-quadratic in general is not expected to exist, since
// deciding whether some two items share no tag is the Orthogonal Vectors
// problem. The result is exactly the per-item one: the same integer counts
// and the same division.
func (*FrequencyScorer) ScoreAll(items []*ContextItem, out []float64) {
	n, withTags, totalTags, maxPerItem := 0, 0, 0, 0
	for i, it := range items {
		out[i] = 0.0
		if it != nil {
			n++
			if len(it.tags) > 0 {
				withTags++
				totalTags += len(it.tags)
				maxPerItem = max(maxPerItem, len(it.tags))
			}
		}
	}
	if n <= 1 || withTags == 0 {
		return
	}

	// Pass 1: intern the folded tags; itemIDs[itemOff[i]:itemOff[i+1]] are
	// the tag ids of items[i] (unsorted, possibly repeated).
	fs := freqScratchPool.Get().(*freqScratch)
	var ids []int32
	defer func() { // keep the buffers that grew by append
		fs.ids = ids
		fs.put()
	}()
	if maxPerItem <= freqSubsetMaxPerItem {
		if sets, numTags, ok := fs.internTagSets(items, maxPerItem); ok {
			frequencyBySubsets(fs, items, sets, numTags, n, out)
			return
		}
	}
	itemOff := resize(&fs.itemOff, len(items)+1)
	var itemIDs []int32
	ok := false
	if maxPerItem <= freqSubsetMaxPerItem {
		// Too many distinct tags for the subset path (or an overlong probe):
		// the table keeps the ids of the tags met so far, in the order a
		// fresh one would give.
		itemIDs, ok = fs.internMore(items, itemOff, totalTags)
	} else {
		itemIDs, ok = fs.internTags(items, itemOff, totalTags, false)
	}
	if !ok { // crafted collisions of the fast hash
		itemIDs, _ = fs.internTags(items, itemOff, totalTags, true)
	}
	numTags := len(fs.tags.names)
	if numTags == 0 {
		return
	}
	words := (len(items) + 63) / 64
	if len(items) <= freqBitsetMaxItems && numTags*words <= freqBitsetMaxWords {
		frequencyByBitsets(fs, items, itemOff, itemIDs, numTags, words, n, out)
		return
	}

	// Pass 2: group the items by their set of distinct tag ids. With at most
	// 64 distinct tags a set is a bit mask, else a byte key of its sorted ids.
	var (
		small     = numTags <= 64
		keyIDs    map[string]int32
		gMask     []uint64
		itemGroup = resize(&fs.itemGroup, len(items))
		gOff      = append(resize(&fs.gOff, withTags+1)[:0], 0) // group g's tags are gTags[gOff[g]:gOff[g+1]], ascending
		gTags     = resize(&fs.gTags, totalTags)[:0]
		gCount    = resize(&fs.gCount, withTags)[:0] // entries per group
		key       []byte
	)
	ids = fs.ids[:0]
	if small {
		// Group by mask with a radix sort of (mask, item) records instead of
		// a map: O(N), and group numbering does not affect the counts.
		gMask = resize(&fs.gMask, withTags)[:0]
		kp := getScratch(withTags)
		defer putScratch(kp)
		keys := (*kp)[:0]
		for i := range items {
			itemGroup[i] = -1
			var m uint64
			for _, t := range itemIDs[itemOff[i]:itemOff[i+1]] {
				m |= 1 << uint(t)
			}
			if m != 0 {
				keys = append(keys, keyIdx{m, i})
			}
		}
		sortKeyIdx(keys)
		for j, k := range keys {
			if j == 0 || k.key != keys[j-1].key {
				m := k.key
				gMask = append(gMask, m)
				for t := range numTags {
					if m&(1<<uint(t)) != 0 {
						gTags = append(gTags, int32(t))
					}
				}
				gOff = append(gOff, int32(len(gTags)))
				gCount = append(gCount, 0)
			}
			g := int32(len(gCount) - 1)
			gCount[g]++
			itemGroup[k.idx] = g
		}
	} else {
		keyIDs = make(map[string]int32, withTags)
		for i := range items {
			itemGroup[i] = -1
			tags := itemIDs[itemOff[i]:itemOff[i+1]]
			if len(tags) == 0 {
				continue
			}
			ids = append(ids[:0], tags...)
			slices.Sort(ids)
			ids = slices.Compact(ids)
			key = key[:0]
			for _, id := range ids {
				key = binary.LittleEndian.AppendUint32(key, uint32(id))
			}
			g, ok := keyIDs[string(key)]
			if !ok {
				g = int32(len(gCount))
				keyIDs[string(key)] = g
				gTags = append(gTags, ids...)
				gOff = append(gOff, int32(len(gTags)))
				gCount = append(gCount, 0)
			}
			gCount[g]++
			itemGroup[i] = g
		}
	}
	numGroups := len(gCount)

	// Inverted index: the groups holding tag t are tGroups[tOff[t]:tOff[t+1]];
	// withTag[t] is the number of entries holding t.
	tOff := resize(&fs.tOff, numTags+1)
	withTag := resize(&fs.withTag, numTags)
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
	tGroups := resize(&fs.tGroups, len(gTags))
	fill := resize(&fs.fill, numTags)
	copy(fill, tOff[:numTags])
	for g := range numGroups {
		for _, t := range gTags[gOff[g]:gOff[g+1]] {
			tGroups[fill[t]] = int32(g)
			fill[t]++
		}
	}

	// Count, for every group S, the entries sharing a tag with S: those
	// holding S's most frequent tag, then, for each further tag t, the groups
	// holding t and none of S's tags before t.
	shared := resize(&fs.shared, numGroups)
	var marked []bool
	if !small {
		marked = make([]bool, numTags)
	}
	listLen := func(t int32) int32 { return tOff[t+1] - tOff[t] }
	for g := range numGroups {
		ids = append(ids[:0], gTags[gOff[g]:gOff[g+1]]...)
		slices.SortFunc(ids, func(x, y int32) int { // most frequent first, ties by id
			if c := cmp.Compare(listLen(y), listLen(x)); c != 0 {
				return c
			}
			return cmp.Compare(x, y)
		})
		count := withTag[ids[0]]
		if small {
			before := uint64(1) << uint(ids[0])
			for _, t := range ids[1:] {
				for _, h := range tGroups[tOff[t]:tOff[t+1]] {
					if gMask[h]&before == 0 {
						count += gCount[h]
					}
				}
				before |= 1 << uint(t)
			}
		} else {
			marked[ids[0]] = true
			for _, t := range ids[1:] {
				for _, h := range tGroups[tOff[t]:tOff[t+1]] {
					seen := false
					for _, u := range gTags[gOff[h]:gOff[h+1]] {
						if marked[u] {
							seen = true
							break
						}
					}
					if !seen {
						count += gCount[h]
					}
				}
				marked[t] = true
			}
			for _, t := range ids {
				marked[t] = false
			}
		}
		shared[g] = count
	}

	// An item skips every occurrence of its own pointer (the spec's `is`
	// check), so it subtracts its multiplicity, usually 1.
	mult := pointerMultiplicity(items)
	denom := float64(n - 1)
	for i := range items {
		if g := itemGroup[i]; g >= 0 {
			self := int32(1)
			if mult != nil {
				self = mult[i]
			}
			out[i] = float64(shared[g]-self) / denom
		}
	}
}

// internTags interns the folded tags of items in fs.tags and returns
// itemIDs, where itemIDs[itemOff[i]:itemOff[i+1]] are the tag ids of
// items[i] (unsorted, possibly repeated). It fails when the fast hash
// probes too long (see tagTable).
func (fs *freqScratch) internTags(items []*ContextItem, itemOff []int32, totalTags int, strong bool) ([]int32, bool) {
	fs.tags.reset(strong)
	return fs.internMore(items, itemOff, totalTags)
}

// internMore is internTags without resetting fs.tags first: the tags
// interned already keep their ids.
func (fs *freqScratch) internMore(items []*ContextItem, itemOff []int32, totalTags int) ([]int32, bool) {
	itemIDs := resize(&fs.itemIDs, totalTags)[:0]
	itemOff[0] = 0
	for i, it := range items {
		itemOff[i+1] = itemOff[i]
		if it == nil || len(it.tags) == 0 {
			continue
		}
		for _, tag := range it.tags {
			id := fs.tags.hit(tag)
			if id < 0 {
				id = fs.tagID(tag)
			}
			if id < 0 {
				return nil, false
			}
			itemIDs = append(itemIDs, id)
		}
		itemOff[i+1] = int32(len(itemIDs))
	}
	return itemIDs, true
}

// tagID returns the id of tag's folded form in fs.tags, interning it if
// new, or -1 when the fast hash probes too long (see tagTable). The cache
// hit, the usual case, is inlined into the callers' loops.
func (fs *freqScratch) tagID(tag string) int32 {
	c := fs.tags.cached(tag)
	if c.id > 0 {
		return c.id - 1
	}
	return fs.internNew(tag, c)
}

// internNew is tagID for a tag not in the cache: it folds tag, interns it
// and remembers the id in the cache entry c.
func (fs *freqScratch) internNew(tag string, c *tagCacheEntry) int32 {
	fold := append(fs.fold[:0], tag...)
	fs.fold = fold
	lowered := false
	for j, c := range fold {
		if 'A' <= c && c <= 'Z' {
			fold[j] = c + 'a' - 'A'
			lowered = true
		}
	}
	id := fs.tags.intern(fold, tag, lowered)
	if id >= 0 {
		*c = tagCacheEntry{tag, id + 1}
	}
	return id
}

// freqScratch holds the buffers of one FrequencyScorer.ScoreAll call, so
// that a scorer serving run after run allocates nothing in the common case
// (at most 64 distinct tags, tags already lower case).
type freqScratch struct {
	tags                                      tagTable
	itemOff, itemIDs, itemGroup, gOff, gTags  []int32
	gCount, tOff, withTag, tGroups, fill, ids []int32
	shared, subsets                           []int32
	single                                    []int
	gMask, bits                               []uint64
	fold                                      []byte
}

var freqScratchPool = sync.Pool{New: func() any { return new(freqScratch) }}

// put drops the tag strings the table holds and returns fs to the pool.
func (fs *freqScratch) put() {
	if len(fs.itemOff) > maxScratchItems {
		return
	}
	fs.tags.release()
	freqScratchPool.Put(fs)
}

// Below these sizes ScoreAll counts with bitsets: for every tag, the set of
// items holding it, N/64 words; an item's matching count is the population
// count of the union of its tags' sets. That costs N x tags x N/64 word
// operations, sequential and branch-free, which at a few thousand items is
// well under the grouped walk; above, N^2/64 grows and the walk wins.
const (
	freqBitsetMaxItems = 4096
	freqBitsetMaxWords = 1 << 16 // tags x words: at most 512 KiB of bitsets
)

// popCount is the number of bits set in set.
func popCount(set []uint64) int {
	n := 0
	for _, x := range set {
		n += bits.OnesCount64(x)
	}
	return n
}

// frequencyByBitsets writes the FrequencyScorer scores of items to out from
// the interned tag ids (itemIDs[itemOff[i]:itemOff[i+1]] for items[i]), n
// being the number of non-nil items. It counts exactly what the grouped
// walk counts: the entries holding some tag of item i, less the
// occurrences of item i's own pointer (all of which hold the same tags).
// Its buffers are fs's.
func frequencyByBitsets(fs *freqScratch, items []*ContextItem, itemOff, itemIDs []int32, numTags, words, n int, out []float64) {
	sets := resize(&fs.bits, (numTags+1)*words)
	clear(sets)
	for i := range items {
		w, b := i/64, uint64(1)<<uint(i%64)
		for _, t := range itemIDs[itemOff[i]:itemOff[i+1]] {
			sets[int(t)*words+w] |= b
		}
	}
	acc := sets[numTags*words:]
	row := func(t int32) []uint64 { return sets[int(t)*words : int(t+1)*words] }
	// single[t] is the count of items holding tag t, -1 until needed.
	single := resize(&fs.single, numTags)
	for t := range single {
		single[t] = -1
	}
	mult := pointerMultiplicity(items)
	denom := float64(n - 1)
	for i := range items {
		tags := itemIDs[itemOff[i]:itemOff[i+1]]
		count := 0
		// The union's population count, in one pass for up to three tags.
		switch len(tags) {
		case 0:
			continue
		case 1:
			t := tags[0]
			if single[t] < 0 {
				single[t] = popCount(row(t))
			}
			count = single[t]
		case 2:
			a, b := row(tags[0]), row(tags[1])
			b = b[:len(a)]
			for w, x := range a {
				count += bits.OnesCount64(x | b[w])
			}
		case 3:
			a, b, c := row(tags[0]), row(tags[1]), row(tags[2])
			b, c = b[:len(a)], c[:len(a)]
			for w, x := range a {
				count += bits.OnesCount64(x | b[w] | c[w])
			}
		default:
			copy(acc, row(tags[0]))
			for _, t := range tags[1:] {
				for w, x := range row(t) {
					acc[w] |= x
				}
			}
			count = popCount(acc)
		}
		self := 1
		if mult != nil {
			self = int(mult[i])
		}
		out[i] = float64(count-self) / denom
	}
}
