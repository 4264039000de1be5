package cupeltest_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/sebdah/goldie/v2"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupeltest"
	"github.com/cupel-go/go-cupel/internal/testcases"
)

// The three kinds of test handle the package promises to accept.
var (
	_ cupeltest.TB = (*testing.T)(nil)
	_ cupeltest.TB = (*testing.B)(nil)
	_ cupeltest.TB = GinkgoT()
)

// recordingTB records every call made on it.
type recordingTB struct {
	calls  []string
	errors []string
}

func (r *recordingTB) Helper() { r.calls = append(r.calls, "Helper") }

func (r *recordingTB) Errorf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	r.calls = append(r.calls, "Errorf")
	r.errors = append(r.errors, msg)
}

// apply replays a table call on a chain.
func apply(ch *cupeltest.Chain, c testcases.Call) *cupeltest.Chain {
	switch c.Pattern {
	case "IncludeItemWithKind":
		return ch.IncludeItemWithKind(c.Kind)
	case "IncludeItemMatching":
		return ch.IncludeItemMatching(c.IncPred)
	case "IncludeExactlyNItemsWithKind":
		return ch.IncludeExactlyNItemsWithKind(c.Kind, c.N)
	case "ExcludeItemWithReason":
		return ch.ExcludeItemWithReason(c.Reason)
	case "ExcludeItemMatchingWithReason":
		return ch.ExcludeItemMatchingWithReason(c.ItemPred, c.Reason)
	case "ExcludeItemWithBudgetDetails":
		return ch.ExcludeItemWithBudgetDetails(c.ItemPred, c.ItemTok, c.AvailTok)
	case "HaveNoExclusionsForKind":
		return ch.HaveNoExclusionsForKind(c.Kind)
	case "HaveAtLeastNExclusions":
		return ch.HaveAtLeastNExclusions(c.N)
	case "ExcludedItemsAreSortedByScoreDescending":
		return ch.ExcludedItemsAreSortedByScoreDescending()
	case "HaveBudgetUtilizationAbove":
		return ch.HaveBudgetUtilizationAbove(c.Threshold, c.Budget)
	case "HaveKindCoverageCount":
		return ch.HaveKindCoverageCount(c.N)
	case "PlaceItemAtEdge":
		return ch.PlaceItemAtEdge(c.IncPred)
	case "PlaceTopNScoredAtEdges":
		return ch.PlaceTopNScoredAtEdges(c.N)
	}
	Fail("unknown pattern " + c.Pattern)
	return nil
}

var _ = Describe("Should", func() {
	for _, pattern := range testcases.Patterns {
		Describe(pattern, func() {
			for _, c := range testcases.Of(pattern) {
				if c.Pass() {
					It("passes and calls nothing on t: "+c.ID, func() {
						tb := &recordingTB{}
						ch := cupeltest.Should(tb, c.Report())
						Expect(apply(ch, c.Call)).To(BeIdenticalTo(ch))
						Expect(tb.calls).To(BeEmpty())
						Expect(ch.Err()).NotTo(HaveOccurred())
						Expect(ch.Failures()).To(BeEmpty())
						Expect(ch.First()).To(BeNil())
					})
					It("passes under GinkgoT(): "+c.ID, func() {
						apply(cupeltest.Should(GinkgoT(), c.Report()), c.Call)
					})
				} else {
					It("fails with the exact message: "+c.ID, func() {
						tb := &recordingTB{}
						ch := cupeltest.Should(tb, c.Report())
						Expect(apply(ch, c.Call)).To(BeIdenticalTo(ch))
						Expect(tb.errors).To(Equal([]string{c.Want}))
						Expect(tb.calls).To(Equal([]string{"Helper", "Helper", "Errorf"}))
						Expect(ch.First().Assertion).To(Equal(pattern))
						Expect(ch.First().Message).To(Equal(c.Want))
					})
				}
			}

			It("has reviewed golden messages", func() {
				var b strings.Builder
				for _, c := range testcases.Of(pattern) {
					if c.Pass() {
						continue
					}
					tb := &recordingTB{}
					apply(cupeltest.Should(tb, c.Report()), c.Call)
					fmt.Fprintf(&b, "# %s\n%s\n\n", c.ID, strings.Join(tb.errors, "\n"))
				}
				g := goldie.New(GinkgoTB(), goldie.WithFixtureDir("testdata/golden/messages"))
				g.Assert(GinkgoTB(), pattern, []byte(b.String()))
			})
		})
	}
})

