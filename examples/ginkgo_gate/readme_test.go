package ginkgo_gate

import (
	"os"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// goBlock is a fenced Go snippet of a README.
var goBlock = regexp.MustCompile("(?s)```go\n(.*?)```")

var _ = Describe("The READMEs", func() {
	It("show the gate this suite compiles and runs, verbatim", func() {
		src, err := os.ReadFile("gate_test.go")
		Expect(err).NotTo(HaveOccurred())
		for _, path := range []string{"README.md", "../../README.md"} {
			data, err := os.ReadFile(path)
			Expect(err).NotTo(HaveOccurred())
			n := 0
			for _, m := range goBlock.FindAllStringSubmatch(string(data), -1) {
				if !strings.Contains(m[1], "conformginkgo.") {
					continue
				}
				n++
				Expect(string(src)).To(ContainSubstring(m[1]), "%s: a Go snippet that gate_test.go does not compile", path)
			}
			Expect(n).To(BeNumerically(">", 0), "%s shows no conformginkgo snippet", path)
		}
	})
})
