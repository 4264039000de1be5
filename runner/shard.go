package runner

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard is one part of a run or exploration split over Count machines:
// shard Index (1..Count) takes the cases at positions p with p mod Count =
// Index-1 (a run: positions in the suite's case order; explore: generated
// indices). Every case belongs to exactly one shard, and the shards'
// reports merge into the report of one unsharded run. The zero Shard is
// the whole.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// ParseShard parses "I/N" (1 ≤ I ≤ N).
func ParseShard(s string) (Shard, error) {
	i, n, ok := strings.Cut(s, "/")
	a, err1 := strconv.Atoi(i)
	b, err2 := strconv.Atoi(n)
	sh := Shard{Index: a, Count: b}
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("%w: shard %q: want I/N, e.g. 2/8", ErrUsage, s)
	}
	return sh, sh.Validate()
}

// String is "I/N", or "" for the whole.
func (s Shard) String() string {
	if s.Count == 0 {
		return ""
	}
	return strconv.Itoa(s.Index) + "/" + strconv.Itoa(s.Count)
}

// Validate checks that s is the zero Shard (no sharding) or I/N with
// 1 ≤ I ≤ N; the error wraps ErrUsage.
func (s Shard) Validate() error {
	if s == (Shard{}) {
		return nil
	}
	if s.Count < 1 || s.Index < 1 || s.Index > s.Count {
		return fmt.Errorf("%w: shard %d/%d: want 1 ≤ I ≤ N", ErrUsage, s.Index, s.Count)
	}
	return nil
}

// Span is the first position of the shard and the step between its
// positions: a loop over them costs nothing per case.
func (s Shard) Span() (first, step int) {
	if s.Count <= 1 {
		return 0, 1
	}
	return s.Index - 1, s.Count
}

// Owns reports whether position p belongs to the shard.
func (s Shard) Owns(p int) bool {
	first, step := s.Span()
	return p%step == first
}
