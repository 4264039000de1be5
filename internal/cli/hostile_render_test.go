package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/hostile"
	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/internal/report/reportcheck"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// The render variants of internal/hostile send text meant to fool the
// reader of a report. cupel-conform runs each over the fixture suite with
// every report, and each report must still end with the real verdict (a
// FAIL: each variant answers a required case unsupported, or crashes on
// it), shown as the runner's own lines, with nothing of the
// implementation's text obeyed rather than shown.
var _ = Describe("Reports of implementations whose text is hostile to their readers", Ordered, ContinueOnFailure, func() {
	var adapter, suite string
	BeforeAll(func() {
		dir := GinkgoT().TempDir()
		adapter = filepath.Join(dir, "hostileadapter")
		out, err := exec.Command("go", "build", "-o", adapter, "../hostile/hostileadapter").CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
		suite, err = filepath.Abs("../../runner/testdata/suite")
		Expect(err).NotTo(HaveOccurred())
	})

	var variants []string
	for _, v := range hostile.Variants() {
		if strings.HasPrefix(v, "render-") {
			variants = append(variants, v)
		}
	}
	It("has variants to run", func() { Expect(len(variants)).To(BeNumerically(">=", 6)) })

	for _, variant := range variants {
		It("keeps the real verdict last and visible: "+variant, func() {
			dir := GinkgoT().TempDir()
			out := func(name string) string { return filepath.Join(dir, name) }
			var stdout, stderr bytes.Buffer
			code := Main([]string{"run", "--suite", suite, "--max-failures", "0", "--color", "never",
				"--impl-cmd", "HOSTILE=" + variant + " HOSTILE_SUITE='" + suite + "' exec '" + adapter + "'",
				"--json", out("r.json"), "--junit", out("r.xml"), "--tap", out("r.tap"), "--markdown", out("r.md"), "--html", out("r.html")},
				strings.NewReader(""), &stdout, &stderr)
			Expect(code).To(Equal(exitFail), "stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())

			rep, err := report.ReadReport(out("r.json"))
			Expect(err).NotTo(HaveOccurred())
			v := rep.Verdict()
			Expect(v.Passed).To(BeFalse())
			Expect(v.Line()).To(HavePrefix("verdict: FAIL — "))
			hostileText := rep.Implementation.Name + rep.Implementation.Version + rep.Implementation.Language
			for _, c := range rep.Cases {
				hostileText += c.Message + c.Stderr + strings.Join(c.Details, "")
			}
			if variant == "render-stderr" {
				// Its text is on stderr, which the runner reads as it can: the
				// crash is certain, the tail is not.
				Expect(rep.Counts["all"]).To(HaveKey(protocol.OutcomeCrash))
			} else {
				Expect(hostileText).To(Or(ContainSubstring("verdict: PASS"), ContainSubstring("SSAP :tcidrev")),
					"the variant sent no fake verdict that reached the report")
			}

			// The text report: the same checks as FuzzImplementationText's,
			// against the same report with neutral implementation text.
			neutral := neutralReport(rep)
			var want bytes.Buffer
			Expect(report.WriteText(&want, neutral, report.TextOptions{MaxFailures: 0})).To(Succeed())
			Expect(reportcheck.Text(stdout.String(), want.String())).To(Succeed(), stdout.String())
			Expect(stdout.String()).To(HaveSuffix("\n" + v.Line() + "\n"))

			md, err := os.ReadFile(out("r.md"))
			Expect(err).NotTo(HaveOccurred())
			want.Reset()
			Expect(report.WriteMarkdown(&want, neutral)).To(Succeed())
			Expect(reportcheck.Markdown(string(md), want.String())).To(Succeed(), string(md))
			Expect(string(md)).To(HaveSuffix("\n" + v.Line() + "\n"))
			Expect(string(md)).To(ContainSubstring("\n**" + v.LevelText))

			junit, err := os.ReadFile(out("r.xml"))
			Expect(err).NotTo(HaveOccurred())
			_, err = reportcheck.JUnit(junit)
			Expect(err).NotTo(HaveOccurred(), string(junit))
			tap, err := os.ReadFile(out("r.tap"))
			Expect(err).NotTo(HaveOccurred())
			_, err = reportcheck.TAP(string(tap))
			Expect(err).NotTo(HaveOccurred(), string(tap))
			Expect(string(tap)).NotTo(ContainSubstring("\x1b"))
			page, err := os.ReadFile(out("r.html"))
			Expect(err).NotTo(HaveOccurred())
			sk, err := reportcheck.Skeleton(page)
			Expect(err).NotTo(HaveOccurred())
			for _, e := range sk {
				tag, _, _ := strings.Cut(e, " ")
				Expect(tag).NotTo(Equal("img"), "an element of the implementation's text in the HTML page")
				Expect(e).NotTo(ContainSubstring("onerror"), "an attribute of the implementation's text in the HTML page")
			}
			Expect(string(page)).NotTo(ContainSubstring("<script>alert("))

			// The comparison's text and Markdown (cupel-conform report) of
			// the JSON report, against those of the neutral report.
			nb, err := json.Marshal(neutral)
			Expect(err).NotTo(HaveOccurred())
			Expect(os.WriteFile(out("n.json"), nb, 0o644)).To(Succeed())
			matrixOf := func(json string) (text, md string) {
				var stdout, stderr bytes.Buffer
				code := Main([]string{"report", "--markdown", out("m.md"), json}, strings.NewReader(""), &stdout, &stderr)
				Expect(code).To(Equal(0), stderr.String())
				b, err := os.ReadFile(out("m.md"))
				Expect(err).NotTo(HaveOccurred())
				return stdout.String(), string(b)
			}
			text, md2 := matrixOf(out("r.json"))
			ntext, nmd := matrixOf(out("n.json"))
			Expect(reportcheck.Unseen(text)).To(Succeed(), text)
			Expect(strings.Count(text, "\n")).To(Equal(strings.Count(ntext, "\n")), text)
			Expect(text).To(HaveSuffix(": " + v.Line() + "\n"))
			Expect(reportcheck.MarkdownMarkup(md2, nmd)).To(Succeed(), md2)
		})
	}
})

// neutralReport is rep with every text the implementation sent replaced
// by a letter and a number (empty text kept empty, the same text by the
// same token): the report whose lines the hostile one's must match.
func neutralReport(rep *runner.Report) *runner.Report {
	b, err := json.Marshal(rep)
	Expect(err).NotTo(HaveOccurred())
	var n runner.Report
	Expect(json.Unmarshal(b, &n)).To(Succeed())
	tokens := map[string]string{}
	x := func(s *string) {
		if *s == "" {
			return
		}
		if tokens[*s] == "" {
			tokens[*s] = fmt.Sprintf("x%d", len(tokens)) // distinct texts stay distinct: reasons are grouped
		}
		*s = tokens[*s]
	}
	x(&n.Implementation.Name)
	x(&n.Implementation.Version)
	x(&n.Implementation.Language)
	x(&n.Infrastructure)
	x(&n.InfrastructureStderr)
	for i := range n.Cases {
		c := &n.Cases[i]
		x(&c.Message)
		x(&c.Stderr)
		for j := range c.Details {
			x(&c.Details[j])
		}
		c.Actual = nil
	}
	return &n
}
