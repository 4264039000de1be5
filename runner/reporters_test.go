package runner_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

func failingReport() *runner.Report {
	o := newOracle()
	o.Mutate = func(c *casefile.Case, r *protocol.Result) {
		switch c.ID {
		case "required/placing/u-shaped-seven-items":
			o := r.Output.Ordered
			o[0], o[1] = o[1], o[0]
		case knapsackID:
			*r = protocol.Result{Kind: protocol.ResultUnsupported, Reason: "no guard"}
		}
	}
	return runWith(o, fixtureOptions())
}

var _ = Describe("Reporters", func() {
	It("writes a versioned JSON report that reads back", func() {
		rep := failingReport()
		var buf bytes.Buffer
		Expect(rep.WriteJSON(&buf)).To(Succeed())
		var raw map[string]any
		Expect(json.Unmarshal(buf.Bytes(), &raw)).To(Succeed())
		Expect(raw["schema"]).To(Equal(runner.ReportSchema))
		Expect(raw).To(HaveKey("runner"))
		Expect(raw).To(HaveKey("suite"))
		Expect(raw).To(HaveKey("implementation"))
		Expect(raw["level"]).To(Equal("none"))
		c0 := raw["cases"].([]any)[0].(map[string]any)
		Expect(c0).To(HaveKey("id"))
		Expect(c0).To(HaveKey("tier"))
		Expect(c0).To(HaveKey("stage"))
		Expect(c0).To(HaveKey("outcome"))
		Expect(c0).NotTo(HaveKey("status"))

		path := filepath.Join(GinkgoT().TempDir(), "r.json")
		Expect(os.WriteFile(path, buf.Bytes(), 0o644)).To(Succeed())
		back, err := report.ReadReport(path)
		Expect(err).NotTo(HaveOccurred())
		Expect(back.Cases).To(HaveLen(len(rep.Cases)))
		Expect(back.Level).To(Equal(rep.Level))
	})

	It("reads a report of schema report/1, its outcomes under their old names", func() {
		rep := failingReport()
		rep.Cases[0].Outcome = protocol.OutcomeXPass
		rep.Cases[0].ExpectedFailure = &runner.ExpectedFailure{ID: rep.Cases[0].ID, Outcome: protocol.OutcomeFail, Reason: "r"}
		rep.Recount()
		var buf bytes.Buffer
		Expect(rep.WriteJSON(&buf)).To(Succeed())
		var raw map[string]any
		Expect(json.Unmarshal(buf.Bytes(), &raw)).To(Succeed())
		raw["schema"] = "cupel-conform/report/1"
		for _, c := range raw["cases"].([]any) {
			c := c.(map[string]any)
			o := c["outcome"]
			if o == "xpass" {
				o = "unexpected-pass"
			}
			c["status"] = o
			delete(c, "outcome")
			if x, ok := c["expected_failure"].(map[string]any); ok {
				x["status"] = x["outcome"]
				delete(x, "outcome")
			}
		}
		for _, counts := range []string{"counts", "stage_counts"} {
			for _, m := range raw[counts].(map[string]any) {
				m := m.(map[string]any)
				if n, ok := m["xpass"]; ok {
					m["unexpected-pass"] = n
					delete(m, "xpass")
				}
			}
		}
		old, err := json.Marshal(raw)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(old)).To(ContainSubstring(`"unexpected-pass"`))
		path := filepath.Join(GinkgoT().TempDir(), "r1.json")
		Expect(os.WriteFile(path, old, 0o644)).To(Succeed())
		back, err := report.ReadReport(path)
		Expect(err).NotTo(HaveOccurred())
		Expect(back.Schema).To(Equal(runner.ReportSchema))
		Expect(back.Counts).To(Equal(rep.Counts))
		Expect(back.StageCounts).To(Equal(rep.StageCounts))
		for i := range rep.Cases {
			Expect(back.Cases[i].Outcome).To(Equal(rep.Cases[i].Outcome), rep.Cases[i].ID)
			Expect(back.Cases[i].ExpectedFailure).To(Equal(rep.Cases[i].ExpectedFailure), rep.Cases[i].ID)
		}
		Expect(back.Verdict()).To(Equal(rep.Verdict()))
	})

	It("writes human text with the failure's diff and inputs, and no colour unless asked", func() {
		rep := failingReport()
		var buf bytes.Buffer
		Expect(report.WriteText(&buf, rep, report.TextOptions{Suite: fixtures()})).To(Succeed())
		out := buf.String()
		Expect(out).To(ContainSubstring("FAIL required/placing/u-shaped-seven-items"))
		Expect(out).To(ContainSubstring("first difference at position 0"))
		Expect(out).To(ContainSubstring("inputs:"))
		Expect(out).To(ContainSubstring("unsupported (1 cases), by reason:"))
		Expect(out).To(ContainSubstring("(0 required; " + knapsackID + ")"))
		Expect(out).To(ContainSubstring("level: not conformant"))
		Expect(out).NotTo(ContainSubstring("\x1b["))
		buf.Reset()
		Expect(report.WriteText(&buf, rep, report.TextOptions{Color: true})).To(Succeed())
		Expect(buf.String()).To(ContainSubstring("\x1b["))
	})

	It("writes JUnit XML with failures, skips, properties and the conformance level case", func() {
		var buf bytes.Buffer
		Expect(report.WriteJUnit(&buf, failingReport(), nil)).To(Succeed())
		var doc struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
			Suites   []struct {
				Skipped int `xml:"skipped,attr"`
			} `xml:"testsuite"`
		}
		Expect(xml.Unmarshal(buf.Bytes(), &doc)).To(Succeed())
		Expect(doc.Tests).To(Equal(14), "14 cases; no target, so no conformance level")
		Expect(doc.Failures).To(Equal(2), "strict: the failing case and the optional unsupported one")
		skipped := 0
		for _, s := range doc.Suites {
			skipped += s.Skipped
		}
		Expect(skipped).To(BeZero())
		Expect(buf.String()).NotTo(ContainSubstring(`name="suite_digest"`))

		// Under --require-level conformant the optional case is a warning.
		rep := failingReport()
		rep.RequireLevel = runner.LevelConformant
		buf.Reset()
		Expect(report.WriteJUnit(&buf, rep, nil)).To(Succeed())
		doc.Suites = nil
		Expect(xml.Unmarshal(buf.Bytes(), &doc)).To(Succeed())
		Expect(doc.Tests).To(Equal(15), "14 cases and the conformance level")
		Expect(doc.Failures).To(Equal(2), "the failing required case and the conformance level")
		skipped = 0
		for _, s := range doc.Suites {
			skipped += s.Skipped
		}
		Expect(skipped).To(Equal(1), "the optional unsupported case")
		Expect(buf.String()).To(ContainSubstring(`<skipped message="optional case, not required for Cupel Conformant: unsupported`))
		Expect(buf.String()).To(ContainSubstring(`name="suite_digest"`))
	})

	It("writes TAP with a plan and a line per case", func() {
		var buf bytes.Buffer
		Expect(report.WriteTAP(&buf, failingReport(), nil)).To(Succeed())
		out := buf.String()
		Expect(out).To(HavePrefix("TAP version 14\n1..14\n"))
		Expect(out).NotTo(ContainSubstring("conformance level"))
		Expect(strings.Count(out, "\nok ")).To(Equal(12), "12 passes")
		Expect(strings.Count(out, "\nnot ok ")).To(Equal(2), "strict: the failure and the optional unsupported case")

		rep := failingReport()
		rep.RequireLevel = runner.LevelConformant
		buf.Reset()
		Expect(report.WriteTAP(&buf, rep, nil)).To(Succeed())
		out = buf.String()
		Expect(out).To(HavePrefix("TAP version 14\n1..15\n"))
		Expect(out).To(ContainSubstring("\nnot ok 15 - conformance level\n"))
		Expect(out).To(MatchRegexp(`\nnot ok \d+ - optional/\S+ # TODO optional case, not required for Cupel Conformant: unsupported`))
	})

	It("writes a Markdown summary and a shields.io badge", func() {
		var buf bytes.Buffer
		rep := failingReport()
		Expect(report.WriteMarkdown(&buf, rep)).To(Succeed())
		Expect(buf.String()).To(ContainSubstring("| tier | stage | pass | fail | unsupported |"))
		Expect(buf.String()).To(ContainSubstring("| required | placing | 0 | 1 | 0 |"))
		Expect(buf.String()).To(ContainSubstring("### Gated results"))
		Expect(buf.String()).To(HaveSuffix("\nverdict: FAIL — 2 gated (1 fail, 1 unsupported)\n"))
		Expect(report.NewBadge(rep)).To(Equal(report.Badge{SchemaVersion: 1, Label: "cupel 1.3", Message: "7/8 required", Color: "red"}))
		full := runWith(newOracle(), fixtureOptions())
		Expect(report.NewBadge(full).Message).To(Equal("fully conformant"))
	})

	It("diffs two reports", func() {
		good := runWith(newOracle(), fixtureOptions())
		bad := failingReport()
		d := report.Diff(good, bad)
		Expect(d.NewlyFailing).To(ConsistOf(
			report.OutcomeChange{ID: "required/placing/u-shaped-seven-items", Old: protocol.OutcomePass, New: protocol.OutcomeFail},
			report.OutcomeChange{ID: knapsackID, Old: protocol.OutcomePass, New: protocol.OutcomeUnsupported}))
		back := report.Diff(bad, good)
		Expect(back.NewlyPassing).To(HaveLen(2))
		var buf bytes.Buffer
		Expect(report.WriteDiff(&buf, d, 0)).To(Succeed())
		Expect(buf.String()).To(ContainSubstring("newly failing (2)"))
		buf.Reset()
		Expect(report.WriteDiff(&buf, d, 1)).To(Succeed())
		Expect(buf.String()).To(ContainSubstring("newly failing (2):\n  "))
		Expect(buf.String()).To(ContainSubstring("\n  … and 1 more (--max-failures)\n"))
	})

	It("does not count an xfail that is now unpinned, or pinned again, as a change when the cause is the same", func() {
		bad := failingReport()
		x := runner.ExpectedFailure{ID: knapsackID, Outcome: protocol.OutcomeUnsupported, Reason: "no knapsack yet"}
		pinned := failingReport()
		Expect(pinned.Cases).To(ContainElement(HaveField("ID", knapsackID)))
		for i := range pinned.Cases {
			if c := &pinned.Cases[i]; c.ID == knapsackID {
				c.Outcome, c.ExpectedFailure, c.Message = protocol.OutcomeXFail, &x, "expected unsupported (no knapsack yet): "+c.Message
			}
		}
		Expect(report.Diff(bad, pinned)).To(HaveField("Changed", BeEmpty()))
		Expect(report.Diff(pinned, bad)).To(HaveField("Changed", BeEmpty()))
		// Another cause is a change.
		for i := range pinned.Cases {
			if c := &pinned.Cases[i]; c.ID == knapsackID {
				c.Message = "expected unsupported (no knapsack yet): something else"
			}
		}
		Expect(report.Diff(bad, pinned).Changed).To(ConsistOf(report.OutcomeChange{ID: knapsackID, Old: protocol.OutcomeUnsupported, New: protocol.OutcomeXFail}))
	})
})
