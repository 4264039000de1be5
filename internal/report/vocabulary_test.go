package report_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"regexp"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/matrix"
	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// everyOutcome is a run with one case of each outcome, all in the
// required tier, strict: each case's id is "required/scoring/case-" and
// its outcome.
func everyOutcome() *runner.Report {
	r := &runner.Report{Schema: runner.ReportSchema, Runner: protocol.RunnerIdentity{Name: "cupel-conform", Version: "devel"},
		Suite:          runner.SuiteIdentity{Source: "fixture", SpecVersion: "1.3", Digest: strings.Repeat("ab", 32), Cases: len(runner.Outcomes)},
		Implementation: protocol.Identity{Name: "every-outcome", Version: "1", Language: "go"}}
	for _, o := range runner.Outcomes {
		c := runner.CaseResult{ID: caseOf(o), Tier: casefile.TierRequired, Stage: casefile.StageScoring, Outcome: o}
		switch o {
		case protocol.OutcomePass:
		case protocol.OutcomeXFail, protocol.OutcomeXPass:
			c.ExpectedFailure = &runner.ExpectedFailure{ID: c.ID, Outcome: protocol.OutcomeFail, Reason: "known"}
			c.Message = "said by the runner of an " + string(o)
		default:
			c.Message = "said by the runner of a " + string(o)
		}
		r.Cases = append(r.Cases, c)
	}
	r.Recount()
	return r
}

func caseOf(o runner.Outcome) string { return "required/scoring/case-" + string(o) }

// retired are the words docs/vocabulary.md retired: no surface may say
// them.
var retired = regexp.MustCompile(`(?i)unexpected[- ]pass|\bpinned\b|\bpins?\b|expectations|\bstatus\b|not run \(`)

