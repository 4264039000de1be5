package report_test

import (
	"bytes"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/internal/report/reportcheck"
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
		_, tap := render("  indented\nnot")
		Expect(tap).To(ContainSubstring("  detail: |2\n      indented\n    not\n"))
		points, err := reportcheck.TAP(tap)
		Expect(err).NotTo(HaveOccurred())
		Expect(points[0].YAML["detail"]).To(HavePrefix("  indented\nnot\n"))
	})
})
