package cupel_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
)

// scContentLen is a custom scorer without a batch path: it exercises the
// per-item fallback of the batch path inside composites and scaled scorers.
// It panics on a nil item, which no built-in scorer may hand it.
type scContentLen struct{}

func (scContentLen) Score(it *cupel.ContextItem, all []*cupel.ContextItem) float64 {
	return float64(len(it.Content())) / float64(len(all))
}

var scTagVocab = []string{"a", "A", "b", "B", "c", "k", "K", kelvin, "", "Topic", "topic", "TOPIC", "x" + kelvin, "X" + kelvin, "long-tag-name"}
var scKindVocab = []cupel.ContextKind{"Message", "message", "Document", "DOCUMENT", "Memory", "ToolOutput", "SystemPrompt", "K", kelvin, "Custom"}

// scRandomItems builds n items with ties, missing optional fields, NaN and
// infinite hints, duplicate and mixed-case tags, metadata of several types,
// repeated pointers and (when withNil) nil entries.
func scRandomItems(r *rand.Rand, n int, withNil bool) []*cupel.ContextItem {
	items := make([]*cupel.ContextItem, 0, n)
	for len(items) < n {
		if withNil && r.IntN(30) == 0 {
			items = append(items, nil)
			continue
		}
		if len(items) > 0 && r.IntN(8) == 0 {
			items = append(items, items[r.IntN(len(items))]) // same pointer again (may be nil)
			continue
		}
		spec := cupel.ItemSpec{Content: "c" + strconv.Itoa(r.IntN(5)) + string(make([]byte, r.IntN(4))), Tokens: r.IntN(100)}
		if r.IntN(3) > 0 {
			t := scT0.Add(time.Duration(r.IntN(6)) * time.Hour)
			switch r.IntN(12) {
			case 0, 1, 2:
				t = scT0.Add(time.Duration(r.Int64N(1e15) - 5e14))
			case 3: // outside the UnixNano range
				t = time.Date([]int{1, 1600, 2300, 9999}[r.IntN(4)], 1, 1, 0, 0, r.IntN(3), 0, time.UTC)
			}
			spec.Timestamp = &t
		}
		if r.IntN(3) > 0 {
			p := r.IntN(7) - 3
			spec.Priority = &p
		}
		switch r.IntN(8) {
		case 0:
		case 1:
			spec.FutureRelevanceHint = cupel.Ptr(math.NaN())
		case 2:
			spec.FutureRelevanceHint = cupel.Ptr(math.Inf(1 - 2*r.IntN(2)))
		default:
			spec.FutureRelevanceHint = cupel.Ptr(r.Float64()*2 - 0.5)
		}
		for range r.IntN(5) {
			spec.Tags = append(spec.Tags, scTagVocab[r.IntN(len(scTagVocab))])
		}
		spec.Kind = scKindVocab[r.IntN(len(scKindVocab))]
		spec.Metadata = map[string]any{}
		switch r.IntN(6) {
		case 0:
		case 1:
			spec.Metadata[cupel.MetadataKeyTrust] = r.Float64()*1.4 - 0.2
		case 2:
			spec.Metadata[cupel.MetadataKeyTrust] = strconv.FormatFloat(r.Float64()*1.4-0.2, 'g', -1, 64)
		case 3:
			spec.Metadata[cupel.MetadataKeyTrust] = []any{"NaN", "high", " 0.5", "0x1p-1", math.NaN(), 1}[r.IntN(6)]
		default:
			spec.Metadata["cupel:priority"] = []any{"high", "low", 1.5, nil}[r.IntN(4)]
		}
		items = append(items, cupel.MustItem(spec))
	}
	return items
}

