package scorer

import (
	"cmp"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cupel-go/go-cupel/cupel/internal/keysort"
	"github.com/cupel-go/go-cupel/internal/testtool"
)

// TestRankByCountingAgreesWithSorting: assignRanksKeys ranks keys spanning
// fewer than rankCountSpan values by counting, and others by sorting; on
// both sides of that span, with ties, in shuffled order and at sizes from 2
// up, its scores are bit for bit those of assignRanks (a comparison sort
// of the same keys).
func TestRankByCountingAgreesWithSorting(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 2))
	spans := []uint64{1, 2, 11, rankCountSpan - 1, rankCountSpan, rankCountSpan + 1, 1 << 40}
	for trial := range testtool.Iterations(400, 80) {
		n := 2 + r.IntN(300)
		span := spans[trial%len(spans)]
		base := r.Uint64()
		if base > math.MaxUint64-span {
			base -= span
		}
		keys := make([]keysort.KeyIdx, n)
		es := make([]rankEntry[uint64], n)
		for i := range keys {
			v := base + r.Uint64N(span)
			if i < 2 { // the span is reached exactly
				v = base + uint64(i)*(span-1)
			}
			keys[i] = keysort.KeyIdx{Key: v, Idx: i}
			es[i] = rankEntry[uint64]{v, i}
		}
		r.Shuffle(n, func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		got, want := make([]float64, n), make([]float64, n)
		assignRanksKeys(keys, got)
		assignRanks(es, cmp.Compare[uint64], want)
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("trial %d (n %d, span %d): item %d scores %v, want %v", trial, n, span, i, got[i], want[i])
			}
		}
	}
}
