package cupeltest_test

import (
	"cmp"
	"errors"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/slicer"
	"github.com/cupel-go/go-cupel/cupeltest"
)

// ---- deliberately broken components, one per property ----

// tokenScorer is a correct absolute scorer: tokens / 1000.
type tokenScorer struct{}

func (tokenScorer) Score(it *cupel.ContextItem, _ []*cupel.ContextItem) float64 {
	return float64(it.Tokens()) / 1000
}

// flipScorer alternates between two answers: not deterministic.
type flipScorer struct{ n atomic.Int64 }

func (s *flipScorer) Score(it *cupel.ContextItem, _ []*cupel.ContextItem) float64 {
	return float64(s.n.Add(1) % 2)
}

// sortingScorer sorts the list it is handed by content.
type sortingScorer struct{}

func (sortingScorer) Score(it *cupel.ContextItem, all []*cupel.ContextItem) float64 {
	slices.SortFunc(all, func(a, b *cupel.ContextItem) int { return strings.Compare(b.Content(), a.Content()) })
	return 0.5
}

// logScorer returns log(tokens): -Inf for a zero-token item.
type logScorer struct{}

func (logScorer) Score(it *cupel.ContextItem, _ []*cupel.ContextItem) float64 {
	return math.Log(float64(it.Tokens()))
}

// offByHalfBatch has a ScoreAll that disagrees with its Score.
type offByHalfBatch struct{ tokenScorer }

func (offByHalfBatch) ScoreAll(items []*cupel.ContextItem, out []float64) {
	for i, it := range items {
		out[i] = float64(it.Tokens())/1000 + 0.5
	}
}

// inFlight models a component with shared scratch state: a call that
// overlaps another returns a wrong answer. It uses atomics only, so it has no
// data race for -race to report; it is caught by comparing results.
type inFlight struct{ n atomic.Int32 }

func (f *inFlight) overlapped() bool {
	busy := f.n.Add(1) > 1
	for range 200 {
		runtime.Gosched()
		busy = busy || f.n.Load() > 1
	}
	f.n.Add(-1)
	return busy
}

type sharedStateScorer struct{ inFlight }

func (s *sharedStateScorer) Score(it *cupel.ContextItem, _ []*cupel.ContextItem) float64 {
	if s.overlapped() {
		return -1
	}
	return float64(it.Tokens()) / 1000
}

// maxNormScorer divides by the largest token count; its ScoreAll reads
// items[0] first and so panics on an empty list.
type maxNormScorer struct{}

func (maxNormScorer) Score(it *cupel.ContextItem, all []*cupel.ContextItem) float64 {
	out := make([]float64, len(all))
	maxNormScorer{}.ScoreAll(all, out)
	return out[slices.Index(all, it)]
}

func (maxNormScorer) ScoreAll(items []*cupel.ContextItem, out []float64) {
	m := items[0].Tokens()
	for _, it := range items {
		m = max(m, it.Tokens())
	}
	for i, it := range items {
		out[i] = float64(it.Tokens()) / float64(max(m, 1))
	}
}

// positionScorer scores an item by its position in all: a score that
// depends on the order of the items, not on their fields.
type positionScorer struct{}

func (positionScorer) Score(it *cupel.ContextItem, all []*cupel.ContextItem) float64 {
	return float64(slices.Index(all, it)) / float64(len(all))
}

// greedy is a correct slicer: the sorted items in order while they fit.
func greedy(sorted []cupel.ScoredItem, b cupel.ContextBudget) []*cupel.ContextItem {
	out := []*cupel.ContextItem{}
	left := b.TargetTokens()
	if left <= 0 {
		return out
	}
	for _, si := range sorted {
		if t := si.Item.Tokens(); t <= left {
			out = append(out, si.Item)
			left -= t
		}
	}
	return out
}

type slicerFunc func([]cupel.ScoredItem, cupel.ContextBudget) ([]*cupel.ContextItem, error)

func (f slicerFunc) Slice(s []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	return f(s, b)
}

// copyingSlicer returns copies of the items it selects, not the items.
var copyingSlicer = slicerFunc(func(sorted []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	out := greedy(sorted, b)
	for i, it := range out {
		out[i] = cupel.MustItem(it.Spec())
	}
	return out, nil
})