// scLeafScorers returns one of each built-in leaf scorer, plus a custom one.
func scLeafScorers() []cupel.Scorer {
	kinds, _ := cupel.NewKindScorer(map[cupel.ContextKind]float64{"message": 0.2, "Document": 3, "K": 1.5})
	tags, _ := cupel.NewTagScorer(map[string]float64{"a": 1, "B": 2, "topic": 0.5, kelvin: 4})
	trust, _ := cupel.NewMetadataTrustScorer(0.3)
	key, _ := cupel.NewMetadataKeyScorer("cupel:priority", "high", 1.7)
	exp, _ := cupel.NewExponentialCurve(90 * time.Minute)
	step, _ := cupel.NewStepCurve(cupel.StepWindow{MaxAge: time.Hour, Score: 1}, cupel.StepWindow{MaxAge: 3 * time.Hour, Score: 0.4}, cupel.StepWindow{MaxAge: 5 * time.Hour, Score: 0.1})
	win, _ := cupel.NewWindowCurve(2 * time.Hour)
	clock := scFixedClock(scT0.Add(3 * time.Hour))
	d1, _ := cupel.NewDecayScorer(clock, exp)
	d2, _ := cupel.NewDecayScorer(clock, step, cupel.WithNullTimestampScore(0.1))
	d3, _ := cupel.NewDecayScorer(clock, win)
	return []cupel.Scorer{
		cupel.NewRecencyScorer(), cupel.NewPriorityScorer(), cupel.NewReflexiveScorer(), cupel.NewFrequencyScorer(),
		cupel.NewDefaultKindScorer(), kinds, tags, trust, key, d1, d2, d3, scContentLen{},
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
		s, err := cupel.NewScaledScorer(scRandomScorer(r, depth-1))
		Expect(err).NotTo(HaveOccurred())
		return s
	}
	var entries []cupel.WeightedScorer
	for range 1 + r.IntN(3) {
		entries = append(entries, cupel.WeightedScorer{Scorer: scRandomScorer(r, depth-1), Weight: 0.1 + r.Float64()*3})
	}
	if r.IntN(3) == 0 {
		entries = append(entries, entries[0]) // the same child twice
	}
	c, err := cupel.NewCompositeScorer(entries...)
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
			items := scRandomItems(r, r.IntN(40), seed%2 == 0)
			for k, s := range scLeafScorers() {
				expectSameScores(s, items, fmt.Sprintf("seed %d, leaf %d (%T)", seed, k, s))
			}
		}
	})

	It("gives the per-item scores of random nested composites and scaled scorers, 3 deep", func() {
		for seed := range uint64(300) {
			r := rand.New(rand.NewPCG(seed, 2))
			items := scRandomItems(r, r.IntN(18), seed%3 == 0)
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
			expectSameScores(s, scRandomItems(r, 15, true), fmt.Sprintf("scaled^3 %T", leaf))
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
		f := cupel.NewFrequencyScorer()
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
		Expect(cupel.HasBatchPath(scContentLen{})).To(BeFalse())
	})

	It("exists for the scorers where it pays, and only for them", func() {
		// BenchmarkScorers: the relative, composite and scaled scorers, the
		// kind lookup and the decay scorer (which reads its clock once per
		// pass) are faster batched; the other absolute scorers would only
		// loop over Score.
		for _, s := range scLeafScorers()[:12] {
			switch s.(type) {
			case *cupel.ReflexiveScorer, *cupel.TagScorer, *cupel.MetadataTrustScorer, *cupel.MetadataKeyScorer:
				Expect(cupel.HasBatchPath(s)).To(BeFalse(), "%T", s)
			default:
				Expect(cupel.HasBatchPath(s)).To(BeTrue(), "%T", s)
			}
		}
		Expect(cupel.HasBatchPath(mustScaled(cupel.NewReflexiveScorer()))).To(BeTrue())
	})

	It("never panics on nil items, empty lists and zero-value scorers", func() {
		zeroes := []cupel.Scorer{&cupel.RecencyScorer{}, &cupel.PriorityScorer{}, &cupel.ReflexiveScorer{}, &cupel.FrequencyScorer{},
			&cupel.KindScorer{}, &cupel.TagScorer{}, &cupel.CompositeScorer{}, &cupel.ScaledScorer{}, &cupel.MetadataTrustScorer{},
			&cupel.DecayScorer{}, &cupel.MetadataKeyScorer{}}
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
		items := scRandomItems(r, 60, false)
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
