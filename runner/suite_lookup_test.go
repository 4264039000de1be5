package runner_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/vectors"
)

var _ = Describe("Suite.Case", func() {
	It("finds every case of the embedded suite by id, ids such as a and a-b included", func() {
		s, err := casefile.LoadSuite(vectors.FS)
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Cases).NotTo(BeEmpty())
		for _, c := range s.Cases {
			Expect(s.Case(c.ID)).To(BeIdenticalTo(c), c.ID)
		}
		Expect(s.Case("optional/scoring/decay-null-timestamp")).NotTo(BeNil())
		Expect(s.Case("required/scoring/no-such-case")).To(BeNil())
	})
})
