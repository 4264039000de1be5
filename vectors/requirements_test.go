package vectors_test

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/runner/requirement"
)

// The suite covers the catalogue: the check cupel-conform lint makes of
// the embedded suite (requirement.Coverage.Problems), run in CI.
var _ = Describe("the suite's coverage of the requirements catalogue", func() {
	It("is whole: every covers id exists, every vector covers a requirement, every protocol requirement has a vector", func() {
		cat, err := requirement.Embedded()
		Expect(err).NotTo(HaveOccurred())
		problems := requirement.Cover(cat, suite().Cases).Problems(true)
		if len(problems) == 0 {
			return
		}
		var b strings.Builder
		for _, p := range problems {
			if p.Kind == requirement.UncoveredRequirement {
				p.File = "requirements/" + p.File
			}
			fmt.Fprintf(&b, "  %s\n", p)
		}
		Fail(fmt.Sprintf("%d coverage problems (cupel-conform lint lists the same; docs/requirements.md says how to fix each):\n%s", len(problems), b.String()))
	})
})
