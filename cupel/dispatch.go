package cupel

import (
	"context"
	"reflect"

	"github.com/cupel-go/go-cupel/cupel/internal/keysort"
)

// The one place that decides how a component is called: one function per
// stage, looking only at the optional interfaces of interfaces.go (the table
// of the package documentation), never at a component's type, so that a
// custom component is called exactly as a built-in one.
//
//   - Score: [ScoreBatch].
//   - Slice: slicePathOf picks the method, callSlicer calls it; the pipeline
//     (sliceSorted, run.sliceUnsorted) and the decorator slicers
//     ([SliceWithContext]) go through them, each saying what it can take
//     (sliceCaller).
//   - Place: run.placeMerged.

// ScoreBatch writes s.Score(items[i], items) into out[i] for every i: it is
// the Score stage's dispatch. Where s is a [BatchScorer] it calls ScoreAll
// once; for any other Scorer it calls Score once per item. A nil items[i]
// gets 0 without s being called (the per-item result of every built-in
// scorer), so that a custom scorer nested in a scorer.Composite or
// scorer.Scaled is never handed a nil item.
//
// It returns out[:len(items)], or a new slice when out has too little
// capacity, as append does.
func ScoreBatch(s Scorer, items []*ContextItem, out []float64) []float64 {
	if cap(out) < len(items) {
		out = make([]float64, len(items))
	}
	out = out[:len(items)]
	if b, ok := s.(BatchScorer); ok {
		b.ScoreAll(items, out)
		return out
	}
	for i, it := range items {
		if it == nil {
			out[i] = 0
			continue
		}
		out[i] = s.Score(it, items)
	}
	return out
}

// sliceCaller says what the caller of a slicer can take; each takes what
// the one before it takes, and more.
type sliceCaller uint8

const (
	// forResult: [SliceWithContext], which takes the items in the slicer's
	// order and its details: how a decorator slicer calls its inner slicer.
	forResult sliceCaller = iota
	// forSorted: the Slice stage over the Sort stage's list, which takes the
	// details and needs only which items were selected (positions in any
	// order will do).
	forSorted
	// forUnsorted: the Slice stage of a run that records nothing, or only
	// into SliceExclusionRecorders, which may also leave the Sort stage to
	// the slicer.
	forUnsorted
)

// slicePath is the method through which a slicer is called.
type slicePath uint8

const (
	pathSlice                 slicePath = iota // Slicer.Slice
	pathSliceDetailed                          // DetailedSlicer.SliceDetailed
	pathSliceContext                           // ContextSlicer.SliceContext
	pathSliceUnsorted                          // UnsortedSlicer.SliceUnsorted
	pathSlicePositions                         // PositionSlicer.SlicePositions
	pathSlicePositionsContext                  // ContextPositionSlicer.SlicePositionsContext
)

// method is the name of the slicer method of the path, for error messages.
func (p slicePath) method() string {
	return [...]string{"Slice", "SliceDetailed", "SliceContext", "SliceUnsorted", "SlicePositions", "SlicePositionsContext"}[p]
}

// positional reports whether the path returns positions rather than items.
func (p slicePath) positional() bool { return p >= pathSliceUnsorted }

// slicePathOf is the Slice stage's one precedence rule. It asks s for the
// richest result it gives and the caller can take: details
// ([DetailedSlicer], every caller); else positions, from SliceUnsorted
// ([UnsortedSlicer], forUnsorted only) or else SlicePositions
// ([PositionSlicer], from forSorted on); else items (Slice). When the run
// can be cancelled it takes the context form of that method where s has
// one: SliceContext ([ContextSlicer]) for details and items,
// SlicePositionsContext ([ContextPositionSlicer]) for SlicePositions.
// SliceUnsorted has no context form.
func slicePathOf(s Slicer, caller sliceCaller, cancellable bool) slicePath {
	_, hasContext := s.(ContextSlicer)
	if _, ok := s.(DetailedSlicer); ok {
		if cancellable && hasContext {
			return pathSliceContext
		}
		return pathSliceDetailed
	}
	if _, ok := s.(UnsortedSlicer); ok && caller == forUnsorted {
		return pathSliceUnsorted
	}
	if _, ok := s.(PositionSlicer); ok && caller >= forSorted {
		if _, ok := s.(ContextPositionSlicer); ok && cancellable {
			return pathSlicePositionsContext
		}
		return pathSlicePositions
	}
	if cancellable && hasContext {
		return pathSliceContext
	}
	return pathSlice
}

