package slicer_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

var _ = Describe("quota utilisation", func() {
	rep := &cupel.SelectionReport{Included: []cupel.IncludedItem{
		{Item: cupel.MustItem(cupel.ItemSpec{Content: "d1", Tokens: 300, Kind: "Document"})},
		{Item: cupel.MustItem(cupel.ItemSpec{Content: "d2", Tokens: 100, Kind: "document"})},
		{Item: cupel.MustItem(cupel.ItemSpec{Content: "t1", Tokens: 50, Kind: "ToolOutput"})},
	}}
	It("measures percentage quotas against targetTokens", func() {
		qs, err := slicer.NewQuotaSet(slicer.RequireCap("Document", 20, 50), slicer.Cap("ToolOutput", 0), slicer.Require("Memory", 10))
		Expect(err).NotTo(HaveOccurred())
		b, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 2000, TargetTokens: 1000})
		Expect(qs.Utilization(rep, b)).To(Equal([]slicer.QuotaUtilization{
			{Kind: "Document", Require: 20, Cap: 50, Tokens: 400, Percent: 40, Utilization: 0.8},
			{Kind: "ToolOutput", Require: 0, Cap: 0, Tokens: 50, Percent: 5, Utilization: 0},
			{Kind: "Memory", Require: 10, Cap: 100, Tokens: 0, Percent: 0, Utilization: 0},
		}))
		Expect(qs.Utilization(rep, cupel.ContextBudget{})[0].Percent).To(Equal(0.0))
	})
	It("measures count quotas", func() {
		doc, _ := slicer.NewCountQuotaEntry("DOCUMENT", 3, 4)
		tool, _ := slicer.NewCountQuotaEntry("ToolOutput", 1, 1)
		none, _ := slicer.NewCountQuotaEntry("Memory", 0, 0)
		Expect(slicer.CountUtilization(rep, []slicer.CountQuotaEntry{doc, tool, none})).To(Equal([]slicer.CountQuotaUtilization{
			{Kind: "DOCUMENT", RequireCount: 3, CapCount: 4, Count: 2, Utilization: 0.5, Satisfied: false},
			{Kind: "ToolOutput", RequireCount: 1, CapCount: 1, Count: 1, Utilization: 1, Satisfied: true},
			{Kind: "Memory", RequireCount: 0, CapCount: 0, Count: 0, Utilization: 0, Satisfied: true},
		}))
	})
})
