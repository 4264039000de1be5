package cupeltest

import (
	"cmp"
	"fmt"
	"iter"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
)

// sliceInput is one input of a slicer: the sorted scored items and the
// effective budget.
type sliceInput struct {
	sorted []cupel.ScoredItem
	budget cupel.ContextBudget
}

// TestSlicer checks that s honours the Slicer contract (spec chapters 11,
// Stage 5: Slice, and 25, Slicers) on seeded generated inputs (score-sorted
// items and a budget) and on the caller's items ([WithItems]) under the
// caller's budgets ([WithBudgets]). It returns nil when every property
// holds, else an error joining one [*ContractViolation] per broken property,
// each with the smallest input found that shows it.
//
// The properties: [PropSubset] (only items of the input, by pointer),
// [PropNoDuplicates], [PropWithinBudget] (the selection's tokens are at most
// budget.TargetTokens; see [AllowOverTarget]), [PropDeterministic] (the same
// items in the same order, and an error again if there was one),
// [PropNoMutation], [PropFastPath] (a [cupel.DetailedSlicer]'s Selected is
// what Slice returns; a [cupel.PositionSlicer]'s positions are distinct, in
// range, and point at the items Slice returns; a [cupel.UnsortedSlicer]'s
// positions, for a shuffle of the input, point at the items Slice returns
// for the shuffle in the Sort stage's order), [PropConcurrentUse] and
// [PropEdgeCases] (an empty input and targetTokens 0, zero-token items
// included, give an empty selection and no error; a single item and
// zero-token items do not panic). An input
// on which Slice returns an error counts for Deterministic and FastPath only:
// a slicer may refuse an input its configuration makes fatal.
//
// A nil slicer, or an invalid option, is an error saying the argument is
// invalid.
func TestSlicer(s cupel.Slicer, opts ...Option) error {
	st, err := slicerSuite(s, opts)
	if err != nil {
		return err
	}
	return st.errorOf()
}

// RunSlicerTests runs the checks of [TestSlicer] as subtests of t, one per
// property, named after it. A property that holds trivially is skipped.
func RunSlicerTests(t *testing.T, s cupel.Slicer, opts ...Option) {
	t.Helper()
	st, err := slicerSuite(s, opts)
	if err != nil {
		t.Fatal(err)
	}
	st.runTests(t)
}

// sliceResult is one call's outcome, rendered for comparison.
type sliceResult struct {
	items []*cupel.ContextItem
	err   error
}

func (r sliceResult) String() string {
	if r.err != nil {
		return "error " + strconv.Quote(r.err.Error())
	}
	return plural(len(r.items), "item") + " " + names(r.items)
}

