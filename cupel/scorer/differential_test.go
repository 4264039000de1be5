package scorer_test

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/internal/randitems"
	"github.com/cupel-go/go-cupel/cupel/scorer"
)

// scContentLen is a custom scorer without a batch path: it exercises the
// per-item fallback of the batch path inside composites and scaled scorers.
// It panics on a nil item, which no built-in scorer may hand it.
type scContentLen struct{}

func (scContentLen) Score(it *cupel.ContextItem, all []*cupel.ContextItem) float64 {
	return float64(len(it.Content())) / float64(len(all))
}

// scLeafScorers returns one of each built-in leaf scorer, plus a custom one.
func scLeafScorers() []cupel.Scorer {
	kinds, _ := scorer.NewKind(map[cupel.ContextKind]float64{"message": 0.2, "Document": 3, "K": 1.5})
	tags, _ := scorer.NewTag(map[string]float64{"a": 1, "B": 2, "topic": 0.5, kelvin: 4})
	trust, _ := scorer.NewMetadataTrust(0.3)
	key, _ := scorer.NewMetadataKey("cupel:priority", "high", 1.7)
	exp, _ := scorer.NewExponentialCurve(90 * time.Minute)
	step, _ := scorer.NewStepCurve(scorer.StepWindow{MaxAge: time.Hour, Score: 1}, scorer.StepWindow{MaxAge: 3 * time.Hour, Score: 0.4}, scorer.StepWindow{MaxAge: 5 * time.Hour, Score: 0.1})
	win, _ := scorer.NewWindowCurve(2 * time.Hour)
	clock := scFixedClock(scT0.Add(3 * time.Hour))
	d1, _ := scorer.NewDecay(clock, exp)
	d2, _ := scorer.NewDecay(clock, step, scorer.WithNullTimestampScore(0.1))
	d3, _ := scorer.NewDecay(clock, win)
	return []cupel.Scorer{
		scorer.NewRecency(), scorer.NewPriority(), scorer.NewReflexive(), scorer.NewFrequency(),
		scorer.NewDefaultKind(), kinds, tags, trust, key, d1, d2, d3, scContentLen{},
	}
}

// scRandomScorer builds a random scorer tree of at most depth levels of
// composites and scaled scorers.
func scRandomScorer(r *rand.Rand, depth int) cupel.Scorer {
	leaves := scLeafScorers()
	if depth == 0 || r.IntN(4) == 0 {
		return leaves[r.IntN(len(leaves))]
	}
	if r.IntN(2) == 0 {
		s, err := scorer.NewScaled(scRandomScorer(r, depth-1))
		Expect(err).NotTo(HaveOccurred())
		return s
	}
	var entries []scorer.Weighted
	for range 1 + r.IntN(3) {
		entries = append(entries, scorer.Weighted{Scorer: scRandomScorer(r, depth-1), Weight: 0.1 + r.Float64()*3})
	}
	if r.IntN(3) == 0 {
		entries = append(entries, entries[0]) // the same child twice
	}
	c, err := scorer.NewComposite(entries...)
	Expect(err).NotTo(HaveOccurred())
	return c
}

func expectSameScores(s cupel.Scorer, items []*cupel.ContextItem, what string) {
	GinkgoHelper()
	per, batch := scPerItem(s, items), scBatched(s, items)
	for i := range items {
		if !scSame(per[i], batch[i]) {
			Fail(fmt.Sprintf("%s: item %d of %d: per-item %v, batch %v", what, i, len(items), per[i], batch[i]))
		}
	}
}

