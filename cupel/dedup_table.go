package cupel

import "github.com/cupel-go/go-cupel/cupel/internal/keysort"

// This file speeds up the Deduplicate stage. dedupByTable must return
// exactly the survivors of dedupSpec (pipeline.go), the spec's DEDUPLICATE,
// and record the same exclusions; TestDeduplicateTableAgreesWithSpec proves
// it on random inputs of 0 to 6,000 items, with real, colliding and
// two-valued content hashes, and BenchmarkDeduplicate measures the two.
// It has no threshold: it serves every input when deduplication is on.

// dedupSlot is a slot of dedupByTable's table: a content hash and 1 + the
// index of the best item so far with that content (0: empty).
type dedupSlot struct {
	hash uint32
	best int32
}

// dedupByTable is dedupSpec with an open-addressing table keyed by the
// content hash each item carries (computed once by NewItem, see dedupHash),
// instead of a map that hashes every content again; the table (8 bytes a
// slot, at most half full) lives in the run's scratch buffers. Contents
// compare as strings, so hash collisions only cost probes.
func (r *run) dedupByTable(items []*ContextItem, scores []float64) ([]int, error) {
	size := 16
	for size < 2*len(items) {
		size *= 2
	}
	table := keysort.Resize(&r.sc.dedup, size)
	clear(table)
	mask := uint32(size - 1)
	slotOf := keysort.Resize(&r.sc.dedupSlots, len(items)) // the slot of items[i]'s content
	for i, it := range items {
		if err := r.pollAt(i, StageDeduplicate); err != nil {
			return nil, err
		}
		h := it.contentHash
		for s := h & mask; ; s = (s + 1) & mask {
			sl := &table[s]
			if sl.best == 0 {
				*sl = dedupSlot{h, int32(i) + 1}
				slotOf[i] = int32(s)
				break
			}
			b := int(sl.best - 1)
			if sl.hash == h && items[b].content == it.content {
				if keysort.CompareScoreDesc(scores[i], scores[b]) < 0 {
					sl.best = int32(i) + 1
				}
				slotOf[i] = int32(s)
				break
			}
		}
	}
	survivors := keysort.Resize(&r.sc.survivors, len(items))[:0]
	for i, it := range items {
		if b := int(table[slotOf[i]].best - 1); b == i {
			survivors = append(survivors, i)
		} else if r.trace != nil {
			r.exclude(codeDeduplicate, it, scores[i], Deduplicated(items[b].content))
		}
	}
	return survivors, nil
}