// callSlicer calls s through path on in under b, with c checked before and
// after the call (c is nil when the run cannot be cancelled; a context form
// gets c's context). A positional path returns its positions (never nil
// without an error) and an empty res; any other path returns res, with
// Selected set, and nil positions. dst is the buffer SliceUnsorted appends
// to. The positions are not checked yet: see markPositions.
func callSlicer(c *canceller, s Slicer, path slicePath, in []ScoredItem, b ContextBudget, dst []int) (pos []int, res SliceResult, err error) {
	if err := c.err(StageSlice); err != nil {
		return nil, SliceResult{}, err
	}
	switch path {
	case pathSliceDetailed:
		res, err = s.(DetailedSlicer).SliceDetailed(in, b)
	case pathSliceContext:
		res, err = s.(ContextSlicer).SliceContext(c.ctx, in, b)
	case pathSliceUnsorted:
		pos, err = s.(UnsortedSlicer).SliceUnsorted(in, b, dst)
	case pathSlicePositions:
		pos, err = s.(PositionSlicer).SlicePositions(in, b)
	case pathSlicePositionsContext:
		pos, err = s.(ContextPositionSlicer).SlicePositionsContext(c.ctx, in, b)
	default:
		res.Selected, err = s.Slice(in, b)
	}
	if err == nil {
		err = c.err(StageSlice)
	}
	if err != nil {
		return nil, SliceResult{}, err
	}
	if pos == nil && path.positional() {
		pos = []int{}
	}
	return pos, res, nil
}

// markPositions checks the positions a slicer returned through path for an
// input of n items, marking each in chosen (len n, all false): a position
// out of range or repeated is a [*ValidationError] naming s.
func markPositions(s Slicer, path slicePath, pos []int, chosen []bool) error {
	n := len(chosen)
	for _, k := range pos {
		if k < 0 || k >= n {
			return invalidConfig("Pipeline", "Slicer", typeName(s),
				path.method()+" returned position "+itoa(k)+", outside [0, "+itoa(n)+")")
		}
		if chosen[k] {
			return invalidConfig("Pipeline", "Slicer", typeName(s),
				path.method()+" returned position "+itoa(k)+" twice")
		}
		chosen[k] = true
	}
	return nil
}

// sliceSorted is the Slice stage over sorted, the Sort stage's list: it
// calls s (slicePathOf, forSorted) under b and marks in chosen (len(sorted);
// cleared first) the positions it selected, returning chosen with their
// number and the slicer's details. The items a non-positional path returns
// are matched back to sorted by identity (ruling 14), a pointer listed n
// times being selectable n times, and must come from sorted.
func sliceSorted(c *canceller, s Slicer, sorted []ScoredItem, b ContextBudget, chosen []bool) (_ []bool, n int, res SliceResult, err error) {
	path := slicePathOf(s, forSorted, c != nil)
	pos, res, err := callSlicer(c, s, path, sorted, b, nil)
	if err != nil {
		return nil, 0, res, err
	}
	clear(chosen)
	if pos != nil {
		if err := markPositions(s, path, pos, chosen); err != nil {
			return nil, 0, res, err
		}
		return chosen, len(pos), res, nil
	}
	want := make(map[*ContextItem]int, len(res.Selected))
	for _, it := range res.Selected {
		want[it]++
	}
	for k, si := range sorted {
		if want[si.Item] > 0 {
			want[si.Item]--
			chosen[k] = true
			n++
		}
	}
	if n != len(res.Selected) {
		return nil, 0, res, invalidConfig("Pipeline", "Slicer", typeName(s), path.method()+" returned an item that was not in its input")
	}
	return chosen, n, res, nil
}

