package report_test

import (
	"bytes"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/internal/testimpl"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/protocol"
	"github.com/cupel-go/go-cupel/runner/vector"
)

// junitMessage is the message attribute of a <skipped> or <failure>.
var junitMessage = regexp.MustCompile(`<(?:skipped|failure) message="([^"]*)"`)

var _ = Describe("The wording of the reports", func() {
	It("says a pin's reason once in JUnit and TAP", func() {
		first, _ := fixtureRun(testimpl.Partial, runner.Options{})
		pins := runner.ExpectationsFromReport(first, nil)
		Expect(pins.Entries).NotTo(BeEmpty())
		rep, suite := fixtureRun(testimpl.Partial, runner.Options{Expectations: pins, RequireLevel: runner.LevelConformant})
		_, junit := junitOf(rep, suite)
		tap := tapOf(rep, suite)
		n := 0
		for _, c := range rep.Cases {
			if c.Status != protocol.StatusXFail || c.Expected == nil || c.Expected.Reason == "" {
				continue
			}
			n++
			reason := c.Expected.Reason
			Expect(strings.Count(c.Message, reason)).To(Equal(1), "%s: %q", c.ID, c.Message)
			for _, l := range strings.Split(tap, "\n") {
				if strings.Contains(l, " - "+c.ID+" ") {
					Expect(strings.Count(l, reason)).To(Equal(1), "TAP: %s", l)
				}
			}
			for _, m := range junitMessage.FindAllStringSubmatch(junit, -1) {
				Expect(strings.Count(m[1], reason)).To(BeNumerically("<=", 1), "JUnit: %s", m[0])
			}
		}
		Expect(n).To(BeNumerically(">", 0), "no xfail with a reason")
		Expect(junit).To(ContainSubstring(`message="optional case failed (pinned), not required for Cupel Conformant: xfail: expected unsupported: `))
	})

	It("does not repeat itself in a filtered run's Markdown", func() {
		rep, _ := fixtureRun(testimpl.FailingRequired, runner.Options{Stages: []string{vector.StageScoring}})
		Expect(rep.Filtered).To(BeTrue())
		var b bytes.Buffer
		Expect(report.WriteMarkdown(&b, rep)).To(Succeed())
		md := b.String()
		Expect(strings.Count(md, "filtered run")).To(Equal(1), md)
		Expect(md).To(ContainSubstring("| required | scoring |"))
		for _, st := range []string{vector.StageSlicing, vector.StagePlacing, vector.StagePipeline} {
			Expect(md).NotTo(ContainSubstring("| "+st+" |"), "a row of filtered-out cases")
		}
	})
})