// repeatingSlicer returns its first selected item twice.
var repeatingSlicer = slicerFunc(func(sorted []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	out := greedy(sorted, b)
	if len(out) > 0 {
		out = append(out, out[0])
	}
	return out, nil
})

// overshootingSlicer takes items until the target is reached, the item that
// crosses it included.
var overshootingSlicer = slicerFunc(func(sorted []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	out := []*cupel.ContextItem{}
	total := 0
	for _, si := range sorted {
		if total >= b.TargetTokens() {
			break
		}
		out = append(out, si.Item)
		total += si.Item.Tokens()
	}
	return out, nil
})

// alternatingSlicer returns the selection reversed on every other call.
type alternatingSlicer struct{ n atomic.Int64 }

func (s *alternatingSlicer) Slice(sorted []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	out := greedy(sorted, b)
	if s.n.Add(1)%2 == 0 {
		slices.Reverse(out)
	}
	return out, nil
}

// inPlaceSlicer sorts its input by tokens before selecting.
var inPlaceSlicer = slicerFunc(func(sorted []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	slices.SortStableFunc(sorted, func(x, y cupel.ScoredItem) int { return x.Item.Tokens() - y.Item.Tokens() })
	return greedy(sorted, b), nil
})

// mirroredPositionsSlicer's SlicePositions counts positions from the end.
type mirroredPositionsSlicer struct{}

func (mirroredPositionsSlicer) Slice(sorted []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	return greedy(sorted, b), nil
}

func (mirroredPositionsSlicer) SlicePositions(sorted []cupel.ScoredItem, b cupel.ContextBudget) ([]int, error) {
	var pos []int
	left := b.TargetTokens()
	for i, si := range sorted {
		if t := si.Item.Tokens(); t <= left {
			pos = append(pos, len(sorted)-1-i)
			left -= t
		}
	}
	return pos, nil
}

// inputOrderUnsortedSlicer's SliceUnsorted fills the budget in the order
// it is handed the items, not in the Sort stage's.
type inputOrderUnsortedSlicer struct{}

func (inputOrderUnsortedSlicer) Slice(sorted []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	return greedy(sorted, b), nil
}

func (inputOrderUnsortedSlicer) SliceUnsorted(items []cupel.ScoredItem, b cupel.ContextBudget, dst []int) ([]int, error) {
	left := b.TargetTokens()
	for i, si := range items {
		if t := si.Item.Tokens(); t <= left {
			dst = append(dst, i)
			left -= t
		}
	}
	return dst, nil
}

// reversedRankedPlacer's PlaceRanked puts the items in reverse rank order,
// where its Place puts them in rank order.
type reversedRankedPlacer struct{}

func (reversedRankedPlacer) Place(items []cupel.ScoredItem) []*cupel.ContextItem {
	sorted := slices.Clone(items)
	slices.SortStableFunc(sorted, func(a, b cupel.ScoredItem) int { return cmp.Compare(b.Score, a.Score) })
	out := make([]*cupel.ContextItem, len(sorted))
	for i, si := range sorted {
		out[i] = si.Item
	}
	return out
}

func (reversedRankedPlacer) PlaceRanked(out []int) []int {
	for i := range out {
		out[i] = len(out) - 1 - i
	}
	return out
}

type sharedStateSlicer struct{ inFlight }

func (s *sharedStateSlicer) Slice(sorted []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	out := greedy(sorted, b)
	if s.overlapped() && len(out) > 0 {
		out = out[1:]
	}
	return out, nil
}

// zeroAtZeroSlicer takes each item that fits what is left of the target,
// so it takes zero-token items at targetTokens 0 (the bug
// chat.NewestFirstSlice had).
var zeroAtZeroSlicer = slicerFunc(func(sorted []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	out := []*cupel.ContextItem{}
	left := b.TargetTokens()
	for _, si := range sorted {
		if t := si.Item.Tokens(); t <= left {
			out = append(out, si.Item)
			left -= t
		}
	}
	return out, nil
})

// headSlicer always takes the top item first: it panics on an empty input.
var headSlicer = slicerFunc(func(sorted []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	out := []*cupel.ContextItem{sorted[0].Item}
	left := b.TargetTokens() - sorted[0].Item.Tokens()
	if left < 0 {
		return nil, nil
	}
	for _, si := range sorted[1:] {
		if t := si.Item.Tokens(); t <= left {
			out = append(out, si.Item)
			left -= t
		}
	}
	return out, nil
})