// SliceWithContext runs s on sorted under budget as a decorator slicer
// calls its inner slicer, so that cancellation reaches it: with ctx checked
// before and after the call, through SliceContext when ctx can be done and s
// is a [ContextSlicer], else through SliceDetailed when s is a
// [DetailedSlicer], else through Slice (the precedence rule of the package
// documentation, for a caller that takes the items in the slicer's order
// and its details).
func SliceWithContext(ctx context.Context, s Slicer, sorted []ScoredItem, budget ContextBudget) (SliceResult, error) {
	c := newCanceller(ctx)
	_, res, err := callSlicer(c, s, slicePathOf(s, forResult, c != nil), sorted, budget, nil)
	return res, err
}

// placeMerged is the Place stage's dispatch: it runs the placer on merged
// and returns the placed items with their scores. ranked says that merged
// is in rank order (score descending, ties in list order). A
// [RankedPlacer] is called through PlaceRanked when merged is ranked, else
// a [PositionPlacer] through PlacePositions; their result must be a
// permutation of merged's positions. Any other placer is called through
// Place, whose items are matched back to merged by identity (ruling 14) and
// must be a permutation of them.
func (r *run) placeMerged(merged []ScoredItem, ranked bool) ([]*ContextItem, []float64, error) {
	var pos []int
	method := ""
	if rp, ok := r.p.placer.(RankedPlacer); ok && ranked {
		pos, method = rp.PlaceRanked(keysort.Resize(&r.sc.positions, len(merged))), "PlaceRanked"
	} else if pp, ok := r.p.placer.(PositionPlacer); ok {
		pos, method = pp.PlacePositions(merged), "PlacePositions"
	}
	if method != "" {
		scores := make([]float64, len(merged))
		if err := r.checkPermutation(method, pos, len(merged), scores); err != nil {
			return nil, nil, err
		}
		placed := make([]*ContextItem, len(pos))
		for i, p := range pos {
			placed[i], scores[i] = merged[p].Item, merged[p].Score
		}
		return placed, scores, nil
	}
	placed := r.p.placer.Place(merged)
	bad := func() error {
		return invalidConfig("Pipeline", "Placer", typeName(r.p.placer), "did not return a permutation of its input")
	}
	if len(placed) != len(merged) {
		return nil, nil, bad()
	}
	// first[item] is the first unused position of item in merged; next
	// chains the further positions of the same pointer.
	first := make(map[*ContextItem]int, len(merged))
	next := make([]int, len(merged))
	for i := len(merged) - 1; i >= 0; i-- {
		it := merged[i].Item
		if j, ok := first[it]; ok {
			next[i] = j
		} else {
			next[i] = -1
		}
		first[it] = i
	}
	scores := make([]float64, len(placed))
	for i, it := range placed {
		j, ok := first[it]
		if !ok || j < 0 {
			return nil, nil, bad()
		}
		scores[i] = merged[j].Score
		first[it] = next[j]
	}
	return placed, scores, nil
}

// checkPermutation checks that pos, what the placer's method returned, is a
// permutation of 0..n-1. It marks the positions seen in mark, a zeroed
// slice of len(pos) floats that the caller overwrites afterwards, so as not
// to allocate.
func (r *run) checkPermutation(method string, pos []int, n int, mark []float64) error {
	bad := func(why string) error {
		return invalidConfig("Pipeline", "Placer", typeName(r.p.placer), method+" "+why)
	}
	if len(pos) != n {
		return bad("returned " + itoa(len(pos)) + " positions for " + itoa(n) + " items")
	}
	for _, p := range pos {
		if p < 0 || p >= n {
			return bad("returned position " + itoa(p) + ", outside [0, " + itoa(n) + ")")
		}
		if mark[p] != 0 {
			return bad("returned position " + itoa(p) + " twice")
		}
		mark[p] = 1
	}
	return nil
}

func typeName(v any) string { return reflect.TypeOf(v).String() }
