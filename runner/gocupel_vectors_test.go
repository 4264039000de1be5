package runner_test

import (
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// goCupelVectors holds vector files that check go-cupel's own choices
// where the spec leaves a choice to the implementation or asks less than a
// MUST (ruling 29): they left the conformance suite, and go-cupel must
// still pass them. vectors/README.md, "What the suite does not demand",
// lists them with the reason.
const goCupelVectors = "testdata/gocupel"

var _ = Describe("go-cupel's own vectors", func() {
	It("all pass against go-cupel", func() {
		rep, err := runner.Run(ctx(), runner.Engine(), runner.Options{Suite: os.DirFS(goCupelVectors), SuiteName: "go-cupel's own"})
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Infrastructure).To(BeEmpty())
		Expect(rep.Cases).To(HaveLen(18))
		for _, c := range rep.Cases {
			Expect(c.Outcome).To(Equal(protocol.OutcomePass), "%s: %s", c.ID, c.Message)
		}
		Expect(rep.Level).To(Equal(runner.LevelFullyConformant))
	})

	It("are not in the conformance suite as well", func() {
		own, err := casefile.LoadSuite(os.DirFS(goCupelVectors))
		Expect(err).NotTo(HaveOccurred())
		Expect(own.Errors).To(BeEmpty())
		suite, err := casefile.LoadSuite(nil)
		Expect(err).NotTo(HaveOccurred())
		ids := map[string]bool{}
		for _, c := range suite.Cases {
			ids[c.ID] = true
		}
		for _, c := range own.Cases {
			Expect(ids).NotTo(HaveKey(c.ID))
		}
	})
})
