package cupel

import (
	"encoding/binary"
	"hash/maphash"
	"math/rand/v2"
	"unsafe"
)

// tagTable interns ASCII-folded tags for FrequencyScorer.ScoreAll: id 0, 1,
// ... in order of first appearance. It is an open-addressing table keyed by
// a hash of the folded bytes, names being compared on a hash match, so that
// results never depend on the hash. The hash is a fast seeded mix of 8
// bytes at a time, which crafted tags could make collide; a probe longer
// than tagProbeLimit makes the caller start again with strong set, hashing
// with hash/maphash instead. A map from string to id measured about a
// third of configuration C at 1,000 items.
type tagTable struct {
	slots  []tagSlot // a power of two long, at most half full
	names  []string  // names[id]: the folded tag
	hashes []uint64  // hashes[id]: its hash
	strong bool
	cache  *[tagCacheSize]tagCacheEntry
	// cacheUsed: an entry of cache may be set since the last release.
	cacheUsed bool
}

// tagCacheEntry remembers that the string s, identified by its data
// pointer and length, interned as id-1 (0: empty entry).
type tagCacheEntry struct {
	s  string
	id int32
}

// tagCacheSize is the number of entries of the cache in front of the
// table (a power of two): a string's hash picks a pair of entries.
const (
	tagCacheBits = 8
	tagCacheSize = 1 << tagCacheBits
)

// cached returns the cache entry for tag: tag's id is e.id-1 if e.id > 0,
// else the caller interns tag and stores the result in e.
//
// Items usually share their tag strings (tags are constants, or one
// string the application put on many items), so the cache is keyed by the
// string's identity, its data pointer and length, instead of its bytes:
// a hit skips folding, hashing and comparing the bytes. This is exact: a
// Go string's bytes never change while it lives, and the entry holds its
// string alive, so two strings with the same data pointer and length have
// the same bytes. Strings with equal bytes but distinct data miss the
// cache and take the table, which compares their folded bytes; the cache
// never decides an id the table would not. The address is only compared
// and hashed, never dereferenced.
func (t *tagTable) cached(tag string) *tagCacheEntry {
	p := unsafe.StringData(tag)
	i := cacheIndex(p, len(tag))
	e, f := &t.cache[i], &t.cache[i^1] // two ways, so that two strings of one slot do not evict each other
	if e.id > 0 && unsafe.StringData(e.s) == p && len(e.s) == len(tag) {
		return e
	}
	if f.id > 0 && unsafe.StringData(f.s) == p && len(f.s) == len(tag) {
		return f
	}
	if e.id > 0 {
		e = f
	}
	e.id = 0
	t.cacheUsed = true // the caller may fill e
	return e
}

// hit returns tag's id if the first of its cache entries holds it, else
// -1: the common case of cached, small enough to be inlined into the loops
// over tags, which call cached (through freqScratch.tagID) on -1.
func (t *tagTable) hit(tag string) int32 {
	p := unsafe.StringData(tag)
	e := &t.cache[cacheIndex(p, len(tag))]
	if unsafe.StringData(e.s) == p && len(e.s) == len(tag) {
		return e.id - 1 // -1 when the entry is empty
	}
	return -1
}

// cacheIndex is the first cache entry of the string at p of length n.
func cacheIndex(p *byte, n int) uint64 {
	return ((uint64(uintptr(unsafe.Pointer(p))) ^ uint64(n)) * 0x9E3779B97F4A7C15) >> (64 - tagCacheBits)
}

// tagSlot holds 1 + the id of the tag whose hash is hash (0: empty).
type tagSlot struct {
	hash uint64
	id   int32
}

// tagProbeLimit bounds the probes of one lookup under the fast hash.
const tagProbeLimit = 32

var (
	tagSeed     = rand.Uint64() | 1
	tagHashSeed = maphash.MakeSeed()
)

// reset empties t, keeping its memory, and chooses the hash.
func (t *tagTable) reset(strong bool) {
	if len(t.slots) == 0 {
		t.slots = make([]tagSlot, 64)
	}
	if t.cache == nil {
		t.cache = new([tagCacheSize]tagCacheEntry)
	}
	clear(t.slots)
	t.release()
	t.hashes, t.strong = t.hashes[:0], strong
}

// release drops the strings t holds, the items' tags, so that a pooled
// table keeps no item's strings alive; it clears the cache only when an
// entry may have been set since the last release (a table released on its
// way to the pool is not cleared again when the next run resets it).
func (t *tagTable) release() {
	clear(t.names)
	t.names = t.names[:0]
	if t.cacheUsed {
		clear(t.cache[:])
		t.cacheUsed = false
	}
}

func (t *tagTable) hash(b []byte) uint64 {
	if t.strong {
		return maphash.Bytes(tagHashSeed, b)
	}
	return tagFastHash(b)
}

// tagFastHash is the fast hash (a variable so that a test can force
// collisions).
var tagFastHash = fastTagHash

func fastTagHash(b []byte) uint64 {
	h := tagSeed ^ uint64(len(b))
	for len(b) >= 8 {
		h = mix64(h ^ binary.LittleEndian.Uint64(b))
		b = b[8:]
	}
	var tail uint64
	for i, c := range b {
		tail |= uint64(c) << (8 * i)
	}
	return mix64(h ^ tail)
}

// mix64 is a bijective 64-bit finalizer (xor-shift, multiply, xor-shift).
func mix64(x uint64) uint64 {
	x *= 0x9E3779B97F4A7C15
	x ^= x >> 32
	x *= 0xD6E8FEB86659FD93
	x ^= x >> 32
	return x
}

// intern returns the id of the folded tag fold; tag is the item's string,
// used as the name when it is already folded (lowered false), so as not to
// copy it. It returns -1 when the fast hash probed past tagProbeLimit.
func (t *tagTable) intern(fold []byte, tag string, lowered bool) int32 {
	h := t.hash(fold)
	mask := uint64(len(t.slots) - 1)
	for s, probes := h&mask, 0; ; s, probes = (s+1)&mask, probes+1 {
		sl := &t.slots[s]
		if sl.id == 0 {
			break
		}
		if sl.hash == h && t.names[sl.id-1] == string(fold) {
			return sl.id - 1
		}
		if probes >= tagProbeLimit && !t.strong {
			return -1
		}
	}
	id := int32(len(t.names))
	name := tag
	if lowered {
		name = string(fold)
	}
	t.names = append(t.names, name)
	t.hashes = append(t.hashes, h)
	if 2*len(t.names) > len(t.slots) {
		t.grow()
	} else {
		t.place(h, id)
	}
	return id
}

// place puts id, of hash h, in the first free slot of its probe sequence.
func (t *tagTable) place(h uint64, id int32) {
	mask := uint64(len(t.slots) - 1)
	s := h & mask
	for t.slots[s].id != 0 {
		s = (s + 1) & mask
	}
	t.slots[s] = tagSlot{h, id + 1}
}

// grow doubles the table and places every tag again.
func (t *tagTable) grow() {
	t.slots = make([]tagSlot, 2*len(t.slots))
	for id, h := range t.hashes {
		t.place(h, int32(id))
	}
}
