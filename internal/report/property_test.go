package report_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/cli"
	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/internal/testtool"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// junitModel is what a JUnit consumer reads: per test case, a failure, an
// error or a skip.
type junitModel struct {
	Suites []struct {
		Name  string `xml:"name,attr"`
		Cases []struct {
			Name    string    `xml:"name,attr"`
			Failure *struct{} `xml:"failure"`
			Error   *struct{} `xml:"error"`
			Skipped *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// tapPoint is one TAP 14 test point as a consumer reads it.
type tapPoint struct {
	ok        bool
	desc      string
	directive string // "TODO", "SKIP" or ""
}

var tapLine = regexp.MustCompile(`^(not ok|ok) (\d+)(?: - )?(.*)$`)

// parseTAP is a minimal TAP 14 reader: the plan, the test points and
// their directives (a # not escaped by a backslash starts one), skipping
// YAML blocks and comments. It fails the spec on a malformed document.
func parseTAP(s string) []tapPoint {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	Expect(lines[0]).To(Equal("TAP version 14"))
	var plan int
	_, err := fmt.Sscanf(lines[1], "1..%d", &plan)
	Expect(err).NotTo(HaveOccurred(), lines[1])
	var pts []tapPoint
	inYAML := false
	for _, l := range lines[2:] {
		switch {
		case inYAML:
			inYAML = l != "  ..."
			continue
		case l == "  ---":
			inYAML = true
			continue
		case strings.HasPrefix(l, "#"):
			continue
		}
		m := tapLine.FindStringSubmatch(l)
		Expect(m).NotTo(BeNil(), "not a TAP line: %q", l)
		Expect(m[2]).To(Equal(fmt.Sprint(len(pts) + 1)))
		p := tapPoint{ok: m[1] == "ok", desc: m[3]}
		for i := 0; i < len(m[3]); i++ {
			if m[3][i] == '\\' {
				i++
				continue
			}
			if m[3][i] == '#' {
				p.desc = strings.TrimSpace(m[3][:i])
				d := strings.Fields(m[3][i+1:])
				if len(d) > 0 {
					p.directive = strings.ToUpper(d[0])
				}
				break
			}
		}
		pts = append(pts, p)
	}
	Expect(pts).To(HaveLen(plan))
	return pts
}

// lastLine is the last line of s.
func lastLine(s string) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return l[len(l)-1]
}

// randomReport is a report of random outcomes in random tiers, with a
// random target (none for a filtered run, which accepts none).
func randomReport(rnd *rand.Rand) *runner.Report {
	statuses := []protocol.Outcome{protocol.OutcomePass, protocol.OutcomeFail, protocol.OutcomeError, protocol.OutcomeCrash,
		protocol.OutcomeTimeout, protocol.OutcomeUnsupported, protocol.OutcomeXFail, protocol.OutcomeXPass, protocol.OutcomeSkip}
	r := &runner.Report{Schema: runner.ReportSchema, Runner: protocol.RunnerIdentity{Name: "cupel-conform", Version: "test"},
		Suite: runner.SuiteIdentity{Source: "random", SpecVersion: "1.3"}, Implementation: protocol.Identity{Name: "random"}}
	n := 1 + rnd.IntN(10)
	for i := range n {
		tier := casefile.Tiers[rnd.IntN(2)]
		st := statuses[rnd.IntN(len(statuses))]
		if rnd.IntN(3) == 0 {
			st = protocol.OutcomePass
		}
		c := runner.CaseResult{ID: fmt.Sprintf("%s/scoring/c%d", tier, i), Tier: tier, Stage: casefile.StageScoring,
			Outcome: st, Message: "m#" + string(st)}
		if st == protocol.OutcomeXFail || st == protocol.OutcomeXPass {
			c.ExpectedFailure = &runner.ExpectedFailure{ID: c.ID, Outcome: protocol.OutcomeFail, Reason: "pinned"}
		}
		r.Cases = append(r.Cases, c)
	}
	r.Recount()
	if !r.Filtered {
		r.RequireLevel = []runner.Level{"", runner.LevelConformant, runner.LevelFullyConformant}[rnd.IntN(3)]
	}
	return r
}

var _ = Describe("Every surface renders the one verdict", func() {
	It("agrees with Report.Verdict on random outcomes × targets × expectations", func() {
		rnd := rand.New(rand.NewPCG(23, 42))
		seen := map[string]bool{}
		// Fewer under -race: the renderers run in one goroutine.
		for range testtool.Iterations(600, 150) {
			r := randomReport(rnd)
			v := r.Verdict()
			seen[fmt.Sprintf("%v/%s/%v", v.Passed, v.Target, v.Warnings > 0)] = true
			what := fmt.Sprintf("%s\n%+v", v.Line(), r.Cases)

			// The exit code and Err.
			Expect(cli.ExitCode(r) == 0).To(Equal(v.Passed), what)
			Expect(r.Err() == nil).To(Equal(v.Passed), what)

			// JSON: the verdict object.
			var js bytes.Buffer
			Expect(r.WriteJSON(&js)).To(Succeed())
			var doc struct {
				Verdict struct {
					Passed   bool `json:"passed"`
					Warnings int  `json:"warnings"`
				} `json:"verdict"`
			}
			Expect(json.Unmarshal(js.Bytes(), &doc)).To(Succeed())
			Expect(doc.Verdict.Passed).To(Equal(v.Passed), what)
			Expect(doc.Verdict.Warnings).To(Equal(v.Warnings), what)

			// JUnit, read as a consumer reads it.
			var jb bytes.Buffer
			Expect(report.WriteJUnit(&jb, r, nil)).To(Succeed())
			var ju junitModel
			Expect(xml.Unmarshal(jb.Bytes(), &ju)).To(Succeed())
			failing, warnings, levelCase, levelFailed := 0, 0, false, false
			for _, s := range ju.Suites {
				for _, c := range s.Cases {
					bad := c.Failure != nil || c.Error != nil
					if c.Name == report.LevelTestName {
						levelCase, levelFailed = true, bad
						continue
					}
					if bad {
						failing++
					}
					if c.Skipped != nil && strings.Contains(c.Skipped.Message, "not required for") {
						warnings++
					}
				}
			}
			Expect(failing).To(Equal(v.Gated), what)
			Expect(warnings).To(Equal(v.Warnings), what)
			Expect(levelCase).To(Equal(v.Target != ""), what)
			Expect(failing == 0 && !levelFailed).To(Equal(v.Passed), what)

			// TAP, read by a TAP 14 parser.
			var tb bytes.Buffer
			Expect(report.WriteTAP(&tb, r, nil)).To(Succeed())
			pts := parseTAP(tb.String())
			tapFailing, todo, tapLevel := 0, 0, false
			for _, p := range pts {
				if p.desc == report.LevelTestName {
					tapLevel = true
				}
				if !p.ok && p.directive == "" {
					tapFailing++
				}
				if !p.ok && p.directive == "TODO" {
					todo++
				}
			}
			Expect(tapLevel).To(Equal(v.Target != ""), what)
			Expect(tapFailing == 0).To(Equal(v.Passed), what)
			Expect(todo).To(Equal(v.Warnings+v.Counts[protocol.OutcomeXFail]*boolInt(v.Target == "")), what)

			// Text and Markdown, by their last line.
			var text, md bytes.Buffer
			Expect(report.WriteText(&text, r, report.TextOptions{})).To(Succeed())
			Expect(report.WriteMarkdown(&md, r)).To(Succeed())
			for _, out := range []string{text.String(), md.String()} {
				Expect(lastLine(out)).To(Equal(v.Line()), what)
				Expect(strings.HasPrefix(lastLine(out), "verdict: PASS — ")).To(Equal(v.Passed), what)
			}
			if v.Warnings > 0 {
				Expect(v.Line()).To(MatchRegexp(fmt.Sprintf("; %d warnings? \\(", v.Warnings)))
			}

			// The badge: green exactly at Cupel Conformant or better.
			b := report.NewBadge(r)
			Expect(b.Color == "green" || b.Color == "brightgreen").To(Equal(v.Level.AtLeast(runner.LevelConformant)), what)
		}
		// The generator reached every kind of verdict.
		for _, k := range []string{"true//false", "false//false", "true/conformant/true", "false/conformant/true",
			"true/fully-conformant/false", "false/fully-conformant/false", "false/conformant/false"} {
			Expect(seen).To(HaveKey(k))
		}
	})
})

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
