package cupel_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/format"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

var _ = Describe("SelectionReport.String", func() {
	report := func() *cupel.SelectionReport {
		scores := tableScorer{"user: how do I unlock my account?": 0.9, "kb/billing-faq.md": 0.2, "kb/billing-faq.md ": 0.1}
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: scores, Slicer: slicer.NewGreedy(), Placer: placer.NewUShaped()})
		Expect(err).NotTo(HaveOccurred())
		items := []*cupel.ContextItem{
			cupel.MustItem(cupel.ItemSpec{Content: "You are a support agent. Be brief, cite the docs and never guess.", Tokens: 30, Kind: cupel.KindSystemPrompt, Pinned: true}),
			item("user: how do I unlock my account?", 100),
			cupel.MustItem(cupel.ItemSpec{Content: "kb/billing-faq.md", Tokens: 300, Kind: cupel.KindDocument}),
		}
		_, r, err := dryRun(p, items, budget(400, 200))
		Expect(err).NotTo(HaveOccurred())
		return r
	}

	It("summarizes counts, then one line per included and excluded item", func() {
		Expect(report().String()).To(Equal(strings.Join([]string{
			"SelectionReport: 3 candidates (430 tokens), 2 included (130 tokens), 1 excluded, 8 events",
			`  included[0]: "You are a support agent. Be brief, cite …" (SystemPrompt, 30 tokens) Pinned score=1`,
			`  included[1]: "user: how do I unlock my account?" (Message, 100 tokens) Scored score=0.9`,
			`  excluded[0]: "kb/billing-faq.md" (Document, 300 tokens) score=0.2 BudgetExceeded: 300 tokens requested, 70 available`,
		}, "\n")))
		Expect((*cupel.SelectionReport)(nil).String()).To(Equal("SelectionReport(nil)"))
	})

	It("lists at most 20 items of each list", func() {
		r := &cupel.SelectionReport{TotalCandidates: 25}
		for range 25 {
			r.Included = append(r.Included, cupel.IncludedItem{Item: item("x", 1), Score: 0.5, Reason: cupel.InclusionScored})
		}
		lines := strings.Split(r.String(), "\n")
		Expect(lines).To(HaveLen(22))
		Expect(lines[21]).To(Equal("  ... and 5 more included"))
	})

	It("is what Gomega prints for a report, instead of its struct", func() {
		r := report()
		Expect(format.Object(r, 1)).To(ContainSubstring("SelectionReport: 3 candidates (430 tokens)"))
		Expect(format.Object(r, 1)).NotTo(ContainSubstring("Events:"))
		failures := InterceptGomegaFailures(func() {
			Expect([]*cupel.SelectionReport{r}).To(ContainElement(BeNil()))
		})
		Expect(failures).To(HaveLen(1))
		Expect(strings.Count(failures[0], "\n")).To(BeNumerically("<", 12))
		Expect(failures[0]).To(ContainSubstring(`included[1]: "user: how do I unlock my account?"`))
	})
})
