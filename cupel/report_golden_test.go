package cupel_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
	"github.com/cupel-go/go-cupel/cupeltest/snapshot"
)

// Goldens of representative reports (testdata/golden/report_*.golden). They
// pin the wire format and every emission and ordering rule at once; update
// with GOLDIE_UPDATE=1 and review the diff.
var _ = Describe("report goldens", func() {
	ts := func(h int) *time.Time {
		t := time.Date(2025, 6, 1, h, 0, 0, 0, time.UTC)
		return &t
	}
	It("an agent turn at item detail", func() {
		pipeline, err := cupel.NewPipeline(cupel.Policy{Scorer: goldenComposite(), Slicer: slicer.NewGreedy(), Placer: placer.NewUShaped()})
		Expect(err).NotTo(HaveOccurred())
		budget, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 1000, TargetTokens: 800})
		_, rep, err := dryRun(pipeline, agentContext(), budget)
		Expect(err).NotTo(HaveOccurred())
		Expect(rep).To(snapshot.MatchGolden("report_agent_turn"))
	})
	It("every exclusion reason the built-in stages emit", func() {
		items := []*cupel.ContextItem{
			cupel.MustItem(cupel.ItemSpec{Content: "system", Tokens: 40, Kind: cupel.KindSystemPrompt, Pinned: true}),
			cupel.MustItem(cupel.ItemSpec{Content: "broken", Tokens: -3}),
			cupel.MustItem(cupel.ItemSpec{Content: "dup", Tokens: 10, Timestamp: ts(1)}),
			cupel.MustItem(cupel.ItemSpec{Content: "dup", Tokens: 10, Timestamp: ts(2)}),
			cupel.MustItem(cupel.ItemSpec{Content: "tool a", Tokens: 20, Kind: cupel.KindToolOutput, Timestamp: ts(3)}),
			cupel.MustItem(cupel.ItemSpec{Content: "tool b", Tokens: 20, Kind: cupel.KindToolOutput, Timestamp: ts(4)}),
			cupel.MustItem(cupel.ItemSpec{Content: "tool c", Tokens: 20, Kind: cupel.KindToolOutput, Timestamp: ts(5)}),
			cupel.MustItem(cupel.ItemSpec{Content: "big doc", Tokens: 100, Kind: cupel.KindDocument, Timestamp: ts(6)}),
			cupel.MustItem(cupel.ItemSpec{Content: "huge doc", Tokens: 500, Kind: cupel.KindDocument, Timestamp: ts(7)}),
			cupel.MustItem(cupel.ItemSpec{Content: "memo", Tokens: 0, Kind: cupel.KindMemory}),
		}
		tool, _ := slicer.NewCountQuotaEntry(cupel.KindToolOutput, 1, 2)
		mem, _ := slicer.NewCountQuotaEntry(cupel.KindMemory, 2, 3)
		slicer, err := slicer.NewCountQuota([]slicer.CountQuotaEntry{tool, mem}, slicer.NewGreedy(), slicer.ScarcityDegrade)
		Expect(err).NotTo(HaveOccurred())
		pipeline, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewRecency(), Slicer: slicer, Placer: placer.NewChronological()})
		Expect(err).NotTo(HaveOccurred())
		budget, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 200, TargetTokens: 120})
		_, rep, err := dryRun(pipeline, items, budget)
		Expect(err).NotTo(HaveOccurred())
		reasons := map[cupel.ExclusionVariant]bool{}
		for _, e := range rep.Excluded {
			reasons[e.Reason.Variant] = true
		}
		Expect(reasons).To(HaveKey(cupel.ExclusionNegativeTokens))
		Expect(reasons).To(HaveKey(cupel.ExclusionDeduplicated))
		Expect(reasons).To(HaveKey(cupel.ExclusionCountCapExceeded))
		Expect(reasons).To(HaveKey(cupel.ExclusionPinnedOverride))
		Expect(reasons).To(HaveKey(cupel.ExclusionBudgetExceeded))
		Expect(rep.CountRequirementShortfalls).To(HaveLen(1))
		Expect(rep).To(snapshot.MatchGolden("report_every_reason"))
	})
	It("truncation drops", func() {
		items := []*cupel.ContextItem{
			cupel.MustItem(cupel.ItemSpec{Content: "rules", Tokens: 60, Pinned: true}),
			cupel.MustItem(cupel.ItemSpec{Content: "t1", Tokens: 30, Kind: cupel.KindToolOutput, Timestamp: ts(1)}),
			cupel.MustItem(cupel.ItemSpec{Content: "t2", Tokens: 30, Kind: cupel.KindToolOutput, Timestamp: ts(2)}),
			cupel.MustItem(cupel.ItemSpec{Content: "t3", Tokens: 30, Kind: cupel.KindToolOutput, Timestamp: ts(3)}),
		}
		// A count quota requiring three tool outputs overshoots the budget in
		// Phase 1; Truncate then drops from the tail of the merged list.
		tool, _ := slicer.NewCountQuotaEntry(cupel.KindToolOutput, 3, 3)
		slicer, _ := slicer.NewCountQuota([]slicer.CountQuotaEntry{tool}, slicer.NewGreedy(), slicer.ScarcityDegrade)
		pipeline, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewRecency(), Slicer: slicer, Placer: placer.NewChronological(), Overflow: cupel.OverflowTruncate})
		Expect(err).NotTo(HaveOccurred())
		budget, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 200, TargetTokens: 100})
		res, rep, err := dryRun(pipeline, items, budget)
		Expect(err).NotTo(HaveOccurred())
		Expect(contents(res.Items)).To(Equal([]string{"t3", "rules"})) // no timestamp: placed last
		Expect(rep).To(snapshot.MatchGolden("report_truncate"))
	})
})

func goldenComposite() cupel.Scorer {
	s, err := scorer.NewComposite(
		scorer.Weighted{Scorer: scorer.NewPriority(), Weight: 2},
		scorer.Weighted{Scorer: scorer.NewDefaultKind(), Weight: 1},
	)
	if err != nil {
		panic(err)
	}
	return s
}
