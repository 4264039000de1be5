package cupel

// dedupTableMaxItems is the largest input deduplicate groups with an
// open-addressing table instead of sorting content hashes: at up to a few
// thousand items the table (16 bytes a slot, at most half full) stays in
// cache and replaces a sort; at 100,000 items its random probes measured
// several times slower than the sort.
const dedupTableMaxItems = 4096

// dedupSlot is a slot of dedupByTable's table: a content hash and 1 + the
// index of the best item so far with that content (0: empty).
type dedupSlot struct {
	hash uint64
	best int32
}

// dedupByTable sets winner[i] to the index of the item that beats items[i]
// among those with its content, as the sorted path does: the best is the
// highest score under compareScoreDesc, the lowest index among equals.
// Contents compare as strings, so hash collisions only cost probes.
func (r *run) dedupByTable(items []*ContextItem, scores []float64, winner []int32) error {
	size := 16
	for size < 2*len(items) {
		size *= 2
	}
	table := resize(&r.sc.dedup, size)
	clear(table)
	mask := uint64(size - 1)
	slotOf := resize(&r.sc.dedupSlots, len(items)) // the slot of items[i]'s content
	for i, it := range items {
		if i&(pollEvery-1) == 0 && r.stop != nil {
			if err := r.stop.err(StageDeduplicate); err != nil {
				return err
			}
		}
		h := uint64(it.contentHash)
		for s := h & mask; ; s = (s + 1) & mask {
			sl := &table[s]
			if sl.best == 0 {
				*sl = dedupSlot{h, int32(i) + 1}
				slotOf[i] = int32(s)
				break
			}
			b := int(sl.best - 1)
			if sl.hash == h && items[b].content == it.content {
				if compareScoreDesc(scores[i], scores[b]) < 0 {
					sl.best = int32(i) + 1
				}
				slotOf[i] = int32(s)
				break
			}
		}
	}
	for i, s := range slotOf {
		if b := table[s].best - 1; int(b) != i {
			winner[i] = b
		}
	}
	return nil
}
