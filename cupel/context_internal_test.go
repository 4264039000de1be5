package cupel

import (
	"context"
	"errors"
	"testing"

	"github.com/cupel-go/go-cupel/cupel/internal/keysort"
)

// TestSortKeyIdxStopPollsBetweenPasses: a large radix sort under a done
// context stops with a *CanceledError naming the stage, and leaves the keys
// a permutation of what they were; a nil canceller sorts.
func TestSortKeyIdxStopPollsBetweenPasses(t *testing.T) {
	const n = 4096 // keys differing in two bytes: the radix sort
	mk := func() []keysort.KeyIdx {
		k := make([]keysort.KeyIdx, n)
		for i := range k {
			k[i] = keysort.KeyIdx{Key: uint64((i * 7919) % n), Idx: i}
		}
		return k
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	k := mk()
	err := keysort.SortPoll(k, newCanceller(ctx).poller(stageSort))
	var ce *CanceledError
	if !errors.As(err, &ce) || ce.Stage != stageSort || !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want a *CanceledError at Sort wrapping context.Canceled", err)
	}
	seen := make([]bool, n)
	for _, r := range k {
		seen[r.Idx] = true
	}
	for i, s := range seen {
		if !s {
			t.Fatalf("record %d lost", i)
		}
	}
	k = mk()
	if err := keysort.SortPoll(k, nil); err != nil || !keysort.SortedKeyIdx(k) {
		t.Fatalf("nil canceller: err %v, sorted %v", err, keysort.SortedKeyIdx(k))
	}
}

// TestNewCancellerNeverDone: contexts that can never be done give a nil
// canceller, the path of a run without a context.
func TestNewCancellerNeverDone(t *testing.T) {
	for _, ctx := range []context.Context{nil, context.Background(), context.TODO(), context.WithoutCancel(context.Background())} {
		if c := newCanceller(ctx); c != nil {
			t.Errorf("newCanceller(%v) = %v, want nil", ctx, c)
		}
	}
}
