package slicer

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/internal/keysort"
)

// greedyInput builds the ScoredItems of a fill case, in position order:
// an item of tokens t at each position, a nil Item where t is -5.
func greedyInput(scores []float64, toks []int) []cupel.ScoredItem {
	in := make([]cupel.ScoredItem, len(toks))
	for pos, t := range toks {
		in[pos].Score = scores[pos]
		if t != -5 {
			in[pos].Item = tokItem(t)
		}
	}
	return in
}

// specGreedyPositions is what the fill must equal, by the exported spec
// method: the positions Greedy.Slice selects, in its order. With tie
// (the pipeline's fused path) the input is first put in Sort-stage order
// (tie key ascending, then position), and the positions returned are the
// original ones.
func specGreedyPositions(scores []float64, toks []int, tie []uint64, target int) []int {
	in := greedyInput(scores, toks)
	order := make([]int, len(in))
	for pos := range order {
		order[pos] = pos
	}
	if tie != nil {
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(tie[a], tie[b]) })
	}
	sorted := make([]cupel.ScoredItem, len(in))
	for k, pos := range order {
		sorted[k] = in[pos]
	}
	sel, err := (*Greedy)(nil).Slice(sorted, budgetOf(max(target, 0), target))
	if err != nil {
		panic(err)
	}
	posOf := map[*cupel.ContextItem]int{}
	for pos, si := range in {
		posOf[si.Item] = pos
	}
	out := []int{}
	for _, it := range sel {
		out = append(out, posOf[it])
	}
	return out
}

// greedyFillCase is one random input: scores rich in ties (equal densities
// from equal scores and tokens, and from proportional ones), NaN and
// negative scores, zero, negative and over-target tokens, and nil items
// (tokens -5, see greedyInput). One case in four draws from so few scores
// and tokens that runs of equal density reach thousands of records (both
// sides of fewRadixPasses when the fused path orders a run by tie key).
func greedyFillCase(r *rand.Rand, n int) (scores []float64, toks []int, tie []uint64, target int) {
	vals := []float64{0, 0.1, 0.25, 0.5, 1, 2, -0.5, math.NaN(), math.Copysign(0, -1), math.Inf(1)}
	scores, toks, tie = make([]float64, n), make([]int, n), make([]uint64, n)
	maxTok := 1 + r.IntN(2000)
	fewValues := r.IntN(4) == 0
	if fewValues {
		maxTok = 4
	}
	for i := range n {
		switch {
		case fewValues:
			scores[i] = []float64{0, math.Copysign(0, -1), 0.5, 1}[r.IntN(4)]
		case r.IntN(4) == 0:
			scores[i] = vals[r.IntN(len(vals))]
		default:
			scores[i] = float64(r.IntN(1000)) / 1000
		}
		switch r.IntN(20) {
		case 0:
			toks[i] = 0
		case 1:
			toks[i] = -1 - r.IntN(5)
		default:
			toks[i] = 1 + r.IntN(maxTok)
		}
		tie[i] = keysort.DescKey(scores[i])
	}
	total := 0
	for _, t := range toks {
		total += max(t, 0)
	}
	switch r.IntN(5) {
	case 0: // everything fits
		target = n*maxTok + 1
	case 4: // everything but a few tokens fits, or just so
		target = max(1, total-r.IntN(3))
	case 1:
		target = r.IntN(3)
	default:
		target = 1 + r.IntN(max(1, n*maxTok/4))
	}
	return scores, toks, tie, target
}

// runGreedyFill runs the incremental fill; depth < 0 lets it choose the
// introsort depth, 0 forces the heapsort at once.
func runGreedyFill(scores []float64, toks []int, tie []uint64, target, depth int) []int {
	out := []int{}
	if target <= 0 {
		return out
	}
	f := newGreedyFill(len(toks), target, tie != nil)
	defer f.release()
	for pos, t := range toks {
		if tie != nil {
			f.tie[pos] = tie[pos]
		}
		f.add(pos, scores[pos], t)
	}
	var taken []keysort.KeyIdx
	if depth < 0 {
		taken = f.run()
	} else {
		f.fill(0, len(f.recs), f.maxTok, depth)
		f.flush()
		taken = f.recs[:f.n]
	}
	for _, t := range taken {
		out = append(out, t.Idx)
	}
	return out
}