var _ = Describe("The words of every surface", func() {
	r := everyOutcome()
	v := r.Verdict()
	gated := func(o runner.Outcome) bool {
		cl, _ := v.ClassOf(caseOf(o))
		return cl == runner.ClassGated
	}
	render := func(write func(*bytes.Buffer) error) string {
		GinkgoHelper()
		var b bytes.Buffer
		Expect(write(&b)).To(Succeed())
		Expect(retired.FindAllString(b.String(), -1)).To(BeEmpty(), "a retired word")
		return b.String()
	}

	It("has a case of each of the ten outcomes, gated as docs/verdicts.md says", func() {
		Expect(runner.Outcomes).To(HaveLen(10))
		for _, o := range runner.Outcomes {
			Expect(v.Counts).To(HaveKeyWithValue(o, 1))
			want := !slices.Contains([]runner.Outcome{protocol.OutcomePass, protocol.OutcomeXFail, protocol.OutcomeSkip, protocol.OutcomeNotRun}, o)
			Expect(gated(o)).To(Equal(want), string(o))
		}
	})

	It("JSON: each case's outcome, the counts and the verdict use the outcome words", func() {
		var doc struct {
			Counts  map[string]map[string]int `json:"counts"`
			Cases   []map[string]any          `json:"cases"`
			Verdict struct {
				Counts map[string]int `json:"counts"`
				Cases  []struct {
					ID, Outcome, Class string
				} `json:"cases"`
			} `json:"verdict"`
		}
		Expect(json.Unmarshal([]byte(render(func(b *bytes.Buffer) error { return r.WriteJSON(b) })), &doc)).To(Succeed())
		for i, o := range runner.Outcomes {
			Expect(doc.Cases[i]).To(HaveKeyWithValue("outcome", string(o)))
			Expect(doc.Counts["all"]).To(HaveKeyWithValue(string(o), 1))
			Expect(doc.Verdict.Counts).To(HaveKeyWithValue(string(o), 1))
			Expect(doc.Verdict.Cases[i].Outcome).To(Equal(string(o)))
			Expect(doc.Verdict.Cases[i].Class).To(BeElementOf("gated", "warning", "ok"))
		}
	})

	It("text: the gated list, the failures and the counts use the outcome words", func() {
		out := render(func(b *bytes.Buffer) error { return report.WriteText(b, r, report.TextOptions{}) })
		for _, o := range runner.Outcomes {
			Expect(out).To(ContainSubstring(" 1 "+string(o)), "the counts")
			if gated(o) {
				Expect(out).To(MatchRegexp(`(?m)^  `+regexp.QuoteMeta(string(o))+` +`+regexp.QuoteMeta(caseOf(o))+`$`), "the gated list")
			}
		}
	})

	It("JUnit: a gated case's type, and a skipped case's text, is its outcome", func() {
		var doc struct {
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Type string `xml:"type,attr"`
				} `xml:"failure"`
				Error *struct {
					Type string `xml:"type,attr"`
				} `xml:"error"`
				Skipped *struct {
					Text string `xml:",chardata"`
				} `xml:"skipped"`
			} `xml:"testsuite>testcase"`
		}
		Expect(xml.Unmarshal([]byte(render(func(b *bytes.Buffer) error { return report.WriteJUnit(b, r, nil) })), &doc)).To(Succeed())
		Expect(doc.Cases).To(HaveLen(len(runner.Outcomes)))
		for i, o := range runner.Outcomes {
			c := doc.Cases[i]
			Expect(c.Name).To(Equal(caseOf(o)))
			switch {
			case c.Failure != nil:
				Expect(c.Failure.Type).To(Equal(string(o)))
			case c.Error != nil:
				Expect(c.Error.Type).To(Equal(string(o)))
			case c.Skipped != nil:
				Expect(c.Skipped.Text).To(HavePrefix(string(o)+": "), c.Name)
			default:
				Expect(o).To(Equal(protocol.OutcomePass))
			}
			Expect(c.Failure != nil || c.Error != nil).To(Equal(gated(o)), c.Name)
		}
	})

	It("TAP: a gated case's YAML, and a directive, names its outcome", func() {
		out := render(func(b *bytes.Buffer) error { return report.WriteTAP(b, r, nil) })
		for _, o := range runner.Outcomes {
			if gated(o) {
				Expect(out).To(MatchRegexp(`(?m)^not ok \d+ - ` + regexp.QuoteMeta(caseOf(o)) + `\n  ---\n  outcome: ` + regexp.QuoteMeta(string(o)) + `\n`))
			} else if o != protocol.OutcomePass {
				Expect(out).To(MatchRegexp(`(?m)^(not )?ok \d+ - ` + regexp.QuoteMeta(caseOf(o)) + ` # (SKIP|TODO) ` + regexp.QuoteMeta(string(o)) + `: `))
			}
		}
	})

	It("go test -json: each case's output line starts with its outcome", func() {
		out := render(func(b *bytes.Buffer) error { return report.WriteTest2JSON(b, r, nil) })
		said := map[string]string{}
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			var e report.TestEvent
			Expect(json.Unmarshal([]byte(l), &e)).To(Succeed())
			if e.Action == "output" && strings.HasPrefix(e.Output, "    ") {
				said[e.Test] = strings.TrimSpace(e.Output)
			}
		}
		for _, o := range runner.Outcomes {
			if o != protocol.OutcomePass && o != protocol.OutcomeSkip { // a filtered-out case is no test
				Expect(said[caseOf(o)]).To(HavePrefix(string(o)+": "), caseOf(o))
			}
		}
	})

	It("Markdown: the table's columns and the gated rows use the outcome words", func() {
		out := render(func(b *bytes.Buffer) error { return report.WriteMarkdown(b, r) })
		for _, o := range runner.Outcomes {
			if o == protocol.OutcomeSkip {
				continue // a filtered run's Markdown leaves its skipped cases out
			}
			Expect(out).To(ContainSubstring(" "+string(o)+" |"), "the table's column")
			if gated(o) && o != protocol.OutcomeUnsupported { // unsupported cases are listed by reason
				Expect(out).To(ContainSubstring("| `" + caseOf(o) + "` | " + string(o) + " |"))
			}
		}
	})

	It("the matrix: text, Markdown and HTML use the outcome words", func() {
		m, err := matrix.New([]runner.NamedReport{{Name: "every", Report: r}}, matrix.Options{})
		Expect(err).NotTo(HaveOccurred())
		text := render(func(b *bytes.Buffer) error { return matrix.WriteText(b, m, matrix.TextOptions{}) })
		md := render(func(b *bytes.Buffer) error { return matrix.WriteMarkdown(b, m) })
		page := render(func(b *bytes.Buffer) error { return matrix.WriteHTML(b, m, matrix.HTMLOptions{}) })
		for _, o := range runner.Outcomes {
			if o != protocol.OutcomePass {
				Expect(text).To(ContainSubstring("1 "+string(o)), "the matrix text")
				Expect(md).To(ContainSubstring("1 "+string(o)), "the matrix Markdown")
			}
			Expect(page).To(ContainSubstring(`<option value="`+string(o)+`">`+string(o)+`</option>`), "the HTML filter")
			Expect(page).To(ContainSubstring(`class="chip s-`+string(o)+`" title="every: `+string(o)), "the HTML chip")
			Expect(page).To(MatchRegexp(`\.s-`+regexp.QuoteMeta(string(o))+`\b[^{]*\{`), "the HTML style of the outcome")
		}
	})
})
