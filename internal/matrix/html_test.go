package matrix_test

import (
	"bytes"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/cupel-go/go-cupel/internal/matrix"
	"github.com/cupel-go/go-cupel/runner"
)

// page renders m and parses the result.
func page(m *matrix.Matrix) (*html.Node, string) {
	GinkgoHelper()
	var b bytes.Buffer
	Expect(matrix.WriteHTML(&b, m, matrix.HTMLOptions{})).To(Succeed())
	doc, err := html.Parse(bytes.NewReader(b.Bytes()))
	Expect(err).NotTo(HaveOccurred())
	return doc, b.String()
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasClass(n *html.Node, class string) bool {
	for _, c := range strings.Fields(attr(n, "class")) {
		if c == class {
			return true
		}
	}
	return false
}

// all returns the elements under n that match.
func all(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && match(d) {
			out = append(out, d)
		}
	}
	return out
}

func byTag(a atom.Atom) func(*html.Node) bool {
	return func(n *html.Node) bool { return n.DataAtom == a }
}

func byClass(class string) func(*html.Node) bool {
	return func(n *html.Node) bool { return hasClass(n, class) }
}

func byID(id string) func(*html.Node) bool {
	return func(n *html.Node) bool { return attr(n, "id") == id }
}

func one(n *html.Node, match func(*html.Node) bool) *html.Node {
	GinkgoHelper()
	found := all(n, match)
	Expect(found).To(HaveLen(1))
	return found[0]
}

func text(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return b.String()
}

func texts(ns []*html.Node) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strings.TrimSpace(text(n))
	}
	return out
}

