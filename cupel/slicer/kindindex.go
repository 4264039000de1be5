package slicer

import "github.com/cupel-go/go-cupel/cupel"

// kindIndex maps ContextKinds to small integers, in the order they were
// added, under ASCII case folding (ruling 15), without allocating on
// lookup. (A linear scan of the keys up to eight kinds, about 2x faster a
// lookup, made Quota.Slice over five kinds at most 1.15x faster at
// 100, 1,000 or 10,000 items, so it went.)
type kindIndex struct {
	m map[string]int // folded key -> index
}

// find returns the index of k, or -1.
func (x *kindIndex) find(k cupel.ContextKind) int {
	var buf [64]byte
	var b []byte
	if len(k) <= len(buf) {
		b = buf[:len(k)]
	} else {
		b = make([]byte, len(k))
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	if i, ok := x.m[string(b)]; ok { // no allocation: map lookup by string(bytes)
		return i
	}
	return -1
}

// add appends k (which must not be present) and returns its index.
func (x *kindIndex) add(k cupel.ContextKind) int {
	if x.m == nil {
		x.m = make(map[string]int)
	}
	i := len(x.m)
	x.m[k.Key()] = i
	return i
}
