package keysort

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cupel-go/go-cupel/internal/testtool"
)

// TestSortKeyIdxAgreesWithReference: Sort, the introsort (with its
// heapsort fallback forced too) and, for records in idx order, the radix
// sort give exactly the (key, idx) order of slices.SortFunc with
// Cmp, on random keys with and without ties and on adversarial
// shapes, at sizes on both sides of the introsort's insertion-sort cutoff
// and of fewRadixPasses for keys differing in one to eight bytes; both
// sides of fewRadixPasses are seen.
func TestSortKeyIdxAgreesWithReference(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 1))
	sizes := []int{0, 1, 2, 3, 16, 17, 30, 100, 1000, 3000, 5000, 20000}
	shapes := map[string]func(i, n int) uint64{
		"random":     func(int, int) uint64 { return r.Uint64() },
		"few values": func(int, int) uint64 { return uint64(r.IntN(4)) },
		"all equal":  func(int, int) uint64 { return 7 },
		"ascending":  func(i, _ int) uint64 { return uint64(i) },
		"descending": func(i, n int) uint64 { return uint64(n - i) },
		"organ pipe": func(i, n int) uint64 { return uint64(min(i, n-i)) },
		"float keys": func(int, int) uint64 { return DescKey(float64(r.IntN(50)) / 7) },
		"priorities": func(int, int) uint64 { return uint64(r.IntN(11)) ^ (1 << 63) }, // one radix pass
		"timestamps": func(int, int) uint64 { return uint64(1_767_225_600e9+r.Int64N(30*24*3600e9)) ^ (1 << 63) },
	}
	radix := map[bool]int{}
	for name, gen := range shapes {
		for _, n := range sizes {
			for _, shuffledIdx := range []bool{false, true} {
				k := make([]KeyIdx, n)
				for i := range k {
					k[i] = KeyIdx{gen(i, n), i}
				}
				if shuffledIdx {
					r.Shuffle(n, func(i, j int) { k[i], k[j] = k[j], k[i] })
				}
				want := slices.Clone(k)
				slices.SortFunc(want, Cmp)
				for _, sorter := range []struct {
					name string
					sort func([]KeyIdx)
				}{
					{"introsort", IntroSortKeyIdx},
					{"heapsort fallback", func(k []KeyIdx) { introSortKeyIdxDepth(k, 0) }},
					{"sortKeyIdx", Sort},
				} {
					got := slices.Clone(k)
					sorter.sort(got)
					if !slices.Equal(got, want) {
						t.Fatalf("%s, %s, n=%d, shuffled idx %v: order differs from the reference", sorter.name, name, n, shuffledIdx)
					}
				}
				if shuffledIdx {
					continue // the radix sort needs records in idx order
				}
				diff := VaryingBits(k)
				radix[fewRadixPasses(n, diff)]++
				got := slices.Clone(k)
				if err := RadixSortKeyIdx(got, diff, nil); err != nil || !slices.Equal(got, want) {
					t.Fatalf("radix sort, %s, n=%d: order differs from the reference (err %v)", name, n, err)
				}
			}
		}
	}
	if radix[true] == 0 || radix[false] == 0 {
		t.Fatalf("fewRadixPasses picked the radix sort %d times and the introsort %d times: both sides must be tested", radix[true], radix[false])
	}
}

// TestRadixSortAgreesWithReference: keys in idx order that differ in one
// to eight bytes, at any positions (seconds over a month vary in three),
// with ties, sorted by Sort (whichever sort fewRadixPasses picks)
// and by RadixSortKeyIdx directly, come out in the (key, idx) order of
// slices.SortFunc with Cmp.
func TestRadixSortAgreesWithReference(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 3))
	for trial := range testtool.Iterations(300, 60) {
		n := 2 + r.IntN(6000)
		var mask uint64
		for range 1 + r.IntN(8) {
			mask |= 0xff << (8 * r.IntN(8))
		}
		base := r.Uint64()
		k := make([]KeyIdx, n)
		for i := range k {
			v := r.Uint64()
			if r.IntN(4) == 0 && i > 0 {
				v = k[r.IntN(i)].Key // a tie
			}
			k[i] = KeyIdx{base&^mask | v&mask, i}
		}
		want := slices.Clone(k)
		slices.SortFunc(want, Cmp)
		direct := slices.Clone(k)
		if err := RadixSortKeyIdx(direct, VaryingBits(direct), nil); err != nil {
			t.Fatal(err)
		}
		Sort(k)
		if !slices.Equal(k, want) || !slices.Equal(direct, want) {
			t.Fatalf("trial %d (n %d, mask %#x): sortKeyIdx or radixSortKeyIdx differs from the reference", trial, n, mask)
		}
	}
}