var _ = Describe("the HTML page", func() {
	It("is self-contained: inline CSS and script, no external asset, no network address", func() {
		doc, src := page(mustNew(threeImpls()))
		Expect(all(doc, byTag(atom.Style))).To(HaveLen(1))
		script := one(doc, byTag(atom.Script))
		Expect(attr(script, "src")).To(BeEmpty())
		Expect(all(doc, func(n *html.Node) bool {
			return n.DataAtom == atom.Link || n.DataAtom == atom.Img || n.DataAtom == atom.Iframe || attr(n, "src") != ""
		})).To(BeEmpty())
		Expect(src).NotTo(ContainSubstring("http://"))
		Expect(src).NotTo(ContainSubstring("https://"))
		Expect(src).NotTo(ContainSubstring("url("))
		Expect(src).To(ContainSubstring("@media (prefers-color-scheme: dark)"))
	})

	It("shows the level banner of each implementation", func() {
		doc, _ := page(mustNew(threeImpls()))
		banners := all(doc, byClass("banner"))
		Expect(banners).To(HaveLen(3))
		Expect(attr(banners[0], "data-impl")).To(Equal("go-cupel"))
		Expect(hasClass(banners[0], "lvl-full")).To(BeTrue())
		Expect(texts(all(doc, byClass("level")))).To(Equal([]string{"Cupel Fully Conformant", "not conformant", "not conformant"}))
		Expect(texts(all(banners[2], byClass("reason")))).To(Equal([]string{"2 of 5 required cases pass"}))
		Expect(texts(all(banners[2], byClass("tierbar")))).To(Equal([]string{"required2/5", "optional0/2"}))
	})

	It("has a tier/stage × implementation matrix of counts, coloured by result", func() {
		doc, _ := page(mustNew(threeImpls()))
		table := one(doc, byClass("matrix"))
		Expect(texts(all(table, func(n *html.Node) bool { return n.DataAtom == atom.Th && hasClass(n, "impl") }))).To(Equal([]string{"go-cupel", "python", "broken"}))
		rows := all(one(table, byTag(atom.Tbody)), byTag(atom.Tr))
		Expect(rows).To(HaveLen(7)) // 2 tiers, 5 stages
		placing := rows[3]
		Expect(texts(all(placing, byTag(atom.Th)))).To(Equal([]string{"placing"}))
		cells := all(placing, byClass("cell"))
		Expect(cells).To(HaveLen(3))
		Expect(texts(all(cells[1], byTag(atom.B)))).To(Equal([]string{"2/2"}))
		Expect(hasClass(cells[1], "c-pass")).To(BeTrue())
		Expect(texts(all(cells[2], byTag(atom.B)))).To(Equal([]string{"1/2"}))
		Expect(hasClass(cells[2], "c-fail")).To(BeTrue())
		Expect(attr(cells[2], "title")).To(Equal("1 pass, 1 fail"))
		Expect(hasClass(all(rows[1], byClass("cell"))[1], "c-partial")).To(BeTrue(), "pass and unsupported")
	})

	It("lists the disagreements grouped by who got which status", func() {
		doc, _ := page(mustNew(threeImpls()))
		sec := one(doc, byID("disagreements"))
		groups := all(sec, byClass("group"))
		Expect(groups).To(HaveLen(2))
		Expect(hasClass(groups[0], "failing")).To(BeTrue())
		Expect(attr(groups[0], "open")).NotTo(BeNil())
		Expect(texts(all(groups[0], byTag(atom.Code)))).To(Equal([]string{placeTies}))
		Expect(attr(one(groups[0], byTag(atom.A)), "href")).To(Equal("#case:" + placeTies))
		Expect(texts(all(groups[1], byTag(atom.Code)))).To(HaveLen(4))
	})

	It("lists every case, filterable, with the inputs, expectation, message, diff, actual result and stderr of a failing one", func() {
		doc, _ := page(mustNew(threeImpls()))
		list := one(doc, byID("list"))
		var cases []*html.Node
		for c := list.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode {
				cases = append(cases, c)
			}
		}
		Expect(cases).To(HaveLen(7))
		for _, c := range cases {
			Expect(attr(c, "id")).To(HavePrefix("case:"))
			Expect(attr(c, "data-stage")).NotTo(BeEmpty())
		}
		failing := one(list, byID("case:"+placeTies))
		Expect(failing.DataAtom).To(Equal(atom.Details))
		Expect(strings.Fields(attr(failing, "data-s"))).To(ConsistOf("pass", "fail", "x-notpass", "x-disagree", "x-failing"))
		Expect(texts(all(failing, byClass("chip")))).To(ContainElements("pass", "pass", "fail"))
		problem := one(failing, byClass("problem"))
		Expect(texts(all(problem, byTag(atom.H4)))).To(Equal([]string{"fail broken"}))
		diff := one(problem, byClass("diff"))
		Expect(texts(all(diff, byClass("d-bad")))).To(Equal([]string{tiesDiff[2][2:], tiesDiff[3][2:]}))
		Expect(texts(all(diff, byClass("d-head")))).To(Equal([]string{tiesDiff[0]}))
		Expect(texts(all(problem, byClass("msg")))).To(BeEmpty(), "the diff's first line is the message")
		Expect(text(one(problem, byClass("stderr")))).To(Equal("debug: placing 2 items\n"))
		Expect(text(one(problem, byClass("json")))).To(ContainSubstring(`"ordered": [1, 0]`))
		Expect(text(one(failing, byClass("input")))).To(ContainSubstring(`"placer": "u-shaped"`))
		Expect(text(one(failing, byClass("expected")))).To(ContainSubstring(`{"content": "b"}`))

		unsupported := one(list, byID("case:"+scoreKind))
		Expect(unsupported.DataAtom).To(Equal(atom.Div), "nothing to open")
		Expect(strings.Fields(attr(unsupported, "data-s"))).To(ConsistOf("pass", "unsupported", "x-notpass", "x-disagree"))
		Expect(attr(one(unsupported, func(n *html.Node) bool {
			return hasClass(n, "s-unsupported") && hasClass(n, "chip") && attr(n, "title") != "" && strings.HasPrefix(attr(n, "title"), "python")
		}), "title")).
			To(Equal("python: unsupported — unsupported: not implemented"))
	})

	It("offers the filters by status, tier, stage and text", func() {
		doc, _ := page(mustNew(threeImpls()))
		values := func(sel *html.Node) []string {
			var out []string
			for _, o := range all(sel, byTag(atom.Option)) {
				v := attr(o, "value")
				if v == "" {
					v = text(o)
				}
				out = append(out, v)
			}
			return out
		}
		Expect(values(one(doc, byID("f-outcome")))).To(Equal([]string{"all", "x-notpass", "x-failing", "x-disagree", "pass", "fail", "unsupported"}))
		Expect(values(one(doc, byID("f-tier")))).To(Equal([]string{"all", "required", "optional"}))
		Expect(values(one(doc, byID("f-stage")))).To(Equal([]string{"all", "scoring", "slicing", "placing", "pipeline"}))
		Expect(attr(one(doc, byID("f-text")), "type")).To(Equal("search"))
	})

	It("works for one implementation: no disagreement section, no disagreeing filter", func() {
		doc, _ := page(mustNew(threeImpls()[2:]))
		Expect(all(doc, byID("disagreements"))).To(BeEmpty())
		Expect(all(doc, byClass("banner"))).To(HaveLen(1))
		Expect(texts(all(doc, byTag(atom.Option)))).NotTo(ContainElement("disagreeing"))
		Expect(all(doc, byID("case:"+placeTies))).To(HaveLen(1))
	})

	It("escapes what reports say", func() {
		es := threeImpls()
		es[2].Report.Cases[4].Message = `<script>alert("x")</script>`
		es[2].Report.Cases[4].Details = []string{`<img src=x onerror=alert(1)>`}
		es[2].Name = `<b>broken</b>`
		doc, _ := page(mustNew(es))
		Expect(all(doc, byTag(atom.Script))).To(HaveLen(1))
		Expect(all(doc, byTag(atom.Img))).To(BeEmpty())
		Expect(texts(all(doc, byClass("msg")))).To(ContainElement(`<script>alert("x")</script>`))
		Expect(texts(all(all(doc, byClass("banner"))[2], byTag(atom.H3)))).To(Equal([]string{`<b>broken</b>`}))
		Expect(all(doc, byTag(atom.B))).NotTo(ContainElement(WithTransform(text, Equal("broken"))))
	})

	It("says when inputs are not available", func() {
		m, err := matrix.New(threeImpls(), matrix.Options{})
		Expect(err).NotTo(HaveOccurred())
		doc, _ := page(m)
		Expect(texts(all(doc, byClass("note")))).To(ContainElement(ContainSubstring("Inputs and expected results are not shown")))
		Expect(all(doc, byClass("input"))).To(BeEmpty())
	})

	It("shows an infrastructure error in the banner", func() {
		es := threeImpls()
		es[1].Report.Infrastructure = "implementation failed to start: exit status 127"
		es[1].Report.InfrastructureStderr = "sh: 1: pyhton3: not found"
		es[1].Report.Level = runner.LevelNone
		doc, _ := page(mustNew(es))
		b := all(doc, byClass("banner"))[1]
		Expect(texts(all(b, byClass("infra")))).To(Equal([]string{"infrastructure error: implementation failed to start: exit status 127"}))
		Expect(texts(all(b, byTag(atom.Pre)))).To(Equal([]string{"sh: 1: pyhton3: not found"}))
	})
})
