package runner_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Rules of spec chapter 43 (Test Vector Format) that the loader's other
// tests do not state on their own.
var _ = Describe("the vector format of chapter 43", func() {
	It("reads a custom score tolerance, and 1e-9 without one", func() {
		src := "[test]\nname = \"x\"\nstage = \"scoring\"\nscorer = \"priority\"\n" +
			"[[items]]\ncontent = \"a\"\ntokens = 1\npriority = 1\n" +
			"[[expected]]\ncontent = \"a\"\nscore_approx = 1.0\n"
		c, err := load("required/scoring/x.toml", src)
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Expect.Epsilon).To(Equal(1e-9))
		c, err = load("required/scoring/x.toml", src+"[tolerance]\nscore_epsilon = 1e-6\n")
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Expect.Epsilon).To(Equal(1e-6))
	})

	It("defaults output_reserve to 0 and overflow_strategy to throw in a pipeline case", func() {
		c, err := load("required/pipeline/x.toml", pipelineSrc(""))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Input.Budget.OutputReserve).To(BeZero())
		Expect(c.Input.OverflowStrategy).To(Equal("throw"))
	})

	It("lets each diagnostics sub-table stand alone", func() {
		c, err := load("optional/pipeline/x.toml", pipelineSrc("[expected.diagnostics.summary]\ntotal_candidates = 1\n"))
		Expect(err).NotTo(HaveOccurred())
		d := c.Expect.Diagnostics
		Expect(d).NotTo(BeNil())
		Expect(*d.TotalCandidates).To(Equal(int64(1)))
		Expect(d.TotalTokensConsidered).To(BeNil())
		Expect(d.Included).To(BeNil())
		Expect(d.Excluded).To(BeNil())

		c, err = load("optional/pipeline/x.toml", pipelineSrc("[[expected.diagnostics.excluded]]\ncontent = \"a\"\nscore_approx = 0.0\nexclusion_reason = \"BudgetExceeded\"\nitem_tokens = 10\navailable_tokens = 5\n"))
		Expect(err).NotTo(HaveOccurred())
		d = c.Expect.Diagnostics
		Expect(d.TotalCandidates).To(BeNil())
		Expect(d.Included).To(BeNil())
		Expect(d.Excluded).To(HaveLen(1))
		Expect(d.Excluded[0].Reason).To(Equal("BudgetExceeded"))
		Expect(d.Excluded[0].Fields).To(HaveKeyWithValue("item_tokens", BeNumerically("==", 10)))
		Expect(d.Excluded[0].Fields).To(HaveKeyWithValue("available_tokens", BeNumerically("==", 5)))
	})
})

// pipelineSrc is a one-item pipeline vector followed by extra.
func pipelineSrc(extra string) string {
	return "[test]\nname = \"x\"\nstage = \"pipeline\"\n" +
		"[budget]\nmax_tokens = 100\ntarget_tokens = 100\n" +
		"[config]\nslicer = \"greedy\"\nplacer = \"chronological\"\n" +
		"[[config.scorers]]\ntype = \"priority\"\nweight = 1.0\n" +
		"[[items]]\ncontent = \"a\"\ntokens = 10\n" + extra
}
