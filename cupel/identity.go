package cupel

import "unsafe"

// pointerMultiplicity returns, for each items[i], how many times that very
// pointer occurs in items (reference identity, ruling 14), or nil
// when every non-nil pointer occurs once, the usual case. It sorts the
// addresses with the radix key sort instead of filling a map: O(N). Heap
// objects do not move in Go, so addresses are stable for the call.
func pointerMultiplicity(items []*ContextItem) []int32 {
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
