package cupeltest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
)

// TestPlacer checks that p honours the Placer contract (spec chapters 12,
// Stage 6: Place, and 31, Placers) on seeded generated inputs (pinned items
// with score 1.0, then scored items by score descending, as the Place stage
// merges them) and on the caller's items ([WithItems]). It returns nil when
// every property holds, else an error joining one [*ContractViolation] per
// broken property, each with the smallest input found that shows it.
//
// The properties: [PropPermutation] (exactly the input items, by pointer,
// each as often as the input holds it), [PropDeterministic] (the same
// order), [PropNoMutation], [PropFastPath] (a [cupel.PositionPlacer]'s
// positions are a permutation of the input's and give Place's order; so are
// a [cupel.RankedPlacer]'s, for the input in rank order),
// [PropConcurrentUse] and [PropEdgeCases] (an empty input gives an empty
// result; a single item gives that item; zero-token items do not panic).
//
// A nil placer, or an invalid option, is an error saying the argument is
// invalid.
func TestPlacer(p cupel.Placer, opts ...Option) error {
	st, err := placerSuite(p, opts)
	if err != nil {
		return err
	}
	return st.errorOf()
}

// RunPlacerTests runs the checks of [TestPlacer] as subtests of t, one per
// property, named after it. A property that holds trivially is skipped.
func RunPlacerTests(t *testing.T, p cupel.Placer, opts ...Option) {
	t.Helper()
	st, err := placerSuite(p, opts)
	if err != nil {
		t.Fatal(err)
	}
	st.runTests(t)
}

func placerSuite(p cupel.Placer, opts []Option) (*suite[[]cupel.ScoredItem], error) {
	if p == nil || isNilPointer(p) {
		return nil, fmt.Errorf("%w: TestPlacer needs a non-nil cupel.Placer", ErrInvalidArgument)
	}
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	g := newGen(c)
	var inputs [][]cupel.ScoredItem
	if len(c.items) > 0 {
		inputs = append(inputs, g.merged(c.items))
	}
	for range c.inputs {
		items := g.items(g.size())
		if g.r.IntN(3) == 0 { // some pinned items
			for i := range 1 + g.r.IntN(2) {
				spec := items[i].Spec()
				spec.Pinned = true
				items[i] = cupel.MustItem(spec)
			}
		}
		inputs = append(inputs, g.merged(items))
	}
	edges := [][]cupel.ScoredItem{{}, g.merged(g.plain(1)), g.merged(g.zeros(1)), g.merged(g.zeros(3))}

	call := func(in []cupel.ScoredItem) []*cupel.ContextItem { return p.Place(slices.Clone(in)) }
	positional, isPositional := p.(cupel.PositionPlacer)
	rankedPlacer, isRanked := p.(cupel.RankedPlacer)
	inputItems := func(in []cupel.ScoredItem) []*cupel.ContextItem {
		out := make([]*cupel.ContextItem, len(in))
		for i, si := range in {
			out[i] = si.Item
		}
		return out
	}

	st := &suite[[]cupel.ScoredItem]{
		component: "Placer", typ: typeName(p), seed: c.seed,
		inputs: inputs, edges: edges,
		shrink: removeChunks[cupel.ScoredItem],
		render: func(in []cupel.ScoredItem) string {
			return fmt.Sprintf("items (%s): %s", plural(len(in), "item"), renderScored(in))
		},
	}
	st.props = []property[[]cupel.ScoredItem]{
		{
			name: PropPermutation,
			rule: "Place must return exactly the items it was handed (the same pointers, each as often), in some order",
			check: func(in []cupel.ScoredItem) string {
				got := call(in)
				if !sameMultiset(got, inputItems(in)) {
					return fmt.Sprintf("%s: %s", plural(len(got), "item"), names(got))
				}
				return ""
			},
		},
		{
			name: PropDeterministic,
			rule: "Place must return the same order when called again with the same items",
			check: func(in []cupel.ScoredItem) string {
				first, second := call(in), call(in)
				if !slices.Equal(first, second) {
					return fmt.Sprintf("%s, then %s", names(first), names(second))
				}
				return ""
			},
		},
		{
			name: PropNoMutation,
			rule: "Place (and PlacePositions) must not modify the items slice it is handed",
			check: func(in []cupel.ScoredItem) string {
				arg := slices.Clone(in)
				p.Place(arg)
				if !slices.Equal(arg, in) {
					return "after Place, items was " + renderScored(arg)
				}
				if isPositional {
					positional.PlacePositions(arg)
					if !slices.Equal(arg, in) {
						return "after PlacePositions, items was " + renderScored(arg)
					}
				}
				return ""
			},
		},
		{
			name: PropFastPath,
			rule: "PlacePositions (and PlaceRanked, for items in rank order) must return a permutation of the input positions that gives Place's order",
			check: func(in []cupel.ScoredItem) string {
				if isPositional {
					if msg := checkPlacement("PlacePositions", positional.PlacePositions(slices.Clone(in)), in, call(in)); msg != "" {
						return msg
					}
				}
				if isRanked {
					// PlaceRanked serves input in rank order: the Sort
					// stage's order of the same items.
					ranked := sortStage(in)
					if msg := checkPlacement("PlaceRanked", rankedPlacer.PlaceRanked(make([]int, len(ranked))), ranked, call(ranked)); msg != "" {
						return msg + " (items in rank order " + renderScored(ranked) + ")"
					}
				}
				return ""
			},
		},
		{
			name: PropConcurrentUse,
			rule: "calls from several goroutines at once must return what a call on its own returns (run with -race to catch data races too)",
			all: func(ins [][]cupel.ScoredItem) ([]cupel.ScoredItem, string) {
				seen := map[*cupel.ContextItem]*cupel.ContextItem{}
				fresh := make([][]cupel.ScoredItem, len(ins))
				for i, in := range ins {
					fresh[i] = freshScored(in, seen)
				}
				return firstMismatch(fresh, func(in []cupel.ScoredItem) string { return names(call(in)) })
			},
		},
		{
			name: PropEdgeCases,
			rule: "an empty input must give an empty result and a single item that item; zero-token items must not panic",
			edge: true,
			check: func(in []cupel.ScoredItem) string {
				got := call(in)
				if len(in) <= 1 && !slices.Equal(got, inputItems(in)) {
					return fmt.Sprintf("%s: %s", plural(len(got), "item"), names(got))
				}
				return ""
			},
		},
	}
	if !isPositional && !isRanked {
		setSkip(st.props, PropFastPath, "the placer implements neither cupel.PositionPlacer nor cupel.RankedPlacer")
	}
	return st, nil
}

// checkPlacement says how the positions a positional placer method
// returned for in differ from want, what Place returns for in, or "" when
// they are a permutation of in's positions that gives want's order.
func checkPlacement(method string, pos []int, in []cupel.ScoredItem, want []*cupel.ContextItem) string {
	if len(pos) != len(in) {
		return fmt.Sprintf("%s returned %v: %d positions for %d items", method, pos, len(pos), len(in))
	}
	seen := make([]bool, len(in))
	got := make([]*cupel.ContextItem, len(pos))
	for i, q := range pos {
		if q < 0 || q >= len(in) {
			return fmt.Sprintf("%s returned %v: position %d is outside [0, %d)", method, pos, q, len(in))
		}
		if seen[q] {
			return fmt.Sprintf("%s returned %v: position %d twice", method, pos, q)
		}
		seen[q] = true
		got[i] = in[q].Item
	}
	if !slices.Equal(got, want) {
		return fmt.Sprintf("%s returned %v, the order %s; Place returns %s", method, pos, names(got), names(want))
	}
	return ""
}
