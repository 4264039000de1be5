package cupel

import (
	"math/bits"
	"unsafe"
)

// pointerMultiplicity returns, for each items[i], how many times that very
// pointer occurs in items (reference identity, ruling 14), or nil
// when every non-nil pointer occurs once, the usual case. It sorts the
// addresses with the radix key sort instead of filling a map: O(N). Heap
// objects do not move in Go, so addresses are stable for the call.
//
// Up to repeatTableMaxItems items it first looks for a repeat in a small
// open-addressing table of addresses, which in the usual case answers nil
// without a sort; only when some pointer repeats does it count by sorting.
func pointerMultiplicity(items []*ContextItem) []int32 {
	if len(items) <= repeatTableMaxItems && !hasRepeatedPointer(items) {
		return nil
	}
	kp := getScratch(len(items))
	defer putScratch(kp)
	keys := (*kp)[:0]
	for i, it := range items {
		if it != nil {
			keys = append(keys, keyIdx{uint64(uintptr(unsafe.Pointer(it))), i})
		}
	}
	sortKeyIdx(keys)
	var mult []int32
	for j := 1; j < len(keys); j++ {
		if keys[j].key != keys[j-1].key {
			continue
		}
		if mult == nil {
			mult = make([]int32, len(items))
			for i := range mult {
				mult[i] = 1
			}
		}
		// Extend the run of equal keys ending at j.
		start := j - 1
		for start > 0 && keys[start-1].key == keys[j].key {
			start--
		}
		end := j
		for end+1 < len(keys) && keys[end+1].key == keys[j].key {
			end++
		}
		for k := start; k <= end; k++ {
			mult[keys[k].idx] = int32(end - start + 1)
		}
		j = end
	}
	return mult
}

// repeatTableMaxItems bounds the inputs hasRepeatedPointer serves: its
// table of 2 to 4 slots an item stays in cache up to a few thousand items.
const repeatTableMaxItems = 4096

// hasRepeatedPointer reports whether some non-nil pointer occurs twice in
// items, by inserting the addresses into an open-addressing table.
func hasRepeatedPointer(items []*ContextItem) bool {
	size := 16
	for size < 2*len(items) {
		size *= 2
	}
	tp := getScratch(size)
	defer putScratch(tp)
	table := (*tp)[:size]
	clear(table) // key 0: empty (no item lives at address 0)
	mask := uint64(size - 1)
	shift := 64 - uint(bits.Len64(mask))
	for _, it := range items {
		if it == nil {
			continue
		}
		a := uint64(uintptr(unsafe.Pointer(it)))
		// Fibonacci hashing: the top bits of a * 2^64/phi.
		for s := (a * 0x9E3779B97F4A7C15) >> shift; ; s = (s + 1) & mask {
			switch table[s].key {
			case 0:
				table[s].key = a
			case a:
				return true
			default:
				continue
			}
			break
		}
	}
	return false
}
