package doccheck_test

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/doccheck"
)

var _ = Describe("the block parser", func() {
	md := "# t\n\n<!-- go: a.go#F.body -->\n```go\nold\n```\n\ntext\n```sh\necho hi\n```\n\n<!-- output: exit=0 -->\n```\nhi\n```\n"

	It("finds the fenced blocks with their markers and lines", func() {
		bs := doccheck.Blocks("x.md", []byte(md))
		Expect(bs).To(HaveLen(3))
		Expect(bs[0].Lang).To(Equal("go"))
		Expect(bs[0].Marker).To(Equal("go: a.go#F.body"))
		Expect(bs[0].Where()).To(Equal("x.md:4"))
		Expect(bs[1].Marker).To(BeEmpty(), "the marker is on the line right before the fence only")
		Expect(bs[2].Content).To(Equal("hi\n"))
		script, err := doccheck.Script(bs, 2)
		Expect(err).NotTo(HaveOccurred())
		Expect(script).To(Equal("echo hi\n"))
	})

	It("replaces only the blocks it is given", func() {
		bs := doccheck.Blocks("x.md", []byte(md))
		out := string(doccheck.Replace([]byte(md), map[int]string{0: "new\n"}, bs))
		Expect(out).To(ContainSubstring("```go\nnew\n```"))
		Expect(out).To(ContainSubstring("```sh\necho hi\n```"))
	})

	It("rejects a go block without a marker, and an output without its exit code", func() {
		_, err := doccheck.ParseGoMarker("")
		Expect(err).To(MatchError(doccheck.ErrMarker))
		_, err = doccheck.ParseGoMarker("go: ../x.go")
		Expect(err).To(MatchError(doccheck.ErrMarker))
		_, err = doccheck.ParseOutputMarker("output:")
		Expect(err).To(MatchError(doccheck.ErrMarker))
		_, err = doccheck.Script(doccheck.Blocks("x.md", []byte("```\nx\n```\n")), 0)
		Expect(err).To(MatchError(doccheck.ErrMarker))
	})

	It("extracts a whole declaration or a function's statements", func() {
		dir := GinkgoT().TempDir()
		src := "package p\n\n// F does.\nfunc F() {\n\tx := 1\n\t_ = x\n\t// Output: 1\n}\n\ntype T struct{}\n"
		Expect(os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644)).To(Succeed())
		got, err := doccheck.Source(dir, doccheck.GoRef{Path: "p.go", Name: "F", Body: true})
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal("x := 1\n_ = x\n"))
		got, err = doccheck.Source(dir, doccheck.GoRef{Path: "p.go", Name: "T"})
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal("type T struct{}\n"))
		_, err = doccheck.Source(dir, doccheck.GoRef{Path: "p.go", Name: "G"})
		Expect(err).To(MatchError(doccheck.ErrMarker))
	})
})
