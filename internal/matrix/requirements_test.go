package matrix_test

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/cupel-go/go-cupel/internal/matrix"
	"github.com/cupel-go/go-cupel/internal/oracleimpl"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
	"github.com/cupel-go/go-cupel/runner/requirement"
)

// requirementsRun runs the fixture suite (runner/testdata/suite), judged
// against its test catalogue, with the greedy case answered wrong: it
// fails requirement R26.1.
func requirementsRun() *runner.Report {
	GinkgoHelper()
	fsys := os.DirFS("../../runner/testdata/suite")
	suite, err := casefile.LoadSuite(fsys)
	Expect(err).NotTo(HaveOccurred())
	cat, err := requirement.Load(os.DirFS("../../runner/testdata/requirements"))
	Expect(err).NotTo(HaveOccurred())
	o := oracleimpl.New(suite)
	o.Mutate = func(c *casefile.Case, r *protocol.Result) {
		if c.ID == "required/slicing/greedy-density-order" {
			*r = protocol.Result{Kind: protocol.ResultOK, Output: &protocol.Output{}}
		}
	}
	rep, err := runner.RunSuite(context.Background(), o, suite, runner.Options{Suite: fsys, Catalogue: cat})
	Expect(err).NotTo(HaveOccurred())
	Expect(rep.Requirements.Failed.IDs).To(Equal([]string{"R26.1"}))
	return rep
}

var _ = Describe("The requirements in the comparison", func() {
	It("the HTML page shows each implementation's requirements and, with each failing case, the requirements it covers linked to the spec", func() {
		rep := requirementsRun()
		m := mustNew([]runner.NamedReport{{Name: "impl", Report: rep}})
		doc, src := page(m)
		Expect(texts(all(doc, byClass("reqsum")))).To(Equal([]string{rep.Requirements.Summary()}))

		failing := one(doc, byID("case:required/slicing/greedy-density-order"))
		Expect(attr(failing, "data-q")).To(ContainSubstring("r26.1"), "the text filter finds a case by requirement")
		items := all(one(failing, byClass("covers")), byTag(atom.Li))
		Expect(items).To(HaveLen(1))
		r26, _ := rep.Requirement("R26.1")
		link := one(items[0], byTag(atom.A))
		Expect(attr(link, "href")).To(Equal(r26.URL()))
		Expect(text(link)).To(Equal("R26.1"))
		Expect(text(items[0])).To(ContainSubstring(r26.Statement))
		Expect(text(items[0])).To(ContainSubstring(r26.Source()))

		// A passing case's requirements are not shown (its row does not
		// open), and the page still loads nothing: every address in it is
		// a requirement's link.
		Expect(all(one(doc, byID("case:required/scoring/recency-basic")), byClass("covers"))).To(BeEmpty())
		links := all(doc, func(n *html.Node) bool { return n.DataAtom == atom.A && strings.HasPrefix(attr(n, "href"), "https://") })
		Expect(links).NotTo(BeEmpty())
		Expect(strings.Count(src, "https://")).To(Equal(len(links)))
	})

	It("an id the catalogue does not hold is shown alone, escaped", func() {
		rep := requirementsRun()
		for i := range rep.Cases {
			if rep.Cases[i].ID == "required/slicing/greedy-density-order" {
				rep.Cases[i].Requirements = []string{`<b onclick="x">X.1</b>`}
			}
		}
		var b bytes.Buffer
		Expect(matrix.WriteHTML(&b, mustNew([]runner.NamedReport{{Name: "impl", Report: rep}}), matrix.HTMLOptions{})).To(Succeed())
		Expect(b.String()).NotTo(ContainSubstring(`<b onclick`))
		doc, err := html.Parse(&b)
		Expect(err).NotTo(HaveOccurred())
		li := one(one(doc, byClass("covers")), byTag(atom.Li))
		Expect(text(li)).To(MatchRegexp(`^` + regexp.QuoteMeta(`<b onclick="x">X.1</b>`) + `\s*not in the requirements catalogue$`))
	})

	It("the text and Markdown comparisons say each implementation's requirements", func() {
		rep := requirementsRun()
		m := mustNew([]runner.NamedReport{{Name: "impl", Report: rep}})
		var t, md bytes.Buffer
		Expect(matrix.WriteText(&t, m, matrix.TextOptions{})).To(Succeed())
		Expect(matrix.WriteMarkdown(&md, m)).To(Succeed())
		Expect(t.String()).To(ContainSubstring("impl: " + rep.Requirements.Summary() + "\n"))
		Expect(md.String()).To(ContainSubstring(" | " + rep.Requirements.Summary() + " |\n"))
	})
})
