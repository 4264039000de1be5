package vectors_test

import (
	"os"
	"regexp"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/runner/requirement"
)

// The catalogue names places in this repository that the loader cannot
// see from the embedded files: a ruling's heading in docs/rulings.md (its
// link's anchor) and an api requirement's test files.
var _ = Describe("the catalogue's references into the repository", func() {
	It("name headings of docs/rulings.md and test files that exist", func() {
		cat, err := requirement.Embedded()
		Expect(err).NotTo(HaveOccurred())
		rulings, err := os.ReadFile("../docs/rulings.md")
		Expect(err).NotTo(HaveOccurred())
		headings := map[string]bool{}
		for _, m := range regexp.MustCompile(`(?m)^### (.+)$`).FindAllStringSubmatch(string(rulings), -1) {
			headings[m[1]] = true
		}
		for _, r := range cat.All() {
			if r.Ruling > 0 {
				Expect(headings).To(HaveKey(r.Section), "%s: its section is not a heading of docs/rulings.md", r.ID)
			}
			for _, t := range r.Tests {
				Expect("../"+t).To(BeARegularFile(), "%s names a test file that does not exist", r.ID)
			}
		}
	})
})
