package scorer

import (
	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/internal/keysort"
)

// internTags gives every ASCII-folded tag of items an id, 0, 1, ... in
// order of first appearance, and returns the ids of the items' tags: those
// of items[i] are ids[off[i]:off[i+1]], in the item's order, repeats kept
// (none for a nil item). numTags is the number of distinct folded tags and
// maxPerItem the most tags an item has. The buffers are fs's.
//
// A direct-mapped cache of tags as the items hold them, in front of the
// table, answers most occurrences: items usually share a few tags. The
// table is a map from folded tag to id. A tag without upper-case
// ASCII letters, the usual case, is its own folded form: it is looked up,
// and kept, as it is; another is folded into a buffer first, and copied
// only when it is new.
func (fs *freqScratch) internTags(items []*cupel.ContextItem) (off, ids []int32, numTags, maxPerItem int) {
	if fs.tagIDs == nil {
		fs.tagIDs = make(map[string]int32)
	}
	off = keysort.Resize(&fs.off, len(items)+1)
	ids = fs.ids[:0]
	for i, it := range items {
		off[i] = int32(len(ids))
		if it == nil {
			continue
		}
		nt := it.NumTags()
		for j := range nt {
			tag := it.Tag(j)
			e := &fs.cache[tagCacheIndex(tag)]
			id := e.id - 1
			if e.id == 0 || e.tag != tag {
				id = fs.tagID(tag, e)
			}
			ids = append(ids, id)
		}
		maxPerItem = max(maxPerItem, nt)
	}
	off[len(items)] = int32(len(ids))
	fs.ids = ids
	return off, ids, len(fs.tagIDs), maxPerItem
}

// tagID returns the id of tag's folded form, on a miss of the cache in
// its entry e (tagCacheIndex), which it sets: from the map, interning the
// folded tag if new.
func (fs *freqScratch) tagID(tag string, e *tagCacheEntry) int32 {
	id := fs.internTag(tag)
	*e = tagCacheEntry{tag, id + 1}
	fs.cacheUsed = true
	return id
}

// tagCacheEntry: the tag tag has the id id-1 (0: an empty entry).
type tagCacheEntry struct {
	tag string
	id  int32
}

// tagCacheSize is the number of entries of the cache in front of the map.
const tagCacheSize = 256

// tagCacheIndex is the cache entry of tag, from its length and its first
// and last two bytes: cheaper than the map's hash of every byte, and
// distinct for the usual small vocabularies ("tag-0", "tag-1", ...). An
// entry is used only after comparing its tag with ==, so the index never
// decides an id.
func tagCacheIndex(tag string) int {
	h := uint64(len(tag))
	if n := len(tag); n > 0 {
		h = h<<24 | uint64(tag[0])<<16 | uint64(tag[n-1])<<8
		if n > 1 {
			h |= uint64(tag[n-2])
		}
	}
	return int((h * 0x9E3779B97F4A7C15) >> 56)
}

// internTag returns the id of tag's folded form from the map, interning
// it if new.
func (fs *freqScratch) internTag(tag string) int32 {
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

// appendLowerASCII appends s to b with 'A' to 'Z' lowered, as ContextKind.Key
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
