package cupel

import "hash/maphash"

// pointerMultiplicitySpec is what pointerMultiplicity computes, written
// plainly: for each items[i], how many times that very pointer occurs in
// items (reference identity, ruling 14), or nil when every non-nil pointer
// occurs once, the usual case. A nil entry counts 1.
func pointerMultiplicitySpec(items []*ContextItem) []int32 {
	count := make(map[*ContextItem]int32, len(items))
	repeated := false
	for _, it := range items {
		if it != nil {
			count[it]++
			repeated = repeated || count[it] > 1
		}
	}
	if !repeated {
		return nil
	}
	mult := make([]int32, len(items))
	for i, it := range items {
		mult[i] = max(1, count[it])
	}
	return mult
}

// pointerMultiplicity is pointerMultiplicitySpec with an open-addressing
// table of the pointers (pooled, so that the usual call allocates nothing)
// instead of a map. The pointers are hashed with maphash.Comparable, which
// hashes equal pointers equally; no address is ever read as a number.
// TestPointerMultiplicityAgreesWithSpec proves it equal to the spec on
// random inputs with and without repeats; BenchmarkPointerMultiplicity
// measures it against the map.
func pointerMultiplicity(items []*ContextItem) []int32 {
	size := 16
	for size < 2*len(items) {
		size *= 2
	}
	tp := identitySlots.get(size)
	defer func() {
		clear((*tp)[:size]) // keep no item alive in the pool
		identitySlots.put(tp)
	}()
	table := (*tp)[:size]
	clear(table)
	mask := uint64(size - 1)
	slot := func(it *ContextItem) *identitySlot {
		for s := maphash.Comparable(identitySeed, it) & mask; ; s = (s + 1) & mask {
			if table[s].item == nil || table[s].item == it {
				return &table[s]
			}
		}
	}
	repeated := false
	for _, it := range items {
		if it != nil {
			sl := slot(it)
			sl.item = it
			sl.count++
			repeated = repeated || sl.count > 1
		}
	}
	if !repeated {
		return nil
	}
	mult := make([]int32, len(items))
	for i, it := range items {
		mult[i] = 1
		if it != nil {
			mult[i] = slot(it).count
		}
	}
	return mult
}

// identitySlot is a slot of pointerMultiplicity's table: an item (nil:
// empty) and how many times it occurs.
type identitySlot struct {
	item  *ContextItem
	count int32
}

var (
	identitySeed  = maphash.MakeSeed()
	identitySlots slicePool[identitySlot]
)
