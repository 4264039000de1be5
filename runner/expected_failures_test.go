package runner_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

const knapsackID = "optional/slicing/knapsack-table-too-large"

func expectedFailures(src string) *runner.ExpectedFailures {
	GinkgoHelper()
	x, err := runner.ParseExpectedFailures("x.toml", []byte(src))
	Expect(err).NotTo(HaveOccurred())
	return x
}

var _ = Describe("Expected failures", func() {
	pinned := `
[[expected_failure]]
id = "` + knapsackID + `"
outcome = "fail"
reason = "no table guard yet"
issue = "https://example.com/1"
`
	It("turns a pinned failure into xfail, which keeps the exit code at 0 but claims no level", func() {
		o := newOracle()
		o.Mutate = breakCase(knapsackID)
		opts := fixtureOptions()
		opts.ExpectedFailures = expectedFailures(pinned)
		rep := runWith(o, opts)
		Expect(statusOf(rep, knapsackID)).To(Equal(protocol.OutcomeXFail))
		Expect(rep.Err()).To(Succeed())
		Expect(rep.Level).To(Equal(runner.LevelConformant), "an expected failure is not a pass")
	})

	It("is strict: an expected failure that passes is an xpass and fails the run", func() {
		opts := fixtureOptions()
		opts.ExpectedFailures = expectedFailures(pinned)
		rep := runWith(newOracle(), opts)
		Expect(statusOf(rep, knapsackID)).To(Equal(protocol.OutcomeXPass))
		Expect(rep.Err()).To(MatchError(runner.ErrFailed))
		rep.RequireLevel = runner.LevelConformant
		Expect(rep.Err()).To(MatchError(runner.ErrFailed))
	})

	It("pins the failure kind: another kind of failure stays unexpected", func() {
		o := newOracle()
		o.Mutate = func(c *casefile.Case, r *protocol.Result) {
			if c.ID == knapsackID {
				*r = protocol.Result{Kind: protocol.ResultUnsupported}
			}
		}
		opts := fixtureOptions()
		opts.ExpectedFailures = expectedFailures(pinned)
		rep := runWith(o, opts)
		Expect(statusOf(rep, knapsackID)).To(Equal(protocol.OutcomeUnsupported))
		Expect(rep.Err()).To(MatchError(runner.ErrFailed))
	})

	It("reads status as the old name of outcome, and refuses both at once", func() {
		old := expectedFailures("[[expected_failure]]\nid = \"a\"\nstatus = \"crash\"\nreason = \"x\"\n")
		Expect(old.Entries).To(Equal([]runner.ExpectedFailure{{ID: "a", Outcome: protocol.OutcomeCrash, Reason: "x"}}))
		_, err := runner.ParseExpectedFailures("x.toml", []byte("[[expected_failure]]\nid = \"a\"\nstatus = \"crash\"\noutcome = \"crash\"\n"))
		Expect(err).To(MatchError(runner.ErrUsage))
		Expect(err).To(MatchError(ContainSubstring("both outcome and status")))
		b, err := old.Marshal()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(ContainSubstring(`outcome = "crash"`))
		Expect(string(b)).NotTo(ContainSubstring("status"))
	})

	It("rejects unknown ids, unknown keys, bad outcomes and duplicates", func() {
		opts := fixtureOptions()
		opts.ExpectedFailures = expectedFailures("[[expected_failure]]\nid = \"required/scoring/nope\"\noutcome = \"fail\"\nreason = \"x\"\n")
		_, err := runner.Run(ctx(), newOracle(), opts)
		Expect(err).To(MatchError(runner.ErrUsage))
		Expect(err).To(MatchError(ContainSubstring("required/scoring/nope")))
		for _, bad := range []string{
			"[[expected_failure]]\nid = \"a\"\noutcome = \"fail\"\nreason = \"x\"\ncolour = \"red\"\n",
			"[[expected_failure]]\nid = \"a\"\noutcome = \"pass\"\nreason = \"x\"\n",
			"[[expected_failure]]\nid = \"a\"\noutcome = \"fail\"\n[[expected_failure]]\nid = \"a\"\noutcome = \"fail\"\n",
			"[[expected_failure]]\noutcome = \"fail\"\n",
		} {
			_, err := runner.ParseExpectedFailures("x.toml", []byte(bad))
			Expect(err).To(MatchError(runner.ErrUsage), bad)
		}
	})

	It("writes a file from the current failures that makes the next run pass", func() {
		o := newOracle()
		o.Mutate = breakCase(knapsackID)
		rep := runWith(o, fixtureOptions())
		x := runner.ExpectedFailuresFromReport(rep, nil)
		Expect(x.Entries).To(HaveLen(1))
		Expect(x.Entries[0].ID).To(Equal(knapsackID))
		Expect(x.Entries[0].Outcome).To(Equal(protocol.OutcomeFail))
		b, err := x.Marshal()
		Expect(err).NotTo(HaveOccurred())
		opts := fixtureOptions()
		opts.ExpectedFailures = expectedFailures(string(b))
		rep = runWith(o, opts)
		Expect(rep.Err()).To(Succeed())
	})
})
