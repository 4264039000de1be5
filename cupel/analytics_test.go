package cupel_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
)

var _ = Describe("report analytics", func() {
	ts := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	rep := &cupel.SelectionReport{Included: []cupel.IncludedItem{
		{Item: cupel.MustItem(cupel.ItemSpec{Content: "a", Tokens: 300, Kind: "Message", Timestamp: &ts})},
		{Item: cupel.MustItem(cupel.ItemSpec{Content: "b", Tokens: 100, Kind: "message"})},
		{Item: cupel.MustItem(cupel.ItemSpec{Content: "c", Tokens: 100, Kind: "Document", Timestamp: &ts})},
		{Item: cupel.MustItem(cupel.ItemSpec{Content: "d", Tokens: 0, Kind: "\u212Aind"})},
	}}
	It("computes budget utilisation against maxTokens", func() {
		b, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 1000, TargetTokens: 500})
		Expect(rep.BudgetUtilization(b)).To(Equal(0.5))
		Expect(rep.IncludedTokens()).To(Equal(500))
		Expect(rep.BudgetUtilization(cupel.ContextBudget{})).To(Equal(0.0))
	})
	It("counts distinct kinds with ASCII folding", func() {
		Expect(rep.KindDiversity()).To(Equal(3))
		Expect((&cupel.SelectionReport{}).KindDiversity()).To(Equal(0))
	})
	It("computes timestamp coverage", func() {
		Expect(rep.TimestampCoverage()).To(Equal(0.5))
		Expect((&cupel.SelectionReport{}).TimestampCoverage()).To(Equal(0.0))
	})
})
