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
// the key of items[keys[j].idx]. It sorts with the radix key sort, O(N).
func assignRanksKeys(keys []keyIdx, out []float64) {
	switch len(keys) {
	case 0:
		return
	case 1:
		out[keys[0].idx] = 1.0
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

// signedKey maps an int64 to a uint64 with the same order.
func signedKey(v int64) uint64 { return uint64(v) ^ (1 << 63) }
