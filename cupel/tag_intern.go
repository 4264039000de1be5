package cupel

// internTags gives every ASCII-folded tag of items an id, 0, 1, ... in
// order of first appearance, and returns the ids of the items' tags: those
// of items[i] are ids[off[i]:off[i+1]], in the item's order, repeats kept
// (none for a nil item). numTags is the number of distinct folded tags and
// maxPerItem the most tags an item has. The buffers are fs's.
//
// The table is a map from folded tag to id. A tag without upper-case
// ASCII letters, the usual case, is its own folded form: it is looked up,
// and kept, as it is; another is folded into a buffer first, and copied
// only when it is new.
func (fs *freqScratch) internTags(items []*ContextItem) (off, ids []int32, numTags, maxPerItem int) {
	if fs.tagIDs == nil {
		fs.tagIDs = make(map[string]int32)
	}
	off = resize(&fs.off, len(items)+1)
	ids = fs.ids[:0]
	for i, it := range items {
		off[i] = int32(len(ids))
		if it == nil {
			continue
		}
		for _, tag := range it.tags {
			ids = append(ids, fs.tagID(tag))
		}
		maxPerItem = max(maxPerItem, len(it.tags))
	}
	off[len(items)] = int32(len(ids))
	fs.ids = ids
	return off, ids, len(fs.tagIDs), maxPerItem
}

// tagID returns the id of tag's folded form, interning it if new.
func (fs *freqScratch) tagID(tag string) int32 {
	folded := tag
	if hasUpperASCII(tag) {
		fs.fold = appendLowerASCII(fs.fold[:0], tag)
		if id, ok := fs.tagIDs[string(fs.fold)]; ok { // no copy for a lookup
			return id
		}
		folded = string(fs.fold)
	} else if id, ok := fs.tagIDs[tag]; ok {
		return id
	}
	id := int32(len(fs.tagIDs))
	fs.tagIDs[folded] = id
	return id
}

// hasUpperASCII reports whether s holds a byte 'A' to 'Z'.
func hasUpperASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

// appendLowerASCII appends s to b with 'A' to 'Z' lowered, as asciiLower
// does.
func appendLowerASCII(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b
}
