package doccheck_test

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/doccheck"
)

var _ = Describe("the Go doc comments", func() {
	It("show only Go code that is compiled: each block that parses as Go is part of a function or declaration of the repository", func() {
		var code doccheck.Code
		var blocks []doccheck.CommentCode
		for _, file := range repoFiles(".go") {
			src, err := os.ReadFile(filepath.Join(root, file))
			Expect(err).NotTo(HaveOccurred())
			Expect(code.Add(file, src)).To(Succeed())
			if !strings.HasSuffix(file, "_test.go") {
				b, err := doccheck.DocCode(file, src)
				Expect(err).NotTo(HaveOccurred())
				blocks = append(blocks, b...)
			}
		}
		Expect(len(blocks)).To(BeNumerically(">", 10), "the doc comments' Go blocks")
		var missing []string
		for _, b := range blocks {
			if !code.Contains(b.Text) {
				missing = append(missing, b.Where()+":\n"+b.Text)
			}
		}
		Expect(missing).To(BeEmpty(), "code in doc comments that no compiled code has: make it (part of) an Example function, or fix it to match the code it shows")
	})
})

var _ = Describe("DocCode and Code", func() {
	src := []byte(`// Package p shows
//
//	kept, _, err := pkg.Trim(msgs, opts)
//
// and a command:
//
//	go run ./cmd/x -n 3
package p

func Example() {
	a := 1
	kept, _, _, err := pkg.Trim(msgs, opts)
	_ = a
	_ = func(t *testing.T) {
		check(t)
	}
}
`)
	It("finds the blocks that parse as Go, and looks them up in function bodies", func() {
		blocks, err := doccheck.DocCode("p.go", src)
		Expect(err).NotTo(HaveOccurred())
		Expect(blocks).To(HaveLen(1), "the command is not Go")
		Expect(blocks[0].Text).To(Equal("kept, _, err := pkg.Trim(msgs, opts)\n"))
		Expect(blocks[0].Where()).To(Equal("p.go:1"))
		var code doccheck.Code
		Expect(code.Add("p.go", src)).To(Succeed())
		Expect(code.Contains(blocks[0].Text)).To(BeFalse(), "Trim returns four values")
		Expect(code.Contains("kept, _, _, err := pkg.Trim(msgs, opts)\n_ = a\n")).To(BeTrue())
		Expect(code.Contains("a := 1\n_ = a\n")).To(BeFalse(), "lines together, in order")
		Expect(code.Contains("func TestCheck(t *testing.T) {\n\tcheck(t)\n}\n")).To(BeTrue(), "a test function, as a literal")
		Expect(code.Contains("func TestCheck(t *testing.B) {\n\tcheck(t)\n}\n")).To(BeFalse(), "another signature")
	})
})
