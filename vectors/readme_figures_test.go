package vectors_test

import (
	"fmt"
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/requirement"
)

// The README states the suite's and the catalogue's figures in prose; they
// are computed here, so the prose cannot fall behind the files.
var _ = Describe("the README's figures", func() {
	It("are the embedded suite's and catalogue's", func() {
		data, err := os.ReadFile("../README.md")
		Expect(err).NotTo(HaveOccurred())
		readme := strings.Join(strings.Fields(string(data)), " ")

		s := suite()
		required := 0
		for _, c := range s.Cases {
			if c.Tier == casefile.TierRequired {
				required++
			}
		}
		cat, err := requirement.Embedded()
		Expect(err).NotTo(HaveOccurred())
		sum := requirement.Cover(cat, s.Cases).Summary()
		k, m := sum.ByKind, sum.ByMethod

		Expect(readme).To(ContainSubstring(fmt.Sprintf("ours is embedded: %d vectors, %d of them required", len(s.Cases), required)))
		Expect(readme).To(ContainSubstring(fmt.Sprintf("The catalogue holds %d requirements: %d MUST, %d MUST NOT, %d SHOULD, %d SHOULD NOT and %d MAY",
			sum.Requirements, k[requirement.Must], k[requirement.MustNot], k[requirement.Should], k[requirement.ShouldNot], k[requirement.May])))
		Expect(readme).To(ContainSubstring(fmt.Sprintf("%d algorithm steps, %d edge-case rows and %d rulings. %d are testable through the protocol",
			k[requirement.Step], k[requirement.EdgeCase], k[requirement.Ruling], m[requirement.Protocol])))
		Expect(sum.Covered).To(Equal(sum.Protocol), "the README says every protocol requirement has a vector")
		Expect(readme).To(ContainSubstring(fmt.Sprintf("%d are checked by go-cupel's own tests and %d by nothing", m[requirement.API], m[requirement.None])))
		Expect(readme).To(ContainSubstring(fmt.Sprintf("%d of %d have a required-tier vector; the other %s are",
			sum.RequiredTierCovered, sum.RequiredTierProtocol, spell(sum.RequiredTierProtocol-sum.RequiredTierCovered))))
	})
})

func spell(n int) string {
	words := []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}
	if n < len(words) {
		return words[n]
	}
	return fmt.Sprint(n)
}
