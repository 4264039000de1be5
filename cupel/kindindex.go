package cupel

// kindIndex maps ContextKinds to small integers under ASCII case folding
// (ruling 15) without allocating on lookup.
type kindIndex struct {
	keys []string       // folded keys, by index
	m    map[string]int // folded key -> index; nil while len(keys) <= linearKinds
}

const linearKinds = 8

// find returns the index of k, or -1.
func (x *kindIndex) find(k ContextKind) int {
	if x.m == nil {
		for i, key := range x.keys {
			if asciiEqualFold(key, string(k)) {
				return i
			}
		}
		return -1
	}
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
func (x *kindIndex) add(k ContextKind) int {
	key := k.Key()
	x.keys = append(x.keys, key)
	i := len(x.keys) - 1
	if x.m != nil {
		x.m[key] = i
	} else if len(x.keys) > linearKinds {
		x.m = make(map[string]int, 2*len(x.keys))
		for j, kk := range x.keys {
			x.m[kk] = j
		}
	}
	return i
}