type placerFunc func([]cupel.ScoredItem) []*cupel.ContextItem

func (f placerFunc) Place(items []cupel.ScoredItem) []*cupel.ContextItem { return f(items) }

func keepOrder(items []cupel.ScoredItem) []*cupel.ContextItem {
	out := make([]*cupel.ContextItem, len(items))
	for i, si := range items {
		out[i] = si.Item
	}
	return out
}

// droppingPlacer loses the last item.
var droppingPlacer = placerFunc(func(items []cupel.ScoredItem) []*cupel.ContextItem {
	out := keepOrder(items)
	if len(out) > 1 {
		out = out[:len(out)-1]
	}
	return out
})

type alternatingPlacer struct{ n atomic.Int64 }

func (p *alternatingPlacer) Place(items []cupel.ScoredItem) []*cupel.ContextItem {
	out := keepOrder(items)
	if p.n.Add(1)%2 == 0 {
		slices.Reverse(out)
	}
	return out
}

// inPlacePlacer sorts its input by tokens and returns it.
var inPlacePlacer = placerFunc(func(items []cupel.ScoredItem) []*cupel.ContextItem {
	slices.SortStableFunc(items, func(x, y cupel.ScoredItem) int { return x.Item.Tokens() - y.Item.Tokens() })
	return keepOrder(items)
})

// reversedPositionsPlacer's PlacePositions disagrees with its Place.
type reversedPositionsPlacer struct{}

func (reversedPositionsPlacer) Place(items []cupel.ScoredItem) []*cupel.ContextItem {
	return keepOrder(items)
}

func (reversedPositionsPlacer) PlacePositions(items []cupel.ScoredItem) []int {
	pos := make([]int, len(items))
	for i := range pos {
		pos[i] = len(items) - 1 - i
	}
	return pos
}

type sharedStatePlacer struct{ inFlight }

func (p *sharedStatePlacer) Place(items []cupel.ScoredItem) []*cupel.ContextItem {
	out := keepOrder(items)
	if p.overlapped() {
		slices.Reverse(out)
	}
	return out
}

// firstAtEndPlacer moves the first item to the end: it panics on an empty
// input.
var firstAtEndPlacer = placerFunc(func(items []cupel.ScoredItem) []*cupel.ContextItem {
	out := keepOrder(items[1:])
	return append(out, items[0].Item)
})

// ---- specs ----

// violations returns the properties err reports as broken.
func violations(err error) map[cupeltest.Property]*cupeltest.ContractViolation {
	out := map[cupeltest.Property]*cupeltest.ContractViolation{}
	if err == nil {
		return out
	}
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	} else {
		errs = []error{err}
	}
	for _, e := range errs {
		var v *cupeltest.ContractViolation
		Expect(errors.As(e, &v)).To(BeTrue(), "not a ContractViolation: %v", e)
		out[v.Property] = v
	}
	return out
}