func slicerSuite(s cupel.Slicer, opts []Option) (*suite[sliceInput], error) {
	if s == nil || isNilPointer(s) {
		return nil, fmt.Errorf("%w: TestSlicer needs a non-nil cupel.Slicer", ErrInvalidArgument)
	}
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	g := newGen(c)
	var inputs []sliceInput
	if len(c.items) > 0 {
		var nonPinned []*cupel.ContextItem
		for _, it := range c.items {
			if !it.Pinned() {
				nonPinned = append(nonPinned, it)
			}
		}
		sorted := g.sorted(nonPinned)
		inputs = append(inputs, sliceInput{sorted, g.budget(nonPinned)})
		for _, b := range c.budgets {
			inputs = append(inputs, sliceInput{sorted, b})
		}
	}
	for range c.inputs {
		items := g.items(g.size())
		items = slices.DeleteFunc(items, (*cupel.ContextItem).Pinned)
		in := sliceInput{g.sorted(items), g.budget(items)}
		if len(c.budgets) > 0 && g.r.IntN(2) == 0 {
			in.budget = c.budgets[g.r.IntN(len(c.budgets))]
		}
		inputs = append(inputs, in)
	}
	one := g.plain(1)
	edges := []sliceInput{
		{[]cupel.ScoredItem{}, budgetOf(100, 100)},
		{g.sorted(g.plain(5)), budgetOf(100, 0)},
		{g.sorted(one), budgetOf(1000, one[0].Tokens())},
		{g.sorted(g.zeros(1)), budgetOf(10, 10)},
		{g.sorted(g.zeros(3)), budgetOf(10, 10)},
		{g.sorted(append(g.zeros(2), g.plain(3)...)), budgetOf(50, 40)},
		// Zero-token items at targetTokens 0: they fit "what is left", yet
		// spec chapter 25 (Slicers), contract 4, wants nothing selected.
		{g.sorted(g.zeros(2)), budgetOf(100, 0)},
		{g.sorted(append(g.zeros(2), g.plain(3)...)), budgetOf(0, 0)},
	}

	call := func(in sliceInput) sliceResult {
		items, err := s.Slice(slices.Clone(in.sorted), in.budget)
		return sliceResult{items, err}
	}
	detailed, isDetailed := s.(cupel.DetailedSlicer)
	positional, isPositional := s.(cupel.PositionSlicer)
	unsorted, isUnsorted := s.(cupel.UnsortedSlicer)

	st := &suite[sliceInput]{
		component: "Slicer", typ: typeName(s), seed: c.seed,
		inputs: inputs, edges: edges,
		shrink: func(in sliceInput) iter.Seq[sliceInput] {
			return func(yield func(sliceInput) bool) {
				for sorted := range removeChunks(in.sorted) {
					if !yield(sliceInput{sorted, in.budget}) {
						return
					}
				}
				// Then smaller targets (the budget has only maxTokens and
				// targetTokens: it is the effective budget).
				t := in.budget.TargetTokens()
				for _, smaller := range []int{0, 1, t / 2, t - 1} {
					if smaller >= 0 && smaller < t && !yield(sliceInput{in.sorted, budgetOf(in.budget.MaxTokens(), smaller)}) {
						return
					}
				}
				if in.budget.MaxTokens() > t {
					yield(sliceInput{in.sorted, budgetOf(t, t)})
				}
			}
		},
		render: func(in sliceInput) string {
			return fmt.Sprintf("%s, sorted (%s): %s", renderBudget(in.budget), plural(len(in.sorted), "item"), renderScored(in.sorted))
		},
	}
	st.props = []property[sliceInput]{
		{
			name: PropSubset,
			rule: "every returned item must be one of the input items (the same pointer)",
			check: func(in sliceInput) string {
				r := call(in)
				if r.err != nil {
					return ""
				}
				for _, it := range r.items {
					if !slices.ContainsFunc(in.sorted, func(si cupel.ScoredItem) bool { return si.Item == it }) {
						return fmt.Sprintf("%s, where %s is not an input item", r, renderBrief(it))
					}
				}
				return ""
			},
		},
		{
			name: PropNoDuplicates,
			rule: "no item may be returned more often than the input holds it",
			check: func(in sliceInput) string {
				r := call(in)
				if r.err != nil {
					return ""
				}
				for _, it := range r.items {
					n := 0
					for _, x := range r.items {
						if x == it {
							n++
						}
					}
					m := 0
					for _, si := range in.sorted {
						if si.Item == it {
							m++
						}
					}
					if n > m && m > 0 {
						return fmt.Sprintf("%s, with %s %d times (the input holds it %d times)", r, renderBrief(it), n, m)
					}
				}
				return ""
			},
		},
		{
			name: PropWithinBudget,
			rule: "the selected items' tokens must not exceed budget.TargetTokens",
			check: func(in sliceInput) string {
				r := call(in)
				if r.err != nil {
					return ""
				}
				total := 0
				for _, it := range r.items {
					if it != nil {
						total += it.Tokens()
					}
				}
				if total > in.budget.TargetTokens() {
					return fmt.Sprintf("%s, %d tokens in all", r, total)
				}
				return ""
			},
		},
		{
			name: PropDeterministic,
			rule: "Slice must return the same items in the same order (or an error again) when called again with the same arguments",
			check: func(in sliceInput) string {
				first, second := call(in), call(in)
				if first.String() != second.String() || !slices.Equal(first.items, second.items) {
					return fmt.Sprintf("%s, then %s", first, second)
				}
				return ""
			},
		},
		{
			name: PropNoMutation,
			rule: "Slice (and its fast path) must not modify the sorted slice it is handed",
			check: func(in sliceInput) string {
				arg := slices.Clone(in.sorted)
				_, _ = s.Slice(arg, in.budget)
				if !slices.Equal(arg, in.sorted) {
					return "after Slice, sorted was " + renderScored(arg)
				}
				if isDetailed {
					_, _ = detailed.SliceDetailed(arg, in.budget)
					if !slices.Equal(arg, in.sorted) {
						return "after SliceDetailed, sorted was " + renderScored(arg)
					}
				} else if isPositional {
					_, _ = positional.SlicePositions(arg, in.budget)
					if !slices.Equal(arg, in.sorted) {
						return "after SlicePositions, sorted was " + renderScored(arg)
					}
				}
				return ""
			},
		},
		{
			name: PropFastPath,
			rule: "the fast path must select exactly what Slice selects",
			check: func(in sliceInput) string {
				want := call(in)
				if isDetailed {
					res, err := detailed.SliceDetailed(slices.Clone(in.sorted), in.budget)
					got := sliceResult{res.Selected, err}
					if got.String() != want.String() || !slices.Equal(got.items, want.items) {
						return fmt.Sprintf("SliceDetailed selected %s; Slice returns %s", got, want)
					}
					return ""
				}
				if isPositional {
					pos, err := positional.SlicePositions(slices.Clone(in.sorted), in.budget)
					if msg := checkPositions("SlicePositions", pos, err, in.sorted, want); msg != "" {
						return msg
					}
				}
				if isUnsorted {
					// SliceUnsorted takes the items in any order: a
					// shuffle of them must select what Slice selects from
					// the same shuffle in the Sort stage's order.
					shuffled := shuffle(in.sorted)
					arg := slices.Clone(shuffled)
					pos, err := unsorted.SliceUnsorted(arg, in.budget, nil)
					if !slices.Equal(arg, shuffled) {
						return "after SliceUnsorted, items was " + renderScored(arg)
					}
					want := call(sliceInput{sortStage(shuffled), in.budget})
					if msg := checkPositions("SliceUnsorted", pos, err, shuffled, want); msg != "" {
						return msg + " (items " + renderScored(shuffled) + ")"
					}
				}
				return ""
			},
		},
		{
			name: PropConcurrentUse,
			rule: "calls from several goroutines at once must return what a call on its own returns (run with -race to catch data races too)",
			all: func(ins []sliceInput) (sliceInput, string) {
				seen := map[*cupel.ContextItem]*cupel.ContextItem{}
				fresh := make([]sliceInput, len(ins))
				for i, in := range ins {
					fresh[i] = sliceInput{freshScored(in.sorted, seen), in.budget}
				}
				return firstMismatch(fresh, func(in sliceInput) string { return call(in).String() })
			},
		},
		{
			name: PropEdgeCases,
			rule: "an empty input and targetTokens <= 0 (zero-token items included) must give an empty selection and no error (spec chapter 25, contract 4); a single item and zero-token items must not panic",
			edge: true,
			check: func(in sliceInput) string {
				r := call(in)
				if len(in.sorted) == 0 || in.budget.TargetTokens() <= 0 {
					if r.err != nil || len(r.items) > 0 {
						return r.String()
					}
				}
				return ""
			},
		},
	}
	if !isDetailed && !isPositional && !isUnsorted {
		setSkip(st.props, PropFastPath, "the slicer implements none of cupel.DetailedSlicer, cupel.PositionSlicer and cupel.UnsortedSlicer")
	}
	if c.allowOverTarg {
		setSkip(st.props, PropWithinBudget, "AllowOverTarget: the slicer may select more than budget.TargetTokens by design")
	}
	return st, nil
}

