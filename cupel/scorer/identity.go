package scorer

import (
	"hash/maphash"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/internal/keysort"
)

// pointerMultiplicitySpec is what pointerMultiplicity computes, written
// plainly: for each items[i], how many times that very pointer occurs in
// items (reference identity, ruling 14), or nil when every non-nil pointer
// occurs once, the usual case. A nil entry counts 1.
func pointerMultiplicitySpec(items []*cupel.ContextItem) []int32 {
	count := make(map[*cupel.ContextItem]int32, len(items))
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
// instead of a map. A slot is found by a hash of the pointer
// (maphash.Comparable, equal for equal pointers, as the package documents),
// and the pointers in it are compared. No address is read as a number.
// Past maxIdentityProbes probes (a hash that clusters) the call falls back
// to the map, so no input makes it quadratic.
// TestPointerMultiplicityAgreesWithSpec proves it equal to the spec on
// random inputs with and without repeats, the map fallback included;
// BenchmarkPointerMultiplicity measures it against the map: about 3.5 to
// 5 times faster at 100 to 10,000 items, 2.4 to 4 times at 100,000 (the
// hash costs some 8 ns an item; the item's content hash, which it used
// while it was in package cupel, is private to the engine).
func pointerMultiplicity(items []*cupel.ContextItem) []int32 {
	return multiplicityByTable(items, maxIdentityProbes)
}

// multiplicityByTable is pointerMultiplicity with a probe sequence of at
// most maxProbes slots (the test forces the map fallback with 1).
func multiplicityByTable(items []*cupel.ContextItem, maxProbes int) []int32 {
	size, shift := 16, 60
	for size < 2*len(items) {
		size, shift = size*2, shift-1
	}
	tp := identitySlots.Get(size)
	defer func() {
		clear((*tp)[:size]) // keep no item alive in the pool; the next call gets a clear table
		identitySlots.Put(tp)
	}()
	table := (*tp)[:size]
	mask := size - 1
	slot := func(it *cupel.ContextItem) *identitySlot {
		s := int(maphash.Comparable(identitySeed, it) >> shift)
		for range maxProbes {
			if table[s].item == nil || table[s].item == it {
				return &table[s]
			}
			s = (s + 1) & mask
		}
		return nil
	}
	repeated := false
	for _, it := range items {
		if it != nil {
			sl := slot(it)
			if sl == nil {
				return pointerMultiplicitySpec(items)
			}
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

// maxIdentityProbes bounds a probe sequence of pointerMultiplicity's table.
const maxIdentityProbes = 64

// identitySlot is a slot of pointerMultiplicity's table: an item (nil:
// empty) and how many times it occurs.
type identitySlot struct {
	item  *cupel.ContextItem
	count int32
}

var identitySlots keysort.SlicePool[identitySlot]

// identitySeed seeds the hash of pointerMultiplicity's table.
var identitySeed = maphash.MakeSeed()
