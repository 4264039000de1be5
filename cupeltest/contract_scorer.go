package cupeltest

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
)

// TestScorer checks that s honours the Scorer contract (spec chapter 13,
// Scorers) on seeded generated inputs and on the caller's items
// ([WithItems]), in the manner of testing/fstest.TestFS. It returns nil when
// every property holds, else an error joining one [*ContractViolation] per
// broken property, each with the smallest input found that shows it.
//
// The properties: [PropDeterministic] (Score(item, all) gives the same bits
// when called again), [PropNoMutation] (all is left as it was),
// [PropOrderIndependent] (on items that differ in every field, an item's
// score does not change when all is reordered), [PropFiniteScores], [PropFastPath] (a [cupel.BatchScorer]'s ScoreAll writes
// exactly Score(items[i], items) into out[i] and nothing past
// out[len(items)-1]), [PropConcurrentUse] and [PropEdgeCases] (a single item,
// zero-token items and, for ScoreAll, an empty list).
//
// A nil scorer, or an invalid option, is an error saying the argument is
// invalid.
func TestScorer(s cupel.Scorer, opts ...Option) error {
	st, err := scorerSuite(s, opts)
	if err != nil {
		return err
	}
	return st.errorOf()
}

// RunScorerTests runs the checks of [TestScorer] as subtests of t, one per
// property, named after it (t.Run("Deterministic", ...)). A property that
// holds trivially (FastPathAgrees for a scorer without ScoreAll) is skipped.
func RunScorerTests(t *testing.T, s cupel.Scorer, opts ...Option) {
	t.Helper()
	st, err := scorerSuite(s, opts)
	if err != nil {
		t.Fatal(err)
	}
	st.runTests(t)
}

