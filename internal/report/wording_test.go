package report_test

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/fakeimpl"
	"github.com/cupel-go/go-cupel/internal/oracleimpl"
	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// junitMessage is the message attribute of a <skipped> or <failure>.
var junitMessage = regexp.MustCompile(`<(?:skipped|failure) message="([^"]*)"`)

var _ = Describe("The wording of the reports", func() {
	// failed is the result of case id of the embedded suite, its correct
	// answer broken by fakeimpl.Break, with the suite.
	failed := func(id string) (runner.CaseResult, *casefile.Suite) {
		suite, err := casefile.LoadSuite(nil)
		Expect(err).NotTo(HaveOccurred())
		c := suite.Case(id)
		Expect(c).NotTo(BeNil(), id)
		r := oracleimpl.Answer(c)
		fakeimpl.Break(&r)
		v := runner.Compare(c, r)
		Expect(v.Outcome).To(Equal(protocol.OutcomeFail))
		return runner.CaseResult{ID: c.ID, Tier: c.Tier, Stage: c.Stage, Outcome: v.Outcome, Message: v.Message, Details: v.Details}, suite
	}

	It("lists a failure's problems once, without the count of the one-line message, up to the text report's cap", func() {
		c, suite := failed("required/scoring/recency-basic") // three scores, each off
		Expect(c.Message).To(HaveSuffix("(and 2 more problems)"))
		d := report.FailureDetail(c, suite)
		Expect(d).NotTo(ContainSubstring("more problem"))
		for _, p := range c.Details {
			Expect(strings.Count(d, p)).To(Equal(1), p)
		}

		c, suite = failed("required/scoring/recency-many-items") // 302 scores
		Expect(c.Details).To(HaveLen(302))
		d = report.FailureDetail(c, suite)
		lines := strings.Split(d, "\n")
		Expect(lines[0]).To(Equal(c.Details[0]))
		Expect(lines[report.DefaultMaxFailures-1]).To(Equal(c.Details[report.DefaultMaxFailures-1]))
		Expect(lines[report.DefaultMaxFailures]).To(Equal(fmt.Sprintf("… and %d more problems (see the JSON report)", 302-report.DefaultMaxFailures)))
		Expect(strings.Count(d, "score of #")).To(Equal(report.DefaultMaxFailures))
		var txt bytes.Buffer
		Expect(report.WriteText(&txt, &runner.Report{Cases: []runner.CaseResult{c}}, report.TextOptions{Suite: suite})).To(Succeed())
		Expect(strings.Count(txt.String(), "score of #")).To(Equal(report.DefaultMaxFailures), "the text report shows what FailureDetail does")
	})

	It("says a pin's reason once in JUnit and TAP", func() {
		first, _ := fixtureRun(fakeimpl.Partial, runner.Options{})
		pins := runner.ExpectedFailuresFromReport(first, nil)
		Expect(pins.Entries).NotTo(BeEmpty())
		rep, suite := fixtureRun(fakeimpl.Partial, runner.Options{ExpectedFailures: pins, RequireLevel: runner.LevelConformant})
		_, junit := junitOf(rep, suite)
		tap := tapOf(rep, suite)
		n := 0
		for _, c := range rep.Cases {
			if c.Outcome != protocol.OutcomeXFail || c.ExpectedFailure == nil || c.ExpectedFailure.Reason == "" {
				continue
			}
			n++
			reason := c.ExpectedFailure.Reason
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
		Expect(junit).To(ContainSubstring(`message="optional case, not required for Cupel Conformant: xfail: expected unsupported: `))
	})

	It("does not repeat itself in a filtered run's Markdown", func() {
		rep, _ := fixtureRun(fakeimpl.FailingRequired, runner.Options{Stages: []string{casefile.StageScoring}})
		Expect(rep.Filtered).To(BeTrue())
		var b bytes.Buffer
		Expect(report.WriteMarkdown(&b, rep)).To(Succeed())
		md := b.String()
		Expect(strings.Count(md, "filtered run")).To(Equal(1), md)
		Expect(md).To(ContainSubstring("| required | scoring |"))
		for _, st := range []string{casefile.StageSlicing, casefile.StagePlacing, casefile.StagePipeline} {
			Expect(md).NotTo(ContainSubstring("| "+st+" |"), "a row of filtered-out cases")
		}
	})
})
