package chat_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/chat"
)

var _ = Describe("Calibrate", func() {
	It("measures the drift and the margin that keeps the asked share of requests inside the window", func() {
		// Ten requests: the provider counted 0% to 45% more than estimated.
		var pairs []chat.Usage
		for i := range 10 {
			pairs = append(pairs, chat.Usage{Estimated: 1000, Reported: 1000 + 50*i})
		}
		d, err := chat.Calibrate(pairs, 0.9)
		Expect(err).NotTo(HaveOccurred())
		Expect(d.Requests).To(Equal(10))
		Expect(d.MinRatio).To(Equal(1.0))
		Expect(d.MaxRatio).To(Equal(1.45))
		Expect(d.MeanRatio).To(BeNumerically("~", 1.225, 1e-9))
		// 9 of 10 have a ratio <= 1.40: a margin m with 1/(1-m) >= 1.40 is 28.6%.
		Expect(d.MarginPercent).To(Equal(28.6))
		// Check it: with that margin, an estimate at the effective budget
		// stays inside the window for 9 of the 10 ratios.
		window := 10000
		b, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: window, TargetTokens: window, EstimationSafetyMarginPercent: d.MarginPercent})
		estimate := b.Effective(0).TargetTokens()
		inside := 0
		for _, p := range pairs {
			if float64(estimate)*float64(p.Reported)/float64(p.Estimated) <= float64(window) {
				inside++
			}
		}
		Expect(inside).To(Equal(9))

		all, _ := chat.Calibrate(pairs, 1)
		Expect(all.MarginPercent).To(Equal(31.1)) // 1/1.45 = 0.6897
		over, _ := chat.Calibrate([]chat.Usage{{Estimated: 100, Reported: 80}}, 1)
		Expect(over.MarginPercent).To(BeZero(), "estimates that were never short need no margin")
		Expect(over.MeanError).To(Equal(0.25))
	})

	It("refuses pairs and coverages it cannot use, naming them", func() {
		_, err := chat.Calibrate(nil, 0.9)
		Expect(err).To(MatchError(cupel.ErrInvalidArgument))
		_, err = chat.Calibrate([]chat.Usage{{Estimated: 1, Reported: 1}, {Estimated: 0, Reported: 5}}, 0.9)
		Expect(err).To(MatchError(ContainSubstring("pairs[1]")))
		_, err = chat.Calibrate([]chat.Usage{{Estimated: 1, Reported: 1}}, 1.5)
		Expect(err).To(MatchError(ContainSubstring("coverage must be in (0, 1]")))
	})
})
