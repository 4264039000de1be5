package slicer_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

// slRandomInput builds n scored items with random kinds, tokens (a few
// negative or zero), scores (a few NaN, negative or tied) and timestamps,
// and the occasional nil item when withNil.
func slRandomInput(r *rand.Rand, n int, withNil bool) []cupel.ScoredItem {
	kinds := []cupel.ContextKind{"Message", "message", "Tool", "TOOL", "Memory", "Document"}
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	in := make([]cupel.ScoredItem, n)
	for i := range in {
		if withNil && r.IntN(25) == 0 {
			in[i] = cupel.ScoredItem{Score: r.Float64()}
			continue
		}
		spec := cupel.ItemSpec{Content: "c", Tokens: r.IntN(200), Kind: kinds[r.IntN(len(kinds))]}
		switch r.IntN(10) {
		case 0:
			spec.Tokens = -r.IntN(50) - 1
		case 1:
			spec.Tokens = 0
		}
		if r.IntN(3) > 0 {
			t := base.Add(time.Duration(r.IntN(1000)) * time.Minute)
			spec.Timestamp = &t
		}
		score := math.Round(r.Float64()*20) / 20
		switch r.IntN(20) {
		case 0:
			score = math.NaN()
		case 1:
			score = -score
		}
		in[i] = cupel.ScoredItem{Item: cupel.MustItem(spec), Score: score}
	}
	return in
}

// slSameScored compares scored lists by item pointer and score bits (NaN
// scores make reflect.DeepEqual useless here).
func slSameScored(a, b []cupel.ScoredItem) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Item != b[i].Item || math.Float64bits(a[i].Score) != math.Float64bits(b[i].Score) {
			return false
		}
	}
	return true
}

func slSlicers() map[string]cupel.Slicer {
	must := func(s cupel.Slicer, err error) cupel.Slicer {
		Expect(err).NotTo(HaveOccurred())
		return s
	}
	g := slicer.NewGreedy()
	k := slKnapsack(10)
	qs := slQuotas(slicer.RequireCap("Tool", 20, 50), slicer.Cap("memory", 10))
	es := []slicer.CountQuotaEntry{slEntry("tool", 2, 4), slEntry("Memory", 1, 1)}
	return map[string]cupel.Slicer{
		"greedy":           g,
		"knapsack":         k,
		"quota/greedy":     must(slicer.NewQuota(qs, g)),
		"quota/knapsack":   must(slicer.NewQuota(qs, k)),
		"countquota":       must(slicer.NewCountQuota(es, g, slicer.ScarcityDegrade)),
		"countconstrained": must(slicer.NewCountConstrainedKnapsack(es, k, slicer.ScarcityDegrade)),
	}
}

var _ = Describe("slicer and placer properties on random inputs", func() {
	It("slicers return a subset of the input, deterministically, without touching the input", func() {
		r := rand.New(rand.NewPCG(1, 2))
		for name, s := range slSlicers() {
			for trial := 0; trial < 150; trial++ {
				in := slRandomInput(r, r.IntN(60), true)
				cp := slices.Clone(in)
				target := r.IntN(2000)
				b := slBudget(target+r.IntN(100), target)
				out, err := s.Slice(in, b)
				Expect(err).NotTo(HaveOccurred(), name)
				Expect(slSameScored(in, cp)).To(BeTrue(), name) // same pointers, same scores, same order
				avail := map[*cupel.ContextItem]int{}
				for _, si := range in {
					if si.Item != nil && si.Item.Tokens() >= 0 {
						avail[si.Item]++
					}
				}
				tokens := 0
				for _, it := range out {
					Expect(avail[it]).To(BeNumerically(">", 0), "%s trial %d: not from the input or selected twice", name, trial)
					avail[it]--
					tokens += it.Tokens()
				}
				if name == "greedy" || name == "knapsack" || name == "quota/greedy" || name == "quota/knapsack" {
					Expect(tokens).To(BeNumerically("<=", target), "%s trial %d", name, trial)
				}
				again, err := s.Slice(in, b)
				Expect(err).NotTo(HaveOccurred())
				Expect(again).To(Equal(out), name)
			}
		}
	})

	It("greedy and knapsack include every zero-token item when the target is positive", func() {
		r := rand.New(rand.NewPCG(9, 9))
		for _, s := range []cupel.Slicer{slicer.NewGreedy(), slKnapsack(25)} {
			for trial := 0; trial < 100; trial++ {
				in := slRandomInput(r, 40, false)
				out, err := s.Slice(in, slTarget(1+r.IntN(500)))
				Expect(err).NotTo(HaveOccurred())
				for _, si := range in {
					if si.Item.Tokens() == 0 {
						Expect(out).To(ContainElement(BeIdenticalTo(si.Item)))
					}
				}
			}
		}
	})

	It("placers return a permutation of the input, deterministically, without touching the input", func() {
		r := rand.New(rand.NewPCG(4, 4))
		for _, p := range []cupel.Placer{placer.NewChronological(), placer.NewUShaped()} {
			for trial := 0; trial < 200; trial++ {
				in := slRandomInput(r, r.IntN(400), true)
				cp := slices.Clone(in)
				out := p.Place(in)
				Expect(slSameScored(in, cp)).To(BeTrue())
				Expect(out).To(HaveLen(len(in)))
				count := map[*cupel.ContextItem]int{}
				for _, si := range in {
					count[si.Item]++
				}
				for _, it := range out {
					count[it]--
				}
				for _, c := range count {
					Expect(c).To(BeZero())
				}
				Expect(p.Place(in)).To(Equal(out))
			}
		}
	})

	It("can be shared by concurrent calls", func() {
		r := rand.New(rand.NewPCG(5, 6))
		inputs := make([][]cupel.ScoredItem, 8)
		for i := range inputs {
			inputs[i] = slRandomInput(r, 300, false)
		}
		slicers := slSlicers()
		placers := []cupel.Placer{placer.NewChronological(), placer.NewUShaped()}
		want := map[string][][]*cupel.ContextItem{}
		for name, s := range slicers {
			for _, in := range inputs {
				out, err := s.Slice(in, slTarget(3000))
				Expect(err).NotTo(HaveOccurred())
				want[name] = append(want[name], out)
			}
		}
		var wg sync.WaitGroup
		errs := make(chan string, 1000)
		for w := 0; w < 8; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for name, s := range slicers {
					for i, in := range inputs {
						out, err := s.Slice(in, slTarget(3000))
						if err != nil || !slices.Equal(out, want[name][i]) {
							errs <- name
						}
					}
				}
				for _, p := range placers {
					for _, in := range inputs {
						a, b := p.Place(in), p.Place(in)
						if !slices.Equal(a, b) {
							errs <- "placer"
						}
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		Expect(errs).To(BeEmpty())
	})
})