// TestGreedySlicePositionsEqualsSlice: the fast path equals the spec
// method. Greedy.SlicePositions (and the fill with the heapsort forced
// at once, depth 0, or after one partition, depth 1) selects exactly the
// positions Greedy.Slice selects, in the same order; with Sort-stage
// tie keys (the pipeline's fused path, which orders the set afterwards) the
// fill selects exactly the set that the Sort stage followed by
// Greedy.Slice selects. The sizes and targets fall on both sides of
// every fork: parts of 16 records or fewer (insertion sort) and more, the
// introsort depth, the drop of records over the remaining budget, the
// fused path's all-fit shortcut, and runs of equal density shorter and
// long enough for fewRadixPasses to pick the radix sort; with ties, zero, negative, nil and
// over-target items.
func TestGreedySlicePositionsEqualsSlice(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 3))
	sizes := []int{0, 1, 2, greedyInsertionMax - 1, greedyInsertionMax, greedyInsertionMax + 1, 33, 40, 100, 300, 1023, 1025, 3000, 5000}
	for _, n := range sizes {
		for trial := range 40 {
			scores, toks, tie, target := greedyFillCase(r, n)
			want := specGreedyPositions(scores, toks, nil, target)
			got, err := (*Greedy)(nil).SlicePositions(greedyInput(scores, toks), budgetOf(max(target, 0), target))
			if err != nil || !slices.Equal(got, want) {
				t.Fatalf("n=%d trial %d target %d: SlicePositions = %v, %v; Slice selects %v", n, trial, target, got, err, want)
			}
			for _, depth := range []int{0, 1} {
				if got := runGreedyFill(scores, toks, nil, target, depth); !slices.Equal(got, want) {
					t.Fatalf("n=%d trial %d depth %d target %d: position ties: got %v, want %v", n, trial, depth, target, got, want)
				}
			}
			wantSet := specGreedyPositions(scores, toks, tie, target)
			slices.Sort(wantSet)
			for _, depth := range []int{-1, 0, 1} {
				got := runGreedyFill(scores, toks, tie, target, depth)
				slices.Sort(got)
				if !slices.Equal(got, wantSet) {
					t.Fatalf("n=%d trial %d depth %d target %d: Sort-stage ties: got %v, want %v", n, trial, depth, target, got, wantSet)
				}
			}
		}
	}
}

// TestGreedyFillTieKeysDecide: records of equal density are taken in
// Sort-stage order, not position order, where that decides what fits.
func TestGreedyFillTieKeysDecide(t *testing.T) {
	// Equal density 0.1: pos 0 (score 1, 10 tokens) and pos 1 (score 2,
	// 20 tokens). Position order takes pos 0 and then pos 1 no longer
	// fits 25; the Sort stage puts pos 1 (score 2) first.
	scores, toks := []float64{1, 2}, []int{10, 20}
	tie := []uint64{keysort.DescKey(1), keysort.DescKey(2)}
	if got := runGreedyFill(scores, toks, nil, 25, -1); !slices.Equal(got, []int{0}) {
		t.Fatalf("position ties: got %v, want [0]", got)
	}
	if got := runGreedyFill(scores, toks, tie, 25, -1); !slices.Equal(got, []int{1}) {
		t.Fatalf("Sort-stage ties: got %v, want [1]", got)
	}
}

// TestGreedyFillAllFitWaitsForTies: a part that continues the pending run
// of equal density is not taken whole, even when it would all fit, since
// its records may come before the pending ones in Sort-stage order.
func TestGreedyFillAllFitWaitsForTies(t *testing.T) {
	f := newGreedyFill(3, 100, true)
	defer f.release()
	for pos := range 3 {
		f.tie[pos] = uint64(3 + pos)
		f.add(pos, 1, 50)
	}
	f.pend = append(f.pend, keysort.KeyIdx{Key: 7, Idx: 0})
	f.pendKey = 7
	if f.allFit(10, 7) {
		t.Fatal("allFit took a part continuing the pending run")
	}
	if len(f.pend) != 1 || f.n != 0 {
		t.Fatalf("allFit decided the pending run early: pend %v, taken %d", f.pend, f.n)
	}
	if !f.allFit(50, 8) || len(f.pend) != 0 || f.remaining != 50 {
		t.Fatalf("allFit after another density: pend %v, remaining %d (want [] and 50)", f.pend, f.remaining)
	}
	if f.allFit(51, 9) {
		t.Fatal("allFit took a part of more tokens than remain")
	}
}

func TestAddWithin(t *testing.T) {
	for _, c := range []struct{ sum, t, limit, want int }{
		{0, 5, 10, 5}, {5, 5, 10, 10}, {6, 5, 10, math.MaxInt}, {math.MaxInt, 1, 10, math.MaxInt},
		{math.MaxInt - 1, math.MaxInt - 1, math.MaxInt, math.MaxInt},
	} {
		if got := addWithin(c.sum, c.t, c.limit); got != c.want {
			t.Errorf("addWithin(%d, %d, %d) = %d, want %d", c.sum, c.t, c.limit, got, c.want)
		}
	}
}

// tokItem is an item of t tokens (any content: the slicers compare items
// by identity).
func tokItem(t int) *cupel.ContextItem {
	return cupel.MustItem(cupel.ItemSpec{Content: "x", Tokens: t})
}