// sameMultiset reports whether a and b hold the same pointers, as often.
func sameMultiset(a, b []*cupel.ContextItem) bool {
	if len(a) != len(b) {
		return false
	}
	count := map[*cupel.ContextItem]int{}
	for _, it := range a {
		count[it]++
	}
	for _, it := range b {
		count[it]--
		if count[it] < 0 {
			return false
		}
	}
	return true
}

// checkPositions says how the positions a positional slicer method
// returned for in (with err) differ from want, what Slice returns for in
// in the Sort stage's order, or "" when they give the same items (in any
// order) and the same error or none.
func checkPositions(method string, pos []int, err error, in []cupel.ScoredItem, want sliceResult) string {
	if (err != nil) != (want.err != nil) {
		return fmt.Sprintf("%s returned %v (error %v); Slice returns %s", method, pos, err, want)
	}
	if err != nil {
		return ""
	}
	seen := map[int]bool{}
	items := make([]*cupel.ContextItem, 0, len(pos))
	for _, p := range pos {
		if p < 0 || p >= len(in) {
			return fmt.Sprintf("%s returned %v: position %d is outside [0, %d)", method, pos, p, len(in))
		}
		if seen[p] {
			return fmt.Sprintf("%s returned %v: position %d twice", method, pos, p)
		}
		seen[p] = true
		items = append(items, in[p].Item)
	}
	if !sameMultiset(items, want.items) {
		return fmt.Sprintf("%s returned %v, the items %s; Slice returns %s", method, pos, names(items), want)
	}
	return ""
}

// shuffle returns the items of in in an order drawn from a generator
// seeded by their number, so that a check is reproducible.
func shuffle(in []cupel.ScoredItem) []cupel.ScoredItem {
	out := slices.Clone(in)
	r := rand.New(rand.NewPCG(uint64(len(in)), 35))
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// sortStage returns in in the pipeline's Sort-stage order: score
// descending, stable, NaN after every number, -0 equal to +0 (ruling 6),
// which is cmp.Compare's order reversed.
func sortStage(in []cupel.ScoredItem) []cupel.ScoredItem {
	out := slices.Clone(in)
	slices.SortStableFunc(out, func(a, b cupel.ScoredItem) int { return cmp.Compare(b.Score, a.Score) })
	return out
}
