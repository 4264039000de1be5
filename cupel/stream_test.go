package cupel_test

import (
	"context"
	"errors"
	"iter"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

// stCounting yields items and counts the pulls; stopped records that the
// consumer ended the iteration (yield returned false).
type stCounting[T any] struct {
	items   []T
	pulls   int
	stopped bool
	onPull  func(n int) // called before the n-th item (1-based) is yielded
}

func (g *stCounting[T]) seq() iter.Seq[T] {
	return func(yield func(T) bool) {
		for _, it := range g.items {
			g.pulls++
			if g.onPull != nil {
				g.onPull(g.pulls)
			}
			if !yield(it) {
				g.stopped = true
				return
			}
		}
	}
}

func stItems(n, tokens int) []*cupel.ContextItem {
	out := make([]*cupel.ContextItem, n)
	for i := range out {
		out[i] = cupel.MustItem(cupel.ItemSpec{Content: "item " + strconv.Itoa(i), Tokens: tokens, Priority: cupel.Ptr(i % 7)})
	}
	return out
}

// stRandom builds n random candidates: tokens from -5 to 300 (a few
// negative, some zero), duplicated contents, about 5% pinned small items,
// random priorities and timestamps.
func stRandom(r *rand.Rand, n int) []*cupel.ContextItem {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	kinds := []cupel.ContextKind{cupel.KindMessage, cupel.KindDocument, cupel.KindToolOutput}
	out := make([]*cupel.ContextItem, n)
	for i := range out {
		spec := cupel.ItemSpec{
			Content: "c" + strconv.Itoa(r.IntN(n+1)),
			Tokens:  r.IntN(300),
			Kind:    kinds[r.IntN(len(kinds))],
		}
		switch r.IntN(20) {
		case 0:
			spec.Tokens = -1 - r.IntN(5)
		case 1, 2:
			spec.Tokens = 0
		case 3:
			spec.Pinned = true
			spec.Tokens = r.IntN(40)
		}
		if r.IntN(3) > 0 {
			spec.Priority = cupel.Ptr(r.IntN(10))
		}
		if r.IntN(2) == 0 {
			ts := base.Add(time.Duration(r.IntN(1000)) * time.Minute)
			spec.Timestamp = &ts
		}
		out[i] = cupel.MustItem(spec)
	}
	return out
}

func stStageEvents(rep *cupel.SelectionReport) []cupel.TraceEvent {
	var out []cupel.TraceEvent
	for _, e := range rep.Events {
		if e.Item == nil {
			e.DurationMs = 0
			out = append(out, e)
		}
	}
	return out
}

var _ = Describe("StreamSlice", func() {
	scored := func(items []*cupel.ContextItem, score func(i int) float64) []cupel.ScoredItem {
		out := make([]cupel.ScoredItem, len(items))
		for i, it := range items {
			out[i] = cupel.ScoredItem{Item: it, Score: score(i)}
		}
		return out
	}

	It("rejects a batch size <= 0 and defaults the zero value", func() {
		_, err := slicer.NewStream(0)
		Expect(errors.Is(err, cupel.ErrInvalidConfig)).To(BeTrue())
		Expect(slField(err)).To(Equal("batchSize"))
		Expect((&slicer.Stream{}).BatchSize()).To(Equal(cupel.DefaultStreamBatchSize))
		s, err := slicer.NewStream(7)
		Expect(err).NotTo(HaveOccurred())
		Expect(s.BatchSize()).To(Equal(7))
	})

	It("stops pulling once the budget is full: the source is not drained", func() {
		s, _ := slicer.NewStream(32)
		g := &stCounting[cupel.ScoredItem]{items: scored(stItems(10000, 10), func(int) float64 { return 0.5 })}
		sel, err := s.SliceSeq(context.Background(), g.seq(), slTarget(1000))
		Expect(err).NotTo(HaveOccurred())
		Expect(sel).To(HaveLen(100))
		// 1000 tokens are full after the 4th batch of 32 items.
		Expect(g.pulls).To(Equal(128))
		Expect(g.stopped).To(BeTrue())
	})

	It("counts the budget as full within its fill tolerance", func() {
		s, err := slicer.NewStream(10, cupel.WithFillTolerance(15))
		Expect(err).NotTo(HaveOccurred())
		Expect(s.FillTolerance()).To(Equal(15))
		// 7-token items: 14 of them leave 2 of 100 after the second batch.
		g := &stCounting[cupel.ScoredItem]{items: scored(stItems(1000, 7), func(int) float64 { return 1 })}
		sel, err := s.SliceSeq(context.Background(), g.seq(), slTarget(100))
		Expect(err).NotTo(HaveOccurred())
		Expect(sel).To(HaveLen(14))
		Expect(g.pulls).To(Equal(20))
		_, err = slicer.NewStream(10, cupel.WithFillTolerance(-1))
		Expect(errors.Is(err, cupel.ErrInvalidConfig)).To(BeTrue())
	})

	It("is a subset of its input within targetTokens, over random streams of many batches", func() {
		r := rand.New(rand.NewPCG(19, 25))
		for trial := range 200 {
			items := stRandom(r, r.IntN(400))
			in := scored(items, func(int) float64 { return r.Float64() })
			s, _ := slicer.NewStream(1 + r.IntN(50))
			target := r.IntN(5000)
			g := &stCounting[cupel.ScoredItem]{items: in}
			sel, err := s.SliceSeq(context.Background(), g.seq(), slTarget(target))
			Expect(err).NotTo(HaveOccurred())
			total := 0
			pulled := map[*cupel.ContextItem]int{}
			for _, si := range in[:g.pulls] {
				pulled[si.Item]++
			}
			for _, it := range sel {
				Expect(pulled[it]).To(BeNumerically(">", 0), "trial %d: selected an item not pulled", trial)
				pulled[it]--
				Expect(it.Tokens()).To(BeNumerically(">=", 0))
				total += it.Tokens()
			}
			Expect(total).To(BeNumerically("<=", target), "trial %d", trial)
		}
	})

	It("selects what GreedySlice selects from the score-sorted items when they fit one batch", func() {
		r := rand.New(rand.NewPCG(7, 11))
		for trial := range 200 {
			items := stRandom(r, r.IntN(64))
			in := scored(items, func(int) float64 { return float64(r.IntN(8)) / 8 })
			sortedIn := slices.Clone(in)
			slices.SortStableFunc(sortedIn, func(a, b cupel.ScoredItem) int {
				switch {
				case a.Score > b.Score:
					return -1
				case a.Score < b.Score:
					return 1
				}
				return 0
			})
			target := r.IntN(3000)
			want, err := slicer.NewGreedy().Slice(sortedIn, slTarget(target))
			Expect(err).NotTo(HaveOccurred())
			s, _ := slicer.NewStream(64)
			got, err := s.Slice(in, slTarget(target))
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want), "trial %d", trial)
		}
	})

	It("stops with a CanceledError when the context is done, and stops pulling", func() {
		s, _ := slicer.NewStream(8)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		g := &stCounting[cupel.ScoredItem]{items: scored(stItems(1000, 1), func(int) float64 { return 1 })}
		g.onPull = func(n int) {
			if n == 20 {
				cancel()
			}
		}
		_, err := s.SliceSeq(ctx, g.seq(), slTarget(100000))
		Expect(errors.Is(err, context.Canceled)).To(BeTrue())
		Expect(g.pulls).To(Equal(20)) // the check after the 20th pull sees it
		Expect(g.stopped).To(BeTrue())
	})

	It("reads a channel until the budget is full, then stops receiving", func() {
		s, _ := slicer.NewStream(4)
		ch := make(chan cupel.ScoredItem)
		ctx, cancel := context.WithCancel(context.Background())
		sent := make(chan int)
		go func() {
			n := 0
			defer func() { sent <- n }()
			for _, si := range scored(stItems(1000, 5), func(int) float64 { return 1 }) {
				select {
				case ch <- si:
					n++
				case <-ctx.Done():
					return
				}
			}
		}()
		sel, err := s.SliceChan(ctx, ch, slTarget(40))
		cancel()
		Expect(err).NotTo(HaveOccurred())
		Expect(sel).To(HaveLen(8))
		Expect(<-sent).To(Equal(8))
	})

	It("SliceChan returns a CanceledError when its deadline passes while the channel is silent", func() {
		s, _ := slicer.NewStream(4)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		_, err := s.SliceChan(ctx, make(chan cupel.ScoredItem), slTarget(40))
		Expect(errors.Is(err, context.DeadlineExceeded)).To(BeTrue())
	})
})