func scorerSuite(s cupel.Scorer, opts []Option) (*suite[[]*cupel.ContextItem], error) {
	if s == nil || isNilPointer(s) {
		return nil, fmt.Errorf("%w: TestScorer needs a non-nil cupel.Scorer", ErrInvalidArgument)
	}
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	g := newGen(c)
	var inputs [][]*cupel.ContextItem
	if len(c.items) > 0 {
		inputs = append(inputs, slices.Clone(c.items))
	}
	for range c.inputs {
		inputs = append(inputs, g.items(g.size()))
	}
	edges := [][]*cupel.ContextItem{{}, g.plain(1), g.zeros(1), g.zeros(3), append(g.zeros(2), g.plain(2)...)}
	distinct := make([][]*cupel.ContextItem, 0, c.inputs)
	for range c.inputs {
		distinct = append(distinct, g.distinct(g.size()))
	}

	// scores scores every item of all with the per-item path.
	// The component is always handed a copy, so that a mutating one cannot
	// change the inputs of the other checks.
	scores := func(all []*cupel.ContextItem) []float64 {
		arg := slices.Clone(all)
		out := make([]float64, len(all))
		for i, it := range all {
			out[i] = s.Score(it, arg)
		}
		return out
	}
	batch, hasBatch := s.(cupel.BatchScorer)

	st := &suite[[]*cupel.ContextItem]{
		component: "Scorer", typ: typeName(s), seed: c.seed,
		inputs: inputs, edges: edges,
		shrink: removeChunks[*cupel.ContextItem],
		render: func(all []*cupel.ContextItem) string {
			return fmt.Sprintf("all (%s): %s", plural(len(all), "item"), renderItems(all))
		},
	}
	st.props = []property[[]*cupel.ContextItem]{
		{
			name: PropDeterministic,
			rule: "Score(item, all) must return the same value when called again with the same arguments",
			check: func(all []*cupel.ContextItem) string {
				first, second := scores(all), scores(all)
				for i := range all {
					if !sameFloat(first[i], second[i]) {
						return fmt.Sprintf("Score(%q, all) returned %s, then %s", all[i].Content(), ftoa(first[i]), ftoa(second[i]))
					}
				}
				return ""
			},
		},
		{
			name: PropNoMutation,
			rule: "Score and ScoreAll must not modify the items slice they are handed",
			check: func(all []*cupel.ContextItem) string {
				arg := slices.Clone(all)
				for i := range arg {
					s.Score(arg[i], arg)
					if !slices.Equal(arg, all) {
						return fmt.Sprintf("after Score(%q, all), all was %s", all[i].Content(), names(arg))
					}
				}
				if hasBatch {
					batch.ScoreAll(arg, make([]float64, len(arg)))
					if !slices.Equal(arg, all) {
						return "after ScoreAll(all, out), all was " + names(arg)
					}
				}
				return ""
			},
		},
		{
			name: PropOrderIndependent,
			rule: "on items that differ in every field, Score(item, all) and ScoreAll must give an item the same score whatever its position in all",
			ins:  distinct,
			check: func(all []*cupel.ContextItem) string {
				want := scores(all)
				for _, perm := range permutations(len(all)) {
					reordered := make([]*cupel.ContextItem, len(all))
					for i, p := range perm {
						reordered[i] = all[p]
					}
					got := scores(reordered)
					if hasBatch {
						out := make([]float64, len(all))
						batch.ScoreAll(slices.Clone(reordered), out)
						for i, p := range perm {
							if !closeFloat(out[i], want[p]) {
								return fmt.Sprintf("ScoreAll gave %q %s with all reordered to %s; Score gives it %s in the order given", all[p].Content(), ftoa(out[i]), names(reordered), ftoa(want[p]))
							}
						}
					}
					for i, p := range perm {
						if !closeFloat(got[i], want[p]) {
							return fmt.Sprintf("Score(%q, all) returned %s with all reordered to %s; %s in the order given", all[p].Content(), ftoa(got[i]), names(reordered), ftoa(want[p]))
						}
					}
				}
				return ""
			},
		},
		{
			name: PropFiniteScores,
			rule: "scores must be finite (not NaN or ±Inf) for items whose fields are finite",
			check: func(all []*cupel.ContextItem) string {
				for i, f := range scores(all) {
					if math.IsNaN(f) || math.IsInf(f, 0) {
						return fmt.Sprintf("Score(%q, all) returned %s", all[i].Content(), ftoa(f))
					}
				}
				return ""
			},
		},
		{
			name: PropFastPath,
			rule: "ScoreAll(items, out) must write exactly Score(items[i], items) into out[i], and nothing past out[len(items)-1]",
			check: func(all []*cupel.ContextItem) string {
				want := scores(all)
				const sentinel = -12345.678
				out := make([]float64, len(all)+1)
				out[len(all)] = sentinel
				batch.ScoreAll(slices.Clone(all), out)
				for i := range all {
					if !sameFloat(out[i], want[i]) {
						return fmt.Sprintf("ScoreAll wrote %s for %q; Score returns %s", ftoa(out[i]), all[i].Content(), ftoa(want[i]))
					}
				}
				if out[len(all)] != sentinel {
					return fmt.Sprintf("ScoreAll wrote %s at out[%d], past the items", ftoa(out[len(all)]), len(all))
				}
				return ""
			},
		},
		{
			name: PropConcurrentUse,
			rule: "calls from several goroutines at once must return what a call on its own returns (run with -race to catch data races too)",
			all: func(ins [][]*cupel.ContextItem) ([]*cupel.ContextItem, string) {
				seen := map[*cupel.ContextItem]*cupel.ContextItem{}
				fresh := make([][]*cupel.ContextItem, len(ins))
				for i, in := range ins {
					fresh[i] = freshItems(in, seen)
				}
				return firstMismatch(fresh, func(all []*cupel.ContextItem) string {
					var b strings.Builder
					for _, f := range scores(all) {
						b.WriteString(ftoa(f) + " ")
					}
					if hasBatch {
						out := make([]float64, len(all))
						batch.ScoreAll(slices.Clone(all), out)
						b.WriteString("| ScoreAll ")
						for _, f := range out {
							b.WriteString(ftoa(f) + " ")
						}
					}
					return "[" + strings.TrimSpace(b.String()) + "]"
				})
			},
		},
		{
			name: PropEdgeCases,
			rule: "an empty list (ScoreAll), a single item and zero-token items must be scored without panicking, with finite scores",
			edge: true,
			check: func(all []*cupel.ContextItem) string {
				if hasBatch {
					out := make([]float64, len(all))
					batch.ScoreAll(slices.Clone(all), out)
				}
				for i, f := range scores(all) {
					if math.IsNaN(f) || math.IsInf(f, 0) {
						return fmt.Sprintf("Score(%q, all) returned %s", all[i].Content(), ftoa(f))
					}
				}
				return ""
			},
		},
	}
	if !hasBatch {
		setSkip(st.props, PropFastPath, "the scorer does not implement cupel.BatchScorer")
	}
	return st, nil
}

// permutations returns the reorderings of n items the OrderIndependent
// check tries: reversed, and rotated by one.
func permutations(n int) [][]int {
	rev, rot := make([]int, n), make([]int, n)
	for i := range n {
		rev[i] = n - 1 - i
		rot[i] = (i + 1) % n
	}
	return [][]int{rev, rot}
}

// closeFloat reports whether a and b are the same score up to the rounding
// of a sum taken in another order: equal bits, both NaN, or within a
// relative 1e-12.
func closeFloat(a, b float64) bool {
	if sameFloat(a, b) {
		return true
	}
	return math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b))
}
