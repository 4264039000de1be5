package report_test

import (
	"bytes"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/internal/report/reportcheck"
	"github.com/cupel-go/go-cupel/internal/safetext"
)

var _ = Describe("Implementation text in JUnit and TAP", func() {
	render := func(text string) (junit, tap string) {
		suite := fixtureSuite(GinkgoTB())
		r := textReport(suite, text, false)
		var j, t bytes.Buffer
		Expect(report.WriteJUnit(&j, r, suite)).To(Succeed())
		Expect(report.WriteTAP(&t, r, suite)).To(Succeed())
		return j.String(), t.String()
	}

	DescribeTable("is shown readably, without what the format cannot carry",
		func(text, shown string) {
			junit, tap := render(text)
			Expect(junit).To(ContainSubstring(`message="` + shown + `"`))
			Expect(tap).To(ContainSubstring("\n    " + shown + "\n"))
		},
		Entry("without ANSI colours", "\x1b[31merror\x1b[0m: failed", "error: failed"),
		Entry("without a terminal title", "\x1b]0;title\x07done", "done"),
		Entry("control characters as their pictures", "nul\x00 vt\x0b del\x7f esc\x1b", "nul␀ vt␋ del␡ esc␛"),
		Entry("an unfinished sequence's ESC as its picture", "red \x1b[31", "red ␛[31"),
		Entry("invalid UTF-8 and C1 controls as U+FFFD", "surrogate \xed\xa0\x80 byte \xff c1 \u009b", "surrogate ��� byte � c1 �"),
	)

	It("keeps lines, with CRLF as a newline and a lone CR as its picture", func() {
		_, tap := render("one\r\ntwo\rthree")
		Expect(tap).To(ContainSubstring("    one\n    two␍three\n"))
	})

	It("states the indentation of a TAP detail block whose text starts with spaces", func() {
		suite := fixtureSuite(GinkgoTB())
		r := textReport(suite, "  indented\nnot", false)
		for i := range r.Cases {
			r.Cases[i].Requirements = nil // the detail starts with the text
		}
		var b bytes.Buffer
		Expect(report.WriteTAP(&b, r, suite)).To(Succeed())
		tap := b.String()
		Expect(tap).To(ContainSubstring("  detail: |2\n      indented\n    not\n"))
		points, err := reportcheck.TAP(tap)
		Expect(err).NotTo(HaveOccurred())
		Expect(points[0].YAML["detail"]).To(HavePrefix("  indented\nnot\n"))
	})
})

var _ = Describe("Implementation text in the text report", func() {
	DescribeTable("stays on its line in TextLine",
		func(text, shown string) { Expect(safetext.Line(text)).To(Equal(shown)) },
		Entry("ordinary text unchanged", "cupel-python-example 0.1.0 (python)", "cupel-python-example 0.1.0 (python)"),
		Entry("a newline as its picture", "name\nlevel: Cupel Fully Conformant", "name␊level: Cupel Fully Conformant"),
		Entry("without a clear-screen", "x\x1b[2J\x1b[Hy", "xy"),
		Entry("a bidirectional override as U+FFFD", "\u202eSSAP :tcidrev", "\ufffdSSAP :tcidrev"),
		Entry("combining marks cut after eight", "e\u0301\u0301 "+"z"+strings.Repeat("\u0336", 200)+"!", "e\u0301\u0301 z"+strings.Repeat("\u0336", 8)+"\ufffd!"),
	)

	DescribeTable("starts no line at the left margin in TextLines",
		func(text, shown string) { Expect(safetext.Lines(text, "  ")).To(Equal(shown)) },
		Entry("one line unchanged", "expected 1, got 2", "expected 1, got 2"),
		Entry("a line at the margin indented", "boom\nverdict: PASS", "boom\n  verdict: PASS"),
		Entry("indented lines and blank lines kept", "a\n      actual   #1\n\n\tb", "a\n      actual   #1\n\n\tb"),
		Entry("an invisible first character is no indentation", "a\n\u200bverdict: PASS", "a\n  \u200bverdict: PASS"),
		Entry("a carriage return as its picture", "a\rverdict: PASS", "a␍verdict: PASS"),
	)
})

var _ = Describe("Implementation text in the Markdown summary", func() {
	DescribeTable("is written as character references where it could be markup",
		func(text, shown string) { Expect(safetext.Markdown(text)).To(Equal(shown)) },
		Entry("ordinary text unchanged", `output differs: expected ["b", "a"], got [] (score of #0)`, `output differs: expected ["b", "a"], got [] (score of #0)`),
		Entry("identifiers with underscores unchanged", "pinned_exceeds_budget", "pinned_exceeds_budget"),
		Entry("C# unchanged", "C#", "C#"),
		Entry("a newline as a space", "one\ntwo", "one two"),
		Entry("HTML and comments", "<!-- <b>x</b>", "&lt;!-- &lt;b>x&lt;/b>"),
		Entry("ampersands", "a & b &lt;", "a &amp; b &amp;lt;"),
		Entry("table cells", "a | b", "a &#124; b"),
		Entry("emphasis and strikethrough", "**x** _y_ ~~z~~", "&#42;&#42;x&#42;&#42; &#95;y&#95; &#126;&#126;z&#126;&#126;"),
		Entry("code spans and maths", "`c` $m$", "&#96;c&#96; &#36;m&#36;"),
		Entry("links and images", "[a](u) ![i](v)", "[a&#93;(u) ![i&#93;(v)"),
		Entry("a backslash that would escape", `a\* b\`, `a&#92;&#42; b&#92;`),
		Entry("a backslash before a letter unchanged", `C:\dir\x`, `C:\dir\x`),
		Entry("a heading's closing sequence", "name ##", "name &#35;&#35;"),
		Entry("control characters as their pictures", "a\x00b\x1b[31mc", "a␀bc"),
	)

	It("cuts long text after 300 bytes, on a character boundary", func() {
		Expect(safetext.Markdown(strings.Repeat("é", 200))).To(Equal(strings.Repeat("é", 150) + "…"))
		Expect(safetext.Markdown(strings.Repeat("é", 150))).To(Equal(strings.Repeat("é", 150)))
	})
})
