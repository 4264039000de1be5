package cupel_test

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/internal/randitems"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

// ccOutcome is what a run returns, in a comparable form.
type ccOutcome struct {
	err      string
	items    []*cupel.ContextItem
	scores   []string // formatted, so that NaN equals NaN
	total    int
	included []string
	excluded []string
}

func ccRun(p *cupel.Pipeline, items []*cupel.ContextItem, b cupel.ContextBudget) ccOutcome {
	var o ccOutcome
	res, err := p.Run(items, b)
	if err != nil {
		o.err = err.Error()
		return o
	}
	o.items, o.total = res.Items, res.TotalTokens
	for _, s := range res.Scores {
		o.scores = append(o.scores, fmt.Sprint(s))
	}
	_, rep, err := dryRun(p, items, b)
	if err != nil {
		o.err = "DryRun: " + err.Error()
		return o
	}
	for _, in := range rep.Included {
		o.included = append(o.included, fmt.Sprintf("%p %v %v", in.Item, in.Score, in.Reason))
	}
	for _, ex := range rep.Excluded {
		o.excluded = append(o.excluded, fmt.Sprintf("%p %v %v", ex.Item, ex.Score, ex.Reason))
	}
	return o
}

var _ = Describe("one pipeline shared by 16 goroutines", func() {
	clock := scorer.ClockFunc(func() time.Time { return randitems.T0.Add(3 * time.Hour) })
	must := func(s cupel.Scorer, err error) cupel.Scorer {
		Expect(err).NotTo(HaveOccurred())
		return s
	}
	var combos []struct {
		name string
		p    cupel.Policy
	}
	add := func(name string, sc cupel.Scorer, sl cupel.Slicer, pl cupel.Placer) {
		combos = append(combos, struct {
			name string
			p    cupel.Policy
		}{name, cupel.Policy{Scorer: sc, Slicer: sl, Placer: pl, Overflow: cupel.OverflowTruncate}})
	}

	BeforeEach(func() {
		combos = nil
		curve, err := scorer.NewExponentialCurve(2 * time.Hour)
		Expect(err).NotTo(HaveOccurred())
		step, err := scorer.NewStepCurve(scorer.StepWindow{MaxAge: time.Hour, Score: 1}, scorer.StepWindow{MaxAge: 4 * time.Hour, Score: 0.5})
		Expect(err).NotTo(HaveOccurred())
		scorers := map[string]cupel.Scorer{
			"recency":        scorer.NewRecency(),
			"priority":       scorer.NewPriority(),
			"kind":           scorer.NewDefaultKind(),
			"tag":            must(scorer.NewTag(map[string]float64{"a": 1, "K": 2, kelvin: 3})),
			"frequency":      scorer.NewFrequency(),
			"reflexive":      scorer.NewReflexive(),
			"decay":          must(scorer.NewDecay(clock, curve)),
			"decay-step":     must(scorer.NewDecay(clock, step, scorer.WithNullTimestampScore(0.1))),
			"metadata_trust": must(scorer.NewMetadataTrust(0.5)),
			"metadata_key":   must(scorer.NewMetadataKey("cupel:priority", "high", 1.5)),
			"scaled":         must(scorer.NewScaled(scorer.NewFrequency())),
		}
		var entries []scorer.Weighted
		for _, name := range []string{"recency", "priority", "kind", "tag", "frequency", "reflexive", "decay", "metadata_trust", "metadata_key", "scaled"} {
			entries = append(entries, scorer.Weighted{Scorer: scorers[name], Weight: float64(1 + len(entries)%3)})
		}
		all := must(scorer.NewComposite(entries...))
		scorers["composite"] = all

		greedy := slicer.NewGreedy()
		for name, sc := range scorers {
			add(name+"/greedy/u-shaped", sc, greedy, placer.NewUShaped())
		}
		knap := mustKnapsack(10)
		set, err := slicer.NewQuotaSet(slicer.RequireCap("Document", 20, 50), slicer.Cap("message", 40), slicer.Require(kelvin, 10))
		Expect(err).NotTo(HaveOccurred())
		quota, err := slicer.NewQuota(set, greedy)
		Expect(err).NotTo(HaveOccurred())
		e1, _ := slicer.NewCountQuotaEntry("Memory", 2, 3)
		e2, _ := slicer.NewCountQuotaEntry("K", 1, 2)
		cq, err := slicer.NewCountQuota([]slicer.CountQuotaEntry{e1, e2}, greedy, slicer.ScarcityDegrade)
		Expect(err).NotTo(HaveOccurred())
		cck, err := slicer.NewCountConstrainedKnapsack([]slicer.CountQuotaEntry{e1, e2}, knap, slicer.ScarcityDegrade)
		Expect(err).NotTo(HaveOccurred())
		slicers := map[string]cupel.Slicer{"greedy": greedy, "knapsack": knap, "quota": quota, "count_quota": cq, "count_constrained_knapsack": cck}
		for name, sl := range slicers {
			add("composite/"+name+"/chronological", all, sl, placer.NewChronological())
			add("composite/"+name+"/u-shaped", all, sl, placer.NewUShaped())
		}
	})

	It("gives every goroutine the results of a sequential run", func() {
		const goroutines = 16
		inputs := make([][]*cupel.ContextItem, 5) // four own inputs and one shared by all
		for i := range inputs {
			inputs[i] = randitems.Items(rand.New(rand.NewPCG(uint64(i), 99)), 40+10*i, false)
		}
		b, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 2000, TargetTokens: 1200, OutputReserve: 100})
		Expect(err).NotTo(HaveOccurred())
		for _, c := range combos {
			p, err := cupel.NewPipeline(c.p)
			Expect(err).NotTo(HaveOccurred())
			want := make([]ccOutcome, len(inputs))
			for i, in := range inputs {
				want[i] = ccRun(p, in, b)
				Expect(want[i].err).To(BeEmpty(), c.name)
			}
			var wg sync.WaitGroup
			mismatches := make(chan string, goroutines*4)
			for g := range goroutines {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for round := range 2 {
						for _, i := range []int{g % 4, 4} {
							if got := ccRun(p, inputs[i], b); fmt.Sprint(got) != fmt.Sprint(want[i]) {
								mismatches <- fmt.Sprintf("%s: goroutine %d, round %d, input %d differs", c.name, g, round, i)
							}
						}
					}
				}()
			}
			wg.Wait()
			close(mismatches)
			var all []string
			for m := range mismatches {
				all = append(all, m)
			}
			Expect(all).To(BeEmpty())
		}
	})
})
