package cupel_test

import (
	"math"
	"math/rand/v2"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
	"github.com/cupel-go/go-cupel/internal/testtool"
)

// perItem hides a scorer's batch path, so the pipeline scores through the
// spec's per-item definition (Score(item, all) for every item).
type perItem struct{ s cupel.Scorer }

func (p perItem) Score(it *cupel.ContextItem, all []*cupel.ContextItem) float64 {
	return p.s.Score(it, all)
}

// randomItems builds small inputs rich in ties, nulls, NaN hints, duplicate
// and mixed-case tags, duplicate content and duplicate pointers.
func randomItems(r *rand.Rand, n int) []*cupel.ContextItem {
	kinds := []cupel.ContextKind{"Message", "document", "ToolOutput", "MEMORY", "SystemPrompt", "\u212Aind", "Kind"}
	tags := []string{"a", "A", "b", "c", "\u212A", "k", "long-tag"}
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	items := make([]*cupel.ContextItem, 0, n)
	for i := range n {
		if i > 0 && r.IntN(12) == 0 {
			items = append(items, items[r.IntN(len(items))]) // the same pointer again
			continue
		}
		spec := cupel.ItemSpec{
			Content: "c" + strconv.Itoa(r.IntN(n)), // duplicates likely
			Tokens:  r.IntN(60) - 5,
			Kind:    kinds[r.IntN(len(kinds))],
			Pinned:  r.IntN(15) == 0,
		}
		if r.IntN(3) > 0 {
			ts := base.Add(time.Duration(r.IntN(5)) * time.Hour)
			spec.Timestamp = &ts
		}
		if r.IntN(2) == 0 {
			spec.Priority = cupel.Ptr(r.IntN(4))
		}
		switch r.IntN(5) {
		case 0:
			spec.FutureRelevanceHint = cupel.Ptr(math.NaN())
		case 1:
			spec.FutureRelevanceHint = cupel.Ptr(float64(r.IntN(5)) / 4)
		case 2:
			spec.FutureRelevanceHint = cupel.Ptr(math.Inf(1))
		}
		for range r.IntN(4) {
			spec.Tags = append(spec.Tags, tags[r.IntN(len(tags))])
		}
		items = append(items, cupel.MustItem(spec))
	}
	return items
}

func randomScorer(r *rand.Rand, depth int) cupel.Scorer {
	leaf := func() cupel.Scorer {
		switch r.IntN(6) {
		case 0:
			return scorer.NewRecency()
		case 1:
			return scorer.NewPriority()
		case 2:
			return scorer.NewFrequency()
		case 3:
			return scorer.NewReflexive()
		case 4:
			return scorer.NewDefaultKind()
		}
		s, _ := scorer.NewTag(map[string]float64{"a": 1, "k": 2})
		return s
	}
	if depth == 0 {
		return leaf()
	}
	switch r.IntN(3) {
	case 0:
		return leaf()
	case 1:
		s, err := scorer.NewScaled(randomScorer(r, depth-1))
		Expect(err).NotTo(HaveOccurred())
		return s
	}
	var entries []scorer.Weighted
	for range 1 + r.IntN(3) {
		entries = append(entries, scorer.Weighted{Scorer: randomScorer(r, depth-1), Weight: float64(1 + r.IntN(4))})
	}
	s, err := scorer.NewComposite(entries...)
	Expect(err).NotTo(HaveOccurred())
	return s
}

var _ = Describe("batch scoring in the pipeline", func() {
	It("selects and orders exactly as the per-item definitions do, with the same scores within 1e-12", func() {
		r := rand.New(rand.NewPCG(7, 11))
		ks, _ := slicer.NewKnapsack(5)
		slicers := []cupel.Slicer{slicer.NewGreedy(), ks}
		placers := []cupel.Placer{placer.NewChronological(), placer.NewUShaped()}
		for trial := range testtool.Iterations(300, 60) { // fewer under -race
			items := randomItems(r, 1+r.IntN(40))
			scorer := randomScorer(r, 3)
			budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 400, TargetTokens: 50 + r.IntN(300)})
			Expect(err).NotTo(HaveOccurred())
			base := cupel.Policy{Slicer: slicers[r.IntN(2)], Placer: placers[r.IntN(2)], Overflow: cupel.OverflowProceed, DisableDeduplication: r.IntN(2) == 0}
			batch, ref := base, base
			batch.Scorer, ref.Scorer = scorer, perItem{scorer}
			got, gotRep, err1 := dryRunPolicy(items, budget, batch)
			want, wantRep, err2 := dryRunPolicy(items, budget, ref)
			if err1 != nil {
				Expect(err2).To(MatchError(err1.Error()), "trial %d", trial)
				continue
			}
			Expect(err2).NotTo(HaveOccurred(), "trial %d", trial)
			Expect(got.Items).To(Equal(want.Items), "trial %d", trial)
			Expect(got.Scores).To(HaveLen(len(want.Scores)))
			for i := range got.Scores {
				Expect(sameWithin(got.Scores[i], want.Scores[i], 1e-12)).To(BeTrue(), "trial %d score %d: %v vs %v", trial, i, got.Scores[i], want.Scores[i])
			}
			Expect(gotRep.Excluded).To(HaveLen(len(wantRep.Excluded)))
			for i := range gotRep.Excluded {
				Expect(gotRep.Excluded[i].Item).To(BeIdenticalTo(wantRep.Excluded[i].Item), "trial %d excluded %d", trial, i)
				Expect(gotRep.Excluded[i].Reason).To(Equal(wantRep.Excluded[i].Reason))
			}
		}
	})
})

func sameWithin(a, b, eps float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= eps || a == b
}
