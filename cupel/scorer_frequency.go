package cupel

import (
	"cmp"
	"encoding/binary"
	"slices"
)

// FrequencyScorer scores an item by the proportion of its peers that share
// at least one tag with it: matching / (length(allItems) - 1) (spec chapter
// "FrequencyScorer").
//
// Tags compare with ASCII case folding only (CLARIFICATIONS 15): "Important"
// matches "important", but "K" does not match the Kelvin sign U+212A. The
// item itself is skipped by pointer identity (CLARIFICATIONS 14): every
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

// Score implements FREQUENCY-SCORE of the spec chapter "FrequencyScorer":
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

// scoreAll computes every item's score without comparing items pairwise.
//
// It interns the folded tags, then groups the items by their set of distinct
// folded tags (items with equal sets get equal counts) and builds, for every
// tag, the list of groups holding it. For a group S it counts the items that
// share a tag with S as the union over the tags t of S of the items holding
// t, without double counting: it orders S's tags by decreasing list length,
// takes the items holding the first tag from a precomputed total, and for
// each later tag adds the groups holding it that hold none of S's earlier
// tags. An item's score is then (count(S) - occurrences of its own pointer) /
// (n - 1): the occurrences of the item itself are exactly the entries of S
// that the spec's identity check skips.
//
// With G groups, that costs O(sum of T_i) hashing for the grouping and
// O(sum over S, over the tags t of S but its most frequent, of
// |groups(t)| * |S|) for the counting: linear when items carry few tags or
// share one dominant tag, quadratic in G at worst. No exact method is
// sub-quadratic in general: deciding whether two items share no tag is the
// Orthogonal Vectors problem. The result is exactly the per-item one (the
// same integer counts and the same division).
func (*FrequencyScorer) scoreAll(items []*ContextItem, out []float64) {
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

	var (
		tagIDs    = make(map[string]int32)
		groupIDs  = make(map[string]int32)
		ptrCount  = make(map[*ContextItem]int32)
		itemGroup = make([]int32, len(items))
		gOff      = []int32{0} // group g's tags are gTags[gOff[g]:gOff[g+1]]
		gTags     []int32
		gCount    []int32 // entries per group
		fold      []byte
		ids       []int32
		key       []byte
	)
	for i, it := range items {
		itemGroup[i] = -1
		if it == nil || len(it.tags) == 0 {
			continue
		}
		ptrCount[it]++
		ids = ids[:0]
		for _, tag := range it.tags {
			fold = append(fold[:0], tag...)
			for j, c := range fold {
				if 'A' <= c && c <= 'Z' {
					fold[j] = c + 'a' - 'A'
				}
			}
			id, ok := tagIDs[string(fold)]
			if !ok {
				id = int32(len(tagIDs))
				tagIDs[string(fold)] = id
			}
			ids = append(ids, id)
		}
		slices.Sort(ids)
		ids = slices.Compact(ids)
		key = key[:0]
		for _, id := range ids {
			key = binary.LittleEndian.AppendUint32(key, uint32(id))
		}
		g, ok := groupIDs[string(key)]
		if !ok {
			g = int32(len(gCount))
			groupIDs[string(key)] = g
			gTags = append(gTags, ids...)
			gOff = append(gOff, int32(len(gTags)))
			gCount = append(gCount, 0)
		}
		gCount[g]++
		itemGroup[i] = g
	}
	numTags, numGroups := len(tagIDs), len(gCount)
	if numGroups == 0 {
		return
	}

	// Inverted index: the groups holding tag t are tGroups[tOff[t]:tOff[t+1]];
	// withTag[t] is the number of entries holding t.
	tOff := make([]int32, numTags+1)
	withTag := make([]int32, numTags)
	for g := range numGroups {
		for _, t := range gTags[gOff[g]:gOff[g+1]] {
			tOff[t+1]++
			withTag[t] += gCount[g]
		}
	}
	for t := range numTags {
		tOff[t+1] += tOff[t]
	}
	tGroups := make([]int32, len(gTags))
	fill := make([]int32, numTags)
	copy(fill, tOff[:numTags])
	for g := range numGroups {
		for _, t := range gTags[gOff[g]:gOff[g+1]] {
			tGroups[fill[t]] = int32(g)
			fill[t]++
		}
	}

	shared := make([]int32, numGroups) // entries sharing a tag with group g
	marked := make([]bool, numTags)
	listLen := func(t int32) int32 { return tOff[t+1] - tOff[t] }
	for g := range numGroups {
		ids = append(ids[:0], gTags[gOff[g]:gOff[g+1]]...)
		// Most frequent tag first (ties by id, for determinism).
		slices.SortFunc(ids, func(x, y int32) int {
			if c := cmp.Compare(listLen(y), listLen(x)); c != 0 {
				return c
			}
			return cmp.Compare(x, y)
		})
		count := withTag[ids[0]]
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
		shared[g] = count
	}

	denom := float64(n - 1)
	for i, it := range items {
		if g := itemGroup[i]; g >= 0 {
			out[i] = float64(shared[g]-ptrCount[it]) / denom
		}
	}
}
