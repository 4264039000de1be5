package cupel

import "slices"

// rankEntry is one ranked item of a batch: its key and position in items.
type rankEntry[K any] struct {
	key K
	idx int
}

// assignRanks is the batch form of the rank-based scorers (RecencyScorer,
// PriorityScorer): after sorting es by key, the rank of an entry is the
// number of entries with a strictly smaller key (the first position of its
// tie group), and its score rank / (len(es) - 1), or 1.0 when it is the only
// entry. It writes the scores to out[e.idx]. O(N log N).
func assignRanks[K any](es []rankEntry[K], cmp func(a, b K) int, out []float64) {
	switch len(es) {
	case 0:
		return
	case 1:
		out[es[0].idx] = 1.0
		return
	}
	slices.SortFunc(es, func(a, b rankEntry[K]) int { return cmp(a.key, b.key) })
	denom := float64(len(es) - 1)
	rank := 0
	for j := range es {
		if j > 0 && cmp(es[j-1].key, es[j].key) != 0 {
			rank = j
		}
		out[es[j].idx] = float64(rank) / denom
	}
}

// assignRanksKeys is assignRanks for order-preserving uint64 keys: keys[j] is
// the key of items[keys[j].idx]. It sorts with the radix key sort, O(N), or,
// when the keys span fewer than rankCountSpan values (priorities usually
// do), ranks them by counting without sorting (rankByCounting). keys may be
// reordered.
func assignRanksKeys(keys []keyIdx, out []float64) {
	switch len(keys) {
	case 0:
		return
	case 1:
		out[keys[0].idx] = 1.0
		return
	}
	lo, hi := keys[0].key, keys[0].key
	for _, k := range keys[1:] {
		lo, hi = min(lo, k.key), max(hi, k.key)
	}
	if hi-lo < rankCountSpan {
		rankByCounting(keys, lo, out)
		return
	}
	sortKeyIdx(keys)
	denom := float64(len(keys) - 1)
	rank := 0
	for j := range keys {
		if j > 0 && keys[j-1].key != keys[j].key {
			rank = j
		}
		out[keys[j].idx] = float64(rank) / denom
	}
}

// rankCountSpan bounds the span of keys that rankByCounting ranks: its
// table of counts lives on the stack.
const rankCountSpan = 256

// rankByCounting writes assignRanksKeys's scores for keys (at least two)
// whose keys lie in [lo, lo+rankCountSpan): an entry's rank, the number of
// entries with a smaller key, is the sum of the counts of the smaller
// keys. The same integer ranks and the same division as after a sort.
func rankByCounting(keys []keyIdx, lo uint64, out []float64) {
	var below [rankCountSpan + 1]int32 // below[v+1] counts key lo+v, then the prefix sums
	for _, k := range keys {
		below[k.key-lo+1]++
	}
	for v := 1; v < len(below); v++ {
		below[v] += below[v-1]
	}
	denom := float64(len(keys) - 1)
	for _, k := range keys {
		out[k.idx] = float64(below[k.key-lo]) / denom
	}
}

// signedKey maps an int64 to a uint64 with the same order.
func signedKey(v int64) uint64 { return uint64(v) ^ (1 << 63) }