var _ = Describe("a chain", func() {
	It("reports every failed assertion to a plain-testing TB, in order", func() {
		tb := &recordingTB{}
		r := testcases.Agent()
		cupeltest.Should(tb, r).
			IncludeItemWithKind(cupel.KindMemory).
			IncludeItemWithKind(cupel.KindMessage).
			HaveAtLeastNExclusions(9).
			PlaceTopNScoredAtEdges(6)
		Expect(tb.errors).To(Equal([]string{
			"IncludeItemWithKind(Memory) failed: Included contained 0 items with Kind=Memory. Included had 5 items with kinds: [SystemPrompt, Document, Message, ToolOutput].",
			"HaveAtLeastNExclusions(9) failed: expected at least 9 excluded items, but Excluded had 4.",
			"PlaceTopNScoredAtEdges(6) failed: Included had 5 items, fewer than the 6 edge positions to check.",
		}))
		// Helper is called before each Errorf, so each failure points at its caller.
		Expect(tb.calls).To(Equal([]string{
			"Helper", "Helper", "Errorf",
			"Helper", "Helper", "Errorf",
			"Helper", "Helper", "Errorf",
		}))
	})

	It("calls nothing on t when every assertion passes", func() {
		tb := &recordingTB{}
		r := testcases.Agent()
		cupeltest.Should(tb, r).
			IncludeItemWithKind(cupel.KindSystemPrompt).
			IncludeItemMatching(func(in cupel.IncludedItem) bool { return in.Reason == cupel.InclusionPinned }).
			IncludeExactlyNItemsWithKind(cupel.KindMessage, 2).
			ExcludeItemWithReason(cupel.ExclusionDeduplicated).
			ExcludeItemMatchingWithReason(func(it *cupel.ContextItem) bool { return it.Kind() == cupel.KindDocument }, cupel.ExclusionBudgetExceeded).
			ExcludeItemWithBudgetDetails(func(it *cupel.ContextItem) bool { return it.Tokens() == 800 }, 800, 360).
			HaveNoExclusionsForKind(cupel.KindSystemPrompt).
			HaveAtLeastNExclusions(0).
			ExcludedItemsAreSortedByScoreDescending().
			HaveBudgetUtilizationAbove(0.6, testcases.Budget(1000, 800)).
			HaveKindCoverageCount(4).
			PlaceItemAtEdge(func(in cupel.IncludedItem) bool { return in.Reason == cupel.InclusionPinned }).
			PlaceTopNScoredAtEdges(5)
		Expect(tb.calls).To(BeEmpty())
	})

	It("does not change the report", func() {
		r := testcases.Agent()
		before, err := r.MarshalJSON()
		Expect(err).NotTo(HaveOccurred())
		ch := cupeltest.Audit(r)
		for _, c := range testcases.Cases() {
			apply(ch, c.Call)
		}
		after, err := r.MarshalJSON()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(after)).To(Equal(string(before)))
		Expect(ch.Report()).To(BeIdenticalTo(r))
	})

	It("refuses a nil TB", func() {
		Expect(func() { cupeltest.Should(nil, testcases.Agent()) }).To(PanicWith(ContainSubstring("use Check")))
	})
})

var _ = Describe("Check", func() {
	It("returns nil from Err when every assertion holds", func() {
		err := cupeltest.Audit(testcases.Agent()).IncludeItemWithKind(cupel.KindMessage).HaveKindCoverageCount(4).Err()
		Expect(err).NotTo(HaveOccurred())
	})

	for _, c := range testcases.Cases() {
		if c.Pass() {
			continue
		}
		It("returns the failure as an *AssertionError: "+c.ID, func() {
			err := apply(cupeltest.Audit(c.Report()), c.Call).Err()
			Expect(err).To(MatchError(c.Want))
			var ae *cupeltest.AssertionError
			Expect(errors.As(err, &ae)).To(BeTrue())
			Expect(ae.Assertion).To(Equal(c.Call.Pattern))
			Expect(ae.Message).To(Equal(c.Want))
		})
	}

	It("collects every failure, in order", func() {
		ch := cupeltest.Audit(testcases.Empty()).
			IncludeItemWithKind(cupel.KindMessage).
			HaveAtLeastNExclusions(0).
			HaveKindCoverageCount(1)
		first := "IncludeItemWithKind(Message) failed: Included contained 0 items with Kind=Message. Included had 0 items with kinds: []."
		second := "HaveKindCoverageCount(1) failed: expected at least 1 distinct ContextKind values in Included, but found 0: []."
		Expect(ch.Err()).To(MatchError(first + "\n" + second))
		Expect(ch.Failures()).To(HaveLen(2))
		Expect(ch.Failures()[1].Message).To(Equal(second))
		Expect(ch.First().Message).To(Equal(first))

		var ae *cupeltest.AssertionError
		Expect(errors.As(ch.Err(), &ae)).To(BeTrue())
		Expect(ae.Assertion).To(Equal("IncludeItemWithKind"))
		Expect(errors.Is(ch.Err(), ch.Failures()[1])).To(BeTrue())
	})

	It("hands out a copy of its failures", func() {
		ch := cupeltest.Audit(testcases.Empty()).HaveAtLeastNExclusions(1)
		ch.Failures()[0] = nil
		Expect(ch.First()).NotTo(BeNil())
	})
})

// fatalTB records calls like recordingTB and counts FailNow.
type fatalTB struct {
	recordingTB
	failNows int
}

func (f *fatalTB) FailNow() { f.calls = append(f.calls, "FailNow"); f.failNows++ }

var _ = Describe("Require", func() {
	It("reports the failure, then calls FailNow", func() {
		tb := &fatalTB{}
		ch := cupeltest.Require(tb, testcases.Agent()).HaveKindCoverageCount(4)
		Expect(tb.calls).To(BeEmpty(), "a passing assertion calls nothing on t")
		ch.HaveAtLeastNExclusions(99)
		Expect(tb.calls).To(Equal([]string{"Helper", "Helper", "Errorf", "FailNow"}))
		Expect(tb.errors).To(Equal([]string{"HaveAtLeastNExclusions(99) failed: expected at least 99 excluded items, but Excluded had 4."}))
		Expect(ch.Err()).To(MatchError(tb.errors[0]))
	})

	It("accepts *testing.T, *testing.B and GinkgoT()", func() {
		var _ cupeltest.FatalTB = (*testing.T)(nil)
		var _ cupeltest.FatalTB = (*testing.B)(nil)
		var _ cupeltest.FatalTB = GinkgoT()
	})
})