var _ = Describe("contract checkers", func() {
	It("pass the correct test doubles", func() {
		Expect(cupeltest.TestScorer(tokenScorer{})).To(Succeed())
		Expect(cupeltest.TestSlicer(slicerFunc(func(s []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
			return greedy(s, b), nil
		}))).To(Succeed())
		Expect(cupeltest.TestPlacer(placerFunc(keepOrder))).To(Succeed())
	})

	DescribeTable("catch a broken scorer with the property it breaks",
		func(s cupel.Scorer, prop cupeltest.Property, got string, opts ...cupeltest.Option) {
			err := cupeltest.TestScorer(s, opts...)
			v := violations(err)[prop]
			Expect(v).NotTo(BeNil(), "expected a %s violation in: %v", prop, err)
			Expect(v.Component).To(Equal("Scorer"))
			Expect(v.Got).To(ContainSubstring(got))
			Expect(err.Error()).To(ContainSubstring("breaks " + string(prop) + ": "))
		},
		Entry("Deterministic", &flipScorer{}, cupeltest.PropDeterministic, "returned 1, then 0"),
		Entry("NoMutation", sortingScorer{}, cupeltest.PropNoMutation, "all was"),
		Entry("FiniteScores", logScorer{}, cupeltest.PropFiniteScores, "returned -Inf"),
		Entry("FastPathAgrees", offByHalfBatch{}, cupeltest.PropFastPath, "ScoreAll wrote"),
		Entry("ConcurrentUse", &sharedStateScorer{}, cupeltest.PropConcurrentUse, "concurrent calls returned"),
		Entry("EdgeCases", maxNormScorer{}, cupeltest.PropEdgeCases, "panicked: runtime error: index out of range"),
		Entry("OrderIndependent", positionScorer{}, cupeltest.PropOrderIndependent, "with all reordered to"),
	)

	DescribeTable("catch a broken slicer with the property it breaks",
		func(s cupel.Slicer, prop cupeltest.Property, got string) {
			err := cupeltest.TestSlicer(s)
			v := violations(err)[prop]
			Expect(v).NotTo(BeNil(), "expected a %s violation in: %v", prop, err)
			Expect(v.Component).To(Equal("Slicer"))
			Expect(v.Got).To(ContainSubstring(got))
		},
		Entry("Subset", copyingSlicer, cupeltest.PropSubset, "is not an input item"),
		Entry("NoDuplicates", repeatingSlicer, cupeltest.PropNoDuplicates, "2 times (the input holds it 1 times)"),
		Entry("WithinBudget", overshootingSlicer, cupeltest.PropWithinBudget, "tokens in all"),
		Entry("Deterministic", &alternatingSlicer{}, cupeltest.PropDeterministic, ", then "),
		Entry("NoMutation", inPlaceSlicer, cupeltest.PropNoMutation, "after Slice, sorted was"),
		Entry("FastPathAgrees", mirroredPositionsSlicer{}, cupeltest.PropFastPath, "SlicePositions returned"),
		Entry("FastPathAgrees, SliceUnsorted", inputOrderUnsortedSlicer{}, cupeltest.PropFastPath, "SliceUnsorted returned"),
		Entry("ConcurrentUse", &sharedStateSlicer{}, cupeltest.PropConcurrentUse, "concurrent calls returned"),
		Entry("EdgeCases", headSlicer, cupeltest.PropEdgeCases, "panicked: runtime error: index out of range"),
		Entry("EdgeCases, zero-token items at target 0", zeroAtZeroSlicer, cupeltest.PropEdgeCases, "1 item"),
	)

	DescribeTable("catch a broken placer with the property it breaks",
		func(p cupel.Placer, prop cupeltest.Property, got string) {
			err := cupeltest.TestPlacer(p)
			v := violations(err)[prop]
			Expect(v).NotTo(BeNil(), "expected a %s violation in: %v", prop, err)
			Expect(v.Component).To(Equal("Placer"))
			Expect(v.Got).To(ContainSubstring(got))
		},
		Entry("Permutation", droppingPlacer, cupeltest.PropPermutation, "1 item: "),
		Entry("Deterministic", &alternatingPlacer{}, cupeltest.PropDeterministic, ", then "),
		Entry("NoMutation", inPlacePlacer, cupeltest.PropNoMutation, "after Place, items was"),
		Entry("FastPathAgrees", reversedPositionsPlacer{}, cupeltest.PropFastPath, "Place returns"),
		Entry("FastPathAgrees, PlaceRanked", reversedRankedPlacer{}, cupeltest.PropFastPath, "PlaceRanked returned"),
		Entry("ConcurrentUse", &sharedStatePlacer{}, cupeltest.PropConcurrentUse, "concurrent calls returned"),
		Entry("EdgeCases", firstAtEndPlacer, cupeltest.PropEdgeCases, "panicked: runtime error"),
	)

	It("reports a scorer whose scores depend on the items' order, with the shrunk input and the seed", func() {
		err := cupeltest.TestScorer(positionScorer{}, cupeltest.WithSeed(3))
		Expect(violations(err)).To(HaveLen(1))
		v := violations(err)[cupeltest.PropOrderIndependent]
		Expect(v.Error()).To(MatchRegexp(`(?s)^Scorer cupeltest_test.positionScorer breaks OrderIndependent: .*\n    input: all \(2 items\): \[\{"u\d+" .*\}\]\n    got:   Score\("u\d+", all\) returned \S+ with all reordered to \["u\d+", "u\d+"\]; \S+ in the order given\n    \(seed 3\)$`))
	})

	It("reports a slicer that selects zero-token items at targetTokens 0, with the shrunk input and the seed", func() {
		err := cupeltest.TestSlicer(zeroAtZeroSlicer, cupeltest.WithSeed(5))
		Expect(violations(err)).To(HaveLen(1))
		v := violations(err)[cupeltest.PropEdgeCases]
		Expect(v.Error()).To(MatchRegexp(`(?s)^Slicer cupeltest_test.slicerFunc breaks EdgeCases: .*contract 4.*\n    input: ContextBudget\{MaxTokens: \d+, TargetTokens: 0\}, sorted \(1 item\): \[#0 score=\S+ \{"g\d+" 0 tokens .*\}\]\n    got:   1 item \["g\d+"\]\n    \(seed 5\)$`))
	})

	It("reports only the broken property when one is broken", func() {
		err := cupeltest.TestSlicer(overshootingSlicer)
		Expect(violations(err)).To(HaveLen(1))
	})

	It("shrinks the input to the fewest items that still show the violation", func() {
		err := cupeltest.TestSlicer(overshootingSlicer)
		v := violations(err)[cupeltest.PropWithinBudget]
		Expect(v.Input).To(ContainSubstring("sorted (1 item): [#0 "))
		Expect(v.Error()).To(MatchRegexp(`(?s)^Slicer cupeltest_test.slicerFunc breaks WithinBudget: the selected items' tokens must not exceed budget.TargetTokens\n    input: ContextBudget\{MaxTokens: (\d+), TargetTokens: (\d+)\}, sorted \(1 item\): \[#0 score=\S+ \{"g\d+" \d+ tokens \w+.*\}\]\n    got:   1 item \["g\d+"\], \d+ tokens in all\n    \(seed 1\)$`))
	})

	It("gives the same report for the same seed, and uses the seed it is given", func() {
		a := cupeltest.TestSlicer(overshootingSlicer).Error()
		Expect(cupeltest.TestSlicer(overshootingSlicer).Error()).To(Equal(a))
		b := cupeltest.TestSlicer(overshootingSlicer, cupeltest.WithSeed(7)).Error()
		Expect(b).To(HaveSuffix("(seed 7)"))
	})

	It("checks the caller's items, which generated inputs never hold", func() {
		// similarityScorer reads a "similarity" metadata value and is NaN when
		// it is not a float64: only the caller's items carry the key.
		s := similarityScorer{}
		Expect(cupeltest.TestScorer(s)).To(Succeed())
		bad := cupel.MustItem(cupel.ItemSpec{Content: "doc", Tokens: 5, Metadata: map[string]any{"similarity": "high"}})
		err := cupeltest.TestScorer(s, cupeltest.WithItems(bad))
		v := violations(err)[cupeltest.PropFiniteScores]
		Expect(v).NotTo(BeNil(), "%v", err)
		Expect(v.Input).To(Equal(`all (1 item): [{"doc" 5 tokens Message metadata={similarity:"high"}}]`))
		Expect(v.Got).To(Equal(`Score("doc", all) returned NaN`))
	})

	It("shrinks a long input of the caller's to the one item that matters", func() {
		items := make([]*cupel.ContextItem, 0, 501)
		for i := range 500 {
			items = append(items, cupel.MustItem(cupel.ItemSpec{Content: "ok " + strconv.Itoa(i), Tokens: 5, Metadata: map[string]any{"similarity": 0.5}}))
		}
		items = append(items[:250], append([]*cupel.ContextItem{cupel.MustItem(cupel.ItemSpec{Content: "bad", Tokens: 5, Metadata: map[string]any{"similarity": "high"}})}, items[250:]...)...)
		err := cupeltest.TestScorer(similarityScorer{}, cupeltest.WithInputs(0), cupeltest.WithItems(items...))
		v := violations(err)[cupeltest.PropFiniteScores]
		Expect(v).NotTo(BeNil(), "%v", err)
		Expect(v.Input).To(Equal(`all (1 item): [{"bad" 5 tokens Message metadata={similarity:"high"}}]`))
	})

	It("runs the caller's budgets on the caller's items", func() {
		items := []*cupel.ContextItem{
			cupel.MustItem(cupel.ItemSpec{Content: "a", Tokens: 30}),
			cupel.MustItem(cupel.ItemSpec{Content: "b", Tokens: 30}),
		}
		b := must(cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 100, TargetTokens: 40}))
		err := cupeltest.TestSlicer(overshootingSlicer, cupeltest.WithInputs(0), cupeltest.WithItems(items...), cupeltest.WithBudgets(b))
		Expect(violations(err)).To(HaveKey(cupeltest.PropWithinBudget))
	})

	It("names invalid arguments as such", func() {
		Expect(cupeltest.TestSlicer(nil)).To(MatchError(cupeltest.ErrInvalidArgument))
		Expect(cupeltest.TestPlacer(placerFunc(keepOrder), cupeltest.WithInputs(-3))).To(MatchError(cupeltest.ErrInvalidArgument))
		Expect(cupeltest.TestScorer(nil)).To(MatchError(ContainSubstring("invalid argument: TestScorer needs a non-nil cupel.Scorer")))
		Expect(cupeltest.TestSlicer((*slicer.Greedy)(nil))).To(MatchError(ContainSubstring("invalid argument: TestSlicer needs a non-nil cupel.Slicer")))
		Expect(cupeltest.TestPlacer(nil)).To(MatchError(ContainSubstring("invalid argument: TestPlacer needs a non-nil cupel.Placer")))
		Expect(cupeltest.TestScorer(tokenScorer{}, cupeltest.WithInputs(-1))).To(MatchError("cupeltest: invalid argument: WithInputs(-1): the number of inputs must be >= 0"))
		Expect(cupeltest.TestScorer(tokenScorer{}, cupeltest.WithItems(nil))).To(MatchError("cupeltest: invalid argument: WithItems: item 0 is nil"))
		Expect(cupeltest.TestScorer(tokenScorer{}, nil)).To(MatchError("cupeltest: invalid argument: a nil Option"))
	})

	It("runs one subtest per property, named after it", func() {
		out := runDemo("contract", "TestRunSlicerTestsDemo")
		Expect(out).To(ContainSubstring("--- FAIL: TestRunSlicerTestsDemo/WithinBudget"))
		Expect(out).To(ContainSubstring("breaks WithinBudget: the selected items' tokens must not exceed budget.TargetTokens"))
		for _, p := range []string{"Subset", "NoDuplicates", "Deterministic", "NoMutation", "ConcurrentUse", "EdgeCases"} {
			Expect(out).To(ContainSubstring("--- PASS: TestRunSlicerTestsDemo/" + p + " "))
		}
		Expect(out).To(ContainSubstring("--- SKIP: TestRunSlicerTestsDemo/FastPathAgrees"))
	})
})

