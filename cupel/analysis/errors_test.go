package analysis_test

import (
	"errors"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/analysis"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The analyses left package cupel without changing their errors: the same
// messages, the same sentinels, the same types for errors.As.
var _ = Describe("the analyses' argument errors", func() {
	It("are *cupel.ValidationError values wrapping cupel.ErrInvalidArgument, with the messages package cupel gave", func() {
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: tableScorer{}, Slicer: inOrderSlicer{}, Placer: keepOrderPlacer{}})
		Expect(err).NotTo(HaveOccurred())
		a := item("a", 10)
		in := []*cupel.ContextItem{a}
		_, e1 := analysis.MarginalItems(p, in, budget(100, 100), -1)
		_, e2 := analysis.MarginalItems(p, in, budget(100, 50), 60)
		_, _, e3 := analysis.MinBudgetFor(p, in, item("a", 10), 100)
		_, _, e4 := analysis.MinBudgetFor(p, in, a, 9)
		_, e5 := analysis.PolicySensitivity(in, budget(100, 100))
		_, e6 := analysis.PipelineSensitivity(in, budget(100, 100), analysis.LabeledPipeline{Label: "x", Pipeline: p}, analysis.LabeledPipeline{Label: "nil"})
		want := []string{
			"cupel: invalid argument: GetMarginalItems: slackTokens: must be >= 0 (got -1)",
			"cupel: invalid argument: GetMarginalItems: slackTokens: makes the reduced budget invalid: cupel: invalid budget: ContextBudget: targetTokens: must be >= 0 (got -10) (got 60)",
			"cupel: invalid argument: FindMinBudgetFor: targetItem: must be an element of items (got nil)",
			"cupel: invalid argument: FindMinBudgetFor: searchCeiling: must be >= targetItem.Tokens (10) (got 9)",
			"cupel: invalid argument: PolicySensitivity: variants: At least two variants are required for a sensitivity comparison. (got 0)",
			`cupel: variant "nil": cupel: invalid argument: PipelineSensitivity: variants[1].Pipeline: must not be nil (got nil)`,
		}
		for i, err := range []error{e1, e2, e3, e4, e5, e6} {
			Expect(err).To(MatchError(want[i]), "error %d", i+1)
			Expect(err).To(MatchError(cupel.ErrInvalidArgument), "error %d", i+1)
			var ve *cupel.ValidationError
			Expect(errors.As(err, &ve)).To(BeTrue(), "error %d", i+1)
		}
	})
})