var _ = Describe("the batch path", func() {
	It("gives the per-item scores of every leaf scorer on random inputs", func() {
		for seed := range uint64(300) {
			r := rand.New(rand.NewPCG(seed, 1))
			items := randitems.Items(r, r.IntN(40), seed%2 == 0)
			for k, s := range scLeafScorers() {
				expectSameScores(s, items, fmt.Sprintf("seed %d, leaf %d (%T)", seed, k, s))
			}
		}
	})

	It("gives the per-item scores of random nested composites and scaled scorers, 3 deep", func() {
		for seed := range uint64(300) {
			r := rand.New(rand.NewPCG(seed, 2))
			items := randitems.Items(r, r.IntN(18), seed%3 == 0)
			s := scRandomScorer(r, 3)
			expectSameScores(s, items, fmt.Sprintf("seed %d (%T)", seed, s))
		}
	})

	It("gives the per-item scores of a scaled scaled scaled scorer", func() {
		for _, leaf := range scLeafScorers() {
			s := cupel.Scorer(leaf)
			for range 3 {
				s = mustScaled(s)
			}
			r := rand.New(rand.NewPCG(7, 7))
			expectSameScores(s, randitems.Items(r, 15, true), fmt.Sprintf("scaled^3 %T", leaf))
		}
	})

	It("gives the per-item frequency scores on large inputs of every tag structure", func() {
		r := rand.New(rand.NewPCG(3, 3))
		build := func(n int, tags func(i int) []string) []*cupel.ContextItem {
			items := make([]*cupel.ContextItem, n)
			for i := range items {
				if i > 0 && r.IntN(20) == 0 {
					items[i] = items[r.IntN(i)]
					continue
				}
				items[i] = scItem("x", scTags(tags(i)...))
			}
			return items
		}
		f := scorer.NewFrequency()
		cases := []struct {
			name string
			tags func(i int) []string
		}{
			{"one common tag plus a unique one", func(i int) []string { return []string{"Common", "u" + strconv.Itoa(i)} }},
			{"a small vocabulary", func(int) []string {
				return []string{"t" + strconv.Itoa(r.IntN(12)), "T" + strconv.Itoa(r.IntN(12)), "t" + strconv.Itoa(r.IntN(12))}
			}},
			{"a large vocabulary", func(int) []string {
				return []string{"t" + strconv.Itoa(r.IntN(3000)), "t" + strconv.Itoa(r.IntN(3000))}
			}},
			{"chains of pairs", func(i int) []string { return []string{"p" + strconv.Itoa(i/2), "p" + strconv.Itoa(i/2+1)} }},
			{"many tags per item", func(int) []string {
				t := make([]string, 30)
				for j := range t {
					t[j] = "m" + strconv.Itoa(r.IntN(200))
				}
				return t
			}},
			{"sparse", func(i int) []string {
				if i%3 == 0 {
					return nil
				}
				return []string{"s" + strconv.Itoa(r.IntN(40))}
			}},
		}
		for _, c := range cases {
			expectSameScores(f, build(700, c.tags), c.name)
		}
	})

	It("hands no nil item to a custom scorer and scores it 0", func() {
		items := []*cupel.ContextItem{nil, scItem("ab"), nil}
		Expect(scBatched(scContentLen{}, items)).To(Equal([]float64{0, 2.0 / 3, 0}))
		Expect(hasBatchPath(scContentLen{})).To(BeFalse())
	})

	It("exists for the scorers where it pays, and only for them", func() {
		// BenchmarkScorers: the relative, composite and scaled scorers, the
		// kind lookup and the decay scorer (which reads its clock once per
		// pass) are faster batched; the other absolute scorers would only
		// loop over Score.
		for _, s := range scLeafScorers()[:12] {
			switch s.(type) {
			case *scorer.Reflexive, *scorer.Tag, *scorer.MetadataTrust, *scorer.MetadataKey:
				Expect(hasBatchPath(s)).To(BeFalse(), "%T", s)
			default:
				Expect(hasBatchPath(s)).To(BeTrue(), "%T", s)
			}
		}
		Expect(hasBatchPath(mustScaled(scorer.NewReflexive()))).To(BeTrue())
	})

	It("never panics on nil items, empty lists and zero-value scorers", func() {
		zeroes := []cupel.Scorer{&scorer.Recency{}, &scorer.Priority{}, &scorer.Reflexive{}, &scorer.Frequency{},
			&scorer.Kind{}, &scorer.Tag{}, &scorer.Composite{}, &scorer.Scaled{}, &scorer.MetadataTrust{},
			&scorer.Decay{}, &scorer.MetadataKey{}}
		for _, s := range append(scLeafScorers()[:12], zeroes...) {
			for _, items := range [][]*cupel.ContextItem{nil, {}, {nil}, {nil, nil}, {scItem("a")}} {
				Expect(func() {
					for _, it := range items {
						if it == nil {
							Expect(s.Score(it, items)).To(Equal(0.0))
						}
					}
					Expect(s.Score(nil, items)).To(Equal(0.0))
					expectSameScores(s, items, fmt.Sprintf("%T", s))
				}).NotTo(Panic())
			}
		}
	})

	It("is safe for concurrent use", func() {
		r := rand.New(rand.NewPCG(11, 11))
		items := randitems.Items(r, 60, false)
		var scorers []cupel.Scorer
		for range 8 {
			scorers = append(scorers, scRandomScorer(r, 2))
		}
		want := make([][]float64, len(scorers))
		for i, s := range scorers {
			want[i] = scBatched(s, items)
		}
		var wg sync.WaitGroup
		errs := make(chan string, 64)
		for g := range 8 {
			wg.Go(func() {
				defer GinkgoRecover()
				for i, s := range scorers {
					var got []float64
					if g%2 == 0 {
						got = scBatched(s, items)
					} else {
						got = scPerItem(s, items)
					}
					for j := range got {
						if !scSame(got[j], want[i][j]) {
							errs <- fmt.Sprintf("goroutine %d, scorer %d, item %d: %v != %v", g, i, j, got[j], want[i][j])
							return
						}
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			Fail(e)
		}
	})
})
