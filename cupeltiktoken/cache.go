package cupeltiktoken

import (
	"hash/maphash"
	"sync"
)

type cacheKey struct {
	hash   uint64
	length int
}

// cache is a two-generation map: lookups try the current generation, then
// the previous one (moving a hit forward); when the current generation is
// full it becomes the previous one and the oldest is dropped. That keeps the
// entries used in the last size/2 insertions, in O(1) per call. A nil cache
// remembers nothing.
type cache struct {
	seed         maphash.Seed
	mu           sync.Mutex
	cur, prev    map[cacheKey]int
	half         int
	hits, misses uint64
}

func newCache(size int) *cache {
	if size <= 0 {
		return nil
	}
	half := max(1, size/2)
	return &cache{seed: maphash.MakeSeed(), cur: make(map[cacheKey]int, half), half: half}
}

func (c *cache) key(text string) cacheKey {
	if c == nil {
		return cacheKey{}
	}
	return cacheKey{hash: maphash.String(c.seed, text), length: len(text)}
}

func (c *cache) get(k cacheKey) (int, bool) {
	if c == nil {
		return 0, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if n, ok := c.cur[k]; ok {
		c.hits++
		return n, true
	}
	if n, ok := c.prev[k]; ok {
		c.hits++
		c.insert(k, n)
		return n, true
	}
	c.misses++
	return 0, false
}

func (c *cache) put(k cacheKey, n int) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.insert(k, n)
}

// insert adds to the current generation, turning generations over when it
// is full. The caller holds mu.
func (c *cache) insert(k cacheKey, n int) {
	if len(c.cur) >= c.half {
		c.prev, c.cur = c.cur, make(map[cacheKey]int, c.half)
	}
	c.cur[k] = n
}

func (c *cache) stats() (hits, misses uint64) {
	if c == nil {
		return 0, 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits, c.misses
}
