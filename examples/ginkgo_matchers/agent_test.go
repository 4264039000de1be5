package ginkgo_matchers

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupeltest"
	"github.com/cupel-go/go-cupel/cupeltest/snapshot"
	"github.com/cupel-go/go-cupel/examples/agentcontext"
	. "github.com/cupel-go/go-cupel/matchers"
)

var _ = Describe("the context of a support agent's turn", func() {
	var report *cupel.SelectionReport

	BeforeEach(func() {
		var err error
		_, report, err = agentcontext.Run()
		Expect(err).NotTo(HaveOccurred())
	})

	It("always holds the system prompt, once, at the top of the window", func() {
		Expect(report).To(IncludeExactlyNItemsWithKind(cupel.KindSystemPrompt, 1))
		Expect(report).To(HaveNoExclusionsForKind(cupel.KindSystemPrompt))
		Expect(report).To(PlaceItemAtEdge(func(in cupel.IncludedItem) bool {
			return in.Item.Content() == agentcontext.SystemPrompt
		}))
	})

	It("holds the user's question, the account lookup and the matching article", func() {
		Expect(report).To(SatisfyAll(
			IncludeItemMatching(func(in cupel.IncludedItem) bool { return in.Item.Content() == agentcontext.LatestTurn }),
			IncludeItemMatching(func(in cupel.IncludedItem) bool { return in.Item.Content() == agentcontext.AccountTool }),
			IncludeItemMatching(func(in cupel.IncludedItem) bool {
				return strings.HasPrefix(in.Item.Content(), "kb/account-locked.md")
			}),
		))
		Expect(report).To(IncludeItemWithKind(cupel.KindMemory))
		Expect(report).To(HaveKindCoverageCount(5))
	})

	It("leaves out what does not fit, and says why", func() {
		isOrders := func(it *cupel.ContextItem) bool { return it.Content() == agentcontext.OrdersTool }
		Expect(report).To(HaveAtLeastNExclusions(3))
		Expect(report).To(ExcludeItemWithBudgetDetails(isOrders, agentcontext.OrdersTokens, 387))
		Expect(report).To(ExcludeItemMatchingWithReason(func(it *cupel.ContextItem) bool {
			return it.Content() == agentcontext.BillingDoc
		}, cupel.ExclusionBudgetExceeded))
		Expect(report).NotTo(ExcludeItemWithReason(cupel.ExclusionPinnedOverride))
		Expect(report).To(ExcludedItemsAreSortedByScoreDescending())
	})

	It("keeps one copy of an article retrieved twice", func() {
		Expect(report).To(IncludeItemMatching(func(in cupel.IncludedItem) bool { return in.Item.Content() == agentcontext.LockedDoc }))
		Expect(report).To(ExcludeItemMatchingWithReason(func(it *cupel.ContextItem) bool {
			return it.Content() == agentcontext.LockedDoc
		}, cupel.ExclusionDeduplicated))
	})

	It("uses the window well and places the best items at its edges", func() {
		Expect(report).To(HaveBudgetUtilizationAbove(0.4, agentcontext.Budget()))
		Expect(report).NotTo(HaveBudgetUtilizationAbove(0.8, agentcontext.Budget()))
		Expect(report).To(PlaceTopNScoredAtEdges(len(report.Included)))
	})

	// The whole report, reviewed once and kept in testdata/golden; rewrite
	// it with GOLDIE_UPDATE=1 go test ./examples/...
	It("matches the reviewed snapshot of the report", func() {
		Expect(report).To(snapshot.MatchGolden("agent_turn"))
		snapshot.Match(GinkgoT(), "agent_turn", report)
	})

	It("reads as well through the chain under GinkgoT()", func() {
		cupeltest.Should(GinkgoT(), report).
			IncludeItemWithKind(cupel.KindToolOutput).
			ExcludeItemWithReason(cupel.ExclusionDeduplicated)
	})
})