// TestRunSlicerTestsDemo runs only in the child process of the spec above.
func TestRunSlicerTestsDemo(t *testing.T) {
	if os.Getenv(demoEnv) != "contract" {
		t.Skip("run by the cupeltest suite in a child process")
	}
	cupeltest.RunSlicerTests(t, overshootingSlicer)
}

type similarityScorer struct{}

func (similarityScorer) Score(it *cupel.ContextItem, _ []*cupel.ContextItem) float64 {
	v, ok := it.MetadataValue("similarity")
	if !ok {
		return 0
	}
	f, ok := v.(float64)
	if !ok {
		return math.NaN()
	}
	return f
}

// countingScorer counts its calls in a plain field: a data race under
// concurrent use, though every result is right. (A map written without a
// lock would race too, but the runtime may then stop the process with
// "concurrent map writes" before the test can fail, depending on how the
// goroutines happen to be scheduled; an unsynchronised counter is reported
// by the race detector however they are.)
type countingScorer struct {
	calls int
}

func (s *countingScorer) Score(it *cupel.ContextItem, _ []*cupel.ContextItem) float64 {
	s.calls++
	return float64(it.Tokens()) / 1000
}

// TestRacyScorerDemo runs only in the child process of the spec below.
func TestRacyScorerDemo(t *testing.T) {
	if os.Getenv(demoEnv) != "race" {
		t.Skip("run by the cupeltest suite in a child process")
	}
	cupeltest.RunScorerTests(t, &countingScorer{})
}

var _ = Describe("ConcurrentUse under -race", func() {
	It("lets the race detector report a data race that gives right results", func() {
		if !raceEnabled {
			Skip("the tests do not run under -race")
		}
		out := runDemo("race", "TestRacyScorerDemo")
		Expect(out).To(ContainSubstring("WARNING: DATA RACE"))
		Expect(out).To(ContainSubstring("--- FAIL: TestRacyScorerDemo/ConcurrentUse"))
	})
})
