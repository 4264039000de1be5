package cupel_test

import (
	"errors"
	"math/rand/v2"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

// The built-ins take their fast paths through the exported interfaces.
var (
	_ cupel.PositionSlicer = (*slicer.Greedy)(nil)
	_ cupel.PositionSlicer = (*slicer.Knapsack)(nil)
	_ cupel.PositionPlacer = (*placer.UShaped)(nil)
	_ cupel.PositionPlacer = (*placer.Chronological)(nil)
	_ cupel.BatchScorer    = (*scorer.Recency)(nil)
	_ cupel.BatchScorer    = (*scorer.Composite)(nil)
)

// positionsSlicer is a custom PositionSlicer returning fixed positions; its
// Slice must never be called by the pipeline.
type positionsSlicer struct{ pos []int }

func (s positionsSlicer) Slice([]cupel.ScoredItem, cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	panic("the pipeline must take the SlicePositions path")
}

func (s positionsSlicer) SlicePositions([]cupel.ScoredItem, cupel.ContextBudget) ([]int, error) {
	return s.pos, nil
}

// positionsPlacer is a custom PositionPlacer returning fixed positions.
type positionsPlacer struct{ pos []int }

func (p positionsPlacer) Place([]cupel.ScoredItem) []*cupel.ContextItem {
	panic("the pipeline must take the PlacePositions path")
}

func (p positionsPlacer) PlacePositions([]cupel.ScoredItem) []int { return p.pos }

// detailedPositionsSlicer implements both fast paths; the details win.
type detailedPositionsSlicer struct{ positionsSlicer }

func (detailedPositionsSlicer) SliceDetailed(sorted []cupel.ScoredItem, _ cupel.ContextBudget) (cupel.SliceResult, error) {
	return cupel.SliceResult{Selected: []*cupel.ContextItem{sorted[0].Item}}, nil
}

var _ = Describe("custom fast paths", func() {
	scores := tableScorer{"a": 0.9, "b": 0.5, "c": 0.1}
	items := func() []*cupel.ContextItem { return []*cupel.ContextItem{item("a", 1), item("b", 1), item("c", 1)} }
	run := func(s cupel.Slicer, p cupel.Placer) (cupel.Result, error) {
		pl, err := cupel.NewPipeline(cupel.Policy{Scorer: scores, Slicer: s, Placer: p})
		Expect(err).NotTo(HaveOccurred())
		return pl.Run(items(), budget(10, 10))
	}

	It("takes a custom PositionSlicer's and PositionPlacer's positions", func() {
		res, err := run(positionsSlicer{[]int{2, 0}}, positionsPlacer{[]int{1, 0}})
		Expect(err).NotTo(HaveOccurred())
		// sorted: a(0) b(1) c(2); sliced in Sort order: a, c; placed: c, a.
		Expect(contents(res.Items)).To(Equal([]string{"c", "a"}))
		Expect(res.Scores).To(Equal([]float64{0.1, 0.9}))
	})

	It("calls a slicer that is also a DetailedSlicer through SliceDetailed", func() {
		res, err := run(detailedPositionsSlicer{positionsSlicer{[]int{1, 2}}}, placer.NewUShaped())
		Expect(err).NotTo(HaveOccurred())
		Expect(contents(res.Items)).To(Equal([]string{"a"}))
	})

	DescribeTable("rejects bad slicer positions with a typed error naming the slicer, never a panic",
		func(pos []int, why string) {
			_, err := run(positionsSlicer{pos}, placer.NewUShaped())
			Expect(err).To(MatchError(cupel.ErrInvalidConfig))
			var ve *cupel.ValidationError
			Expect(errors.As(err, &ve)).To(BeTrue())
			Expect(ve.Field).To(Equal("Slicer"))
			Expect(err.Error()).To(ContainSubstring("cupel_test.positionsSlicer"))
			Expect(err.Error()).To(ContainSubstring(why))
		},
		Entry("out of range", []int{0, 3}, "SlicePositions returned position 3, outside [0, 3)"),
		Entry("negative", []int{-1}, "SlicePositions returned position -1, outside [0, 3)"),
		Entry("repeated", []int{1, 1}, "SlicePositions returned position 1 twice"),
	)

	DescribeTable("rejects a placer result that is not a permutation with a typed error naming the placer",
		func(pos []int, why string) {
			_, err := run(slicer.NewGreedy(), positionsPlacer{pos})
			Expect(err).To(MatchError(cupel.ErrInvalidConfig))
			var ve *cupel.ValidationError
			Expect(errors.As(err, &ve)).To(BeTrue())
			Expect(ve.Field).To(Equal("Placer"))
			Expect(err.Error()).To(ContainSubstring("cupel_test.positionsPlacer"))
			Expect(err.Error()).To(ContainSubstring(why))
		},
		Entry("too short", []int{0, 1}, "PlacePositions returned 2 positions for 3 items"),
		Entry("too long", []int{0, 1, 2, 0}, "PlacePositions returned 4 positions for 3 items"),
		Entry("nil", nil, "PlacePositions returned 0 positions for 3 items"),
		Entry("out of range", []int{0, 1, 3}, "PlacePositions returned position 3, outside [0, 3)"),
		Entry("negative", []int{0, -1, 2}, "PlacePositions returned position -1, outside [0, 3)"),
		Entry("repeated", []int{2, 0, 2}, "PlacePositions returned position 2 twice"),
	)

	It("checks large permutations", func() {
		big := make([]*cupel.ContextItem, 2000)
		pos := make([]int, len(big))
		for i := range big {
			big[i] = item(strconv.Itoa(i), 1)
			pos[i] = len(big) - 1 - i
		}
		pl, err := cupel.NewPipeline(cupel.Policy{Scorer: tableScorer{}, Slicer: slicer.NewGreedy(), Placer: positionsPlacer{pos}})
		Expect(err).NotTo(HaveOccurred())
		res, err := pl.Run(big, budget(5000, 5000))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Items).To(HaveLen(2000))
		pos[1500] = pos[10]
		_, err = pl.Run(big, budget(5000, 5000))
		Expect(err).To(MatchError(ContainSubstring("twice")))
	})
})