var _ = Describe("Pipeline.RunStream", func() {
	greedyPipeline := func(overflow cupel.OverflowStrategy) *cupel.Pipeline {
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewPriority(), Slicer: slicer.NewGreedy(), Placer: placer.NewChronological(), Overflow: overflow})
		Expect(err).NotTo(HaveOccurred())
		return p
	}

	It("stops pulling once the budget is full, and reports only what it pulled", func() {
		items := stItems(10000, 10)
		g := &stCounting[*cupel.ContextItem]{items: items}
		res, rep, err := dryRunStream(context.Background(), greedyPipeline(cupel.OverflowThrow), g.seq(), slBudget(2000, 1000), cupel.WithBatchSize(32))
		Expect(err).NotTo(HaveOccurred())
		Expect(g.pulls).To(Equal(128))
		Expect(g.stopped).To(BeTrue())
		Expect(res.TotalTokens).To(Equal(1000))
		Expect(rep.TotalCandidates).To(Equal(128))
		Expect(rep.Included).To(HaveLen(100))
		Expect(rep.Excluded).To(HaveLen(28))
		for x := range rep.ExcludedItems() {
			Expect(x.Reason).To(Equal(cupel.BudgetExceeded(10, 0)))
		}
	})

	It("stops an endless source once at most FillTolerance tokens are left, or after MaxCandidates", func() {
		endless := func(pulls *int) iter.Seq[*cupel.ContextItem] {
			return func(yield func(*cupel.ContextItem) bool) {
				for i := 0; ; i++ {
					*pulls++
					if !yield(cupel.MustItem(cupel.ItemSpec{Content: "e" + strconv.Itoa(i), Tokens: 30 + i%7})) {
						return
					}
				}
			}
		}
		pulls := 0
		res, err := greedyPipeline(cupel.OverflowThrow).RunStream(endless(&pulls), slBudget(1000, 1000), cupel.WithBatchSize(10), cupel.WithFillTolerance(29))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.TotalTokens).To(BeNumerically(">=", 1000-29))
		Expect(res.TotalTokens).To(BeNumerically("<=", 1000))
		Expect(pulls % 10).To(Equal(0))

		pulls = 0
		res, rep, err := dryRunStream(context.Background(), greedyPipeline(cupel.OverflowThrow), endless(&pulls), slBudget(100000, 100000), cupel.WithBatchSize(10), cupel.WithMaxCandidates(25))
		Expect(err).NotTo(HaveOccurred())
		Expect(pulls).To(Equal(25))
		Expect(res.Items).To(HaveLen(25))
		Expect(rep.TotalCandidates).To(Equal(25))

		for _, o := range []cupel.RunOption{cupel.WithFillTolerance(-1), cupel.WithMaxCandidates(-1), cupel.WithBatchSize(-1)} {
			_, err = greedyPipeline(cupel.OverflowThrow).RunStream(endless(&pulls), slBudget(10, 10), o)
			Expect(errors.Is(err, cupel.ErrInvalidConfig)).To(BeTrue())
		}
	})

	It("includes pinned items from any batch and deduplicates across batches", func() {
		pin := cupel.MustItem(cupel.ItemSpec{Content: "pin", Tokens: 5, Pinned: true})
		first := cupel.MustItem(cupel.ItemSpec{Content: "dup", Tokens: 10, Priority: cupel.Ptr(1)})
		later := cupel.MustItem(cupel.ItemSpec{Content: "dup", Tokens: 10, Priority: cupel.Ptr(9)})
		// Batches of 4: three items and first; four small items; later and pin.
		items := append(append(stItems(3, 10), first), stItems(7, 1)[3:]...)
		items = append(items, later, pin)
		res, rep, err := dryRunStream(context.Background(), greedyPipeline(cupel.OverflowThrow), slices.Values(items), slBudget(1000, 1000), cupel.WithBatchSize(4))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Items).To(ContainElements(pin, first))
		Expect(res.Items).NotTo(ContainElement(later))
		dups := slices.Collect(rep.ExcludedBy(cupel.ExclusionDeduplicated))
		Expect(dups).To(HaveLen(1))
		Expect(dups[0].Item).To(BeIdenticalTo(later))
		Expect(dups[0].Reason.DeduplicatedAgainst()).To(Equal("dup"))
		Expect(rep.TotalCandidates).To(Equal(len(items)))
		Expect(len(rep.Included) + len(rep.Excluded)).To(Equal(len(items)))
		var stages []cupel.PipelineStage
		for _, e := range stStageEvents(rep) {
			stages = append(stages, e.Stage)
		}
		Expect(stages).To(Equal([]cupel.PipelineStage{cupel.StageClassify, cupel.StageScore, cupel.StageDeduplicate, cupel.StageSlice, cupel.StagePlace}))
	})

	It("handles a pinned item that arrives after the budget was spent with the overflow strategy", func() {
		items := append(stItems(8, 10), cupel.MustItem(cupel.ItemSpec{Content: "late pin", Tokens: 30, Pinned: true}))
		_, err := greedyPipeline(cupel.OverflowThrow).RunStream(slices.Values(items), slBudget(200, 100), cupel.WithBatchSize(8))
		// 8 x 10 tokens selected, then 30 pinned: 110 > 100.
		Expect(errors.Is(err, cupel.ErrOverflow)).To(BeTrue())
		res, err := greedyPipeline(cupel.OverflowTruncate).RunStream(slices.Values(items), slBudget(200, 100), cupel.WithBatchSize(8))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.TotalTokens).To(Equal(100))
		Expect(res.Items).To(ContainElement(items[8]))
	})

	It("rejects quota slicers, a negative batch size and nil candidates", func() {
		cq, err := slicer.NewCountQuota(nil, slicer.NewGreedy(), slicer.ScarcityDegrade)
		Expect(err).NotTo(HaveOccurred())
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewPriority(), Slicer: cq, Placer: placer.NewChronological()})
		Expect(err).NotTo(HaveOccurred())
		_, err = p.RunStream(slices.Values(stItems(3, 1)), slBudget(10, 10))
		Expect(errors.Is(err, cupel.ErrInvalidConfig)).To(BeTrue())
		Expect(err.Error()).To(ContainSubstring("micro-batch"))

		_, err = greedyPipeline(cupel.OverflowThrow).RunStream(slices.Values(stItems(3, 1)), slBudget(10, 10), cupel.WithBatchSize(-1))
		Expect(errors.Is(err, cupel.ErrInvalidConfig)).To(BeTrue())

		items := append(stItems(5, 1), nil)
		_, err = greedyPipeline(cupel.OverflowThrow).RunStream(slices.Values(items), slBudget(100, 100), cupel.WithBatchSize(2))
		Expect(errors.Is(err, cupel.ErrInvalidItem)).To(BeTrue())
		Expect(slField(err)).To(Equal("candidates[5]"))
	})

	It("stops with a CanceledError when the context is done, and stops pulling", func() {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		g := &stCounting[*cupel.ContextItem]{items: stItems(1000, 1)}
		g.onPull = func(n int) {
			if n == 50 {
				cancel()
			}
		}
		_, err := greedyPipeline(cupel.OverflowThrow).RunStreamContext(ctx, g.seq(), slBudget(100000, 100000), cupel.WithBatchSize(16))
		Expect(errors.Is(err, context.Canceled)).To(BeTrue())
		Expect(g.pulls).To(Equal(50))
		Expect(g.stopped).To(BeTrue())
	})

	It("reads a channel through the documented one-line adapter until it is closed, or until the budget is full", func() {
		ch := make(chan *cupel.ContextItem, 10)
		for _, it := range stItems(10, 3) {
			ch <- it
		}
		close(ch)
		seq := func(yield func(*cupel.ContextItem) bool) {
			for it := range ch {
				if !yield(it) {
					return
				}
			}
		}
		res, err := greedyPipeline(cupel.OverflowThrow).RunStream(seq, slBudget(100, 100), cupel.WithBatchSize(4))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Items).To(HaveLen(10))

		ch = make(chan *cupel.ContextItem, 10)
		for _, it := range stItems(10, 3) {
			ch <- it
		}
		res, err = greedyPipeline(cupel.OverflowThrow).RunStream(seq, slBudget(12, 12), cupel.WithBatchSize(4))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Items).To(HaveLen(4))
		Expect(ch).To(HaveLen(6)) // not received from after the first batch filled the budget
	})

	It("equals the batch pipeline when the whole input fits in one micro-batch (property)", func() {
		r := rand.New(rand.NewPCG(2026, 19))
		ks, err := slicer.NewKnapsack(10)
		Expect(err).NotTo(HaveOccurred())
		stream, err := slicer.NewStream(16)
		Expect(err).NotTo(HaveOccurred())
		scorers := []cupel.Scorer{scorer.NewPriority(), scorer.NewRecency(), scorer.NewFrequency()}
		slicers := []cupel.Slicer{slicer.NewGreedy(), ks, stream}
		overflows := []cupel.OverflowStrategy{cupel.OverflowThrow, cupel.OverflowTruncate, cupel.OverflowProceed}
		agreedErrors := 0
		for trial := range 400 {
			n := r.IntN(80)
			items := stRandom(r, n)
			maxT := r.IntN(3000)
			spec := cupel.BudgetSpec{MaxTokens: maxT, TargetTokens: r.IntN(maxT + 1)}
			if r.IntN(3) == 0 {
				spec.OutputReserve = r.IntN(spec.MaxTokens - spec.TargetTokens + 1)
			}
			if r.IntN(4) == 0 {
				spec.EstimationSafetyMarginPercent = float64(r.IntN(30))
			}
			budget, err := cupel.NewBudget(spec)
			Expect(err).NotTo(HaveOccurred())
			p, err := cupel.NewPipeline(cupel.Policy{
				Scorer:               scorers[r.IntN(len(scorers))],
				Slicer:               slicers[r.IntN(len(slicers))],
				Placer:               placer.NewUShaped(),
				Overflow:             overflows[r.IntN(len(overflows))],
				DisableDeduplication: r.IntN(4) == 0,
			})
			Expect(err).NotTo(HaveOccurred())
			batch := n + r.IntN(5)
			if batch == 0 {
				batch = 1
			}
			ctx, cancel := context.WithCancel(context.Background())
			desc := func() string { return "trial " + strconv.Itoa(trial) + " n=" + strconv.Itoa(n) }

			want, wantRep, wantErr := dryRun(p, items, budget)
			got, gotRep, gotErr := dryRunStream(ctx, p, slices.Values(items), budget, cupel.WithBatchSize(batch))
			cancel()
			if wantErr != nil {
				Expect(gotErr).To(HaveOccurred(), desc())
				for _, sentinel := range []error{cupel.ErrPinnedExceedsBudget, cupel.ErrOverflow, cupel.ErrTableTooLarge, cupel.ErrTokenOverflow} {
					Expect(errors.Is(gotErr, sentinel)).To(Equal(errors.Is(wantErr, sentinel)), desc())
				}
				agreedErrors++
				continue
			}
			Expect(gotErr).NotTo(HaveOccurred(), desc())
			Expect(got).To(Equal(want), desc())
			Expect(gotRep.Included).To(Equal(wantRep.Included), desc())
			Expect(gotRep.Excluded).To(Equal(wantRep.Excluded), desc())
			Expect(gotRep.TotalCandidates).To(Equal(wantRep.TotalCandidates), desc())
			Expect(gotRep.TotalTokensConsidered).To(Equal(wantRep.TotalTokensConsidered), desc())
			Expect(stStageEvents(gotRep)).To(Equal(stStageEvents(wantRep)), desc())
		}
		Expect(agreedErrors).To(BeNumerically("<", 200)) // most trials compare results
	})
})