// placeOnly hides a placer's PositionPlacer path: the pipeline matches
// what Place returns back to the scores by identity.
type placeOnly struct{ p cupel.Placer }

func (w placeOnly) Place(items []cupel.ScoredItem) []*cupel.ContextItem { return w.p.Place(items) }

var _ = Describe("the built-in placers in a run", func() {
	It("place, with the run's buffers, exactly what their Place returns", func() {
		r := rand.New(rand.NewPCG(25, 6))
		for trial := range 200 {
			items := randomItems(r, 1+r.IntN(300))
			budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 100000, TargetTokens: 1 + r.IntN(3000)})
			Expect(err).NotTo(HaveOccurred())
			for _, placer := range []cupel.Placer{placer.NewUShaped(), placer.NewChronological()} {
				policy := cupel.Policy{Scorer: scorer.NewRecency(), Slicer: slicer.NewGreedy(), Placer: placer, Overflow: cupel.OverflowProceed}
				fast, err := cupel.NewPipeline(policy)
				Expect(err).NotTo(HaveOccurred())
				policy.Placer = placeOnly{placer}
				slow, err := cupel.NewPipeline(policy)
				Expect(err).NotTo(HaveOccurred())
				got, err1 := fast.Run(items, budget)
				want, err2 := slow.Run(items, budget)
				Expect(err1).NotTo(HaveOccurred())
				Expect(err2).NotTo(HaveOccurred())
				Expect(got.Items).To(HaveLen(len(want.Items)))
				for i := range want.Items {
					Expect(got.Items[i]).To(BeIdenticalTo(want.Items[i]), "trial %d, %T, item %d", trial, placer, i)
				}
				Expect(got.Scores).To(Equal(want.Scores))
			}
		}
	})
})
