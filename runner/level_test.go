package runner_test

import (
	"context"
	"os"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/oracleimpl"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

func runWith(o *oracleimpl.Oracle, opts runner.Options) *runner.Report {
	GinkgoHelper()
	rep, err := runner.Run(context.Background(), o, opts)
	Expect(err).NotTo(HaveOccurred())
	return rep
}

func breakCase(id string) func(*casefile.Case, *protocol.Result) {
	return func(c *casefile.Case, r *protocol.Result) {
		if c.ID == id {
			*r = protocol.Result{Kind: protocol.ResultOK, Output: &protocol.Output{}}
		}
	}
}

var _ = Describe("Levels and exit codes", func() {
	It("is Fully Conformant when every case passes", func() {
		rep := runWith(newOracle(), fixtureOptions())
		Expect(rep.Level).To(Equal(runner.LevelFullyConformant))
		Expect(rep.Err()).To(Succeed())
		Expect(rep.Counts["required"][protocol.OutcomePass]).To(Equal(8))
		Expect(rep.Counts["optional"][protocol.OutcomePass]).To(Equal(6))
		Expect(rep.Cases[0].Tier).To(Equal("required"), "required cases run first")
	})

	It("is Conformant when only an optional case fails", func() {
		o := newOracle()
		o.Mutate = breakCase("optional/slicing/knapsack-table-too-large")
		rep := runWith(o, fixtureOptions())
		Expect(rep.Level).To(Equal(runner.LevelConformant))
		Expect(rep.Err()).To(MatchError(runner.ErrFailed), "an unexpected failure without a target level")
		rep.RequireLevel = runner.LevelConformant
		Expect(rep.Err()).To(Succeed(), "the target is met")
		rep.RequireLevel = runner.LevelFullyConformant
		Expect(rep.Err()).To(MatchError(runner.ErrFailed))
	})

	It("is not conformant when a required case fails, and unsupported never counts as a pass", func() {
		o := newOracle()
		o.Mutate = func(c *casefile.Case, r *protocol.Result) {
			if c.ID == "required/placing/u-shaped-seven-items" {
				*r = protocol.Result{Kind: protocol.ResultUnsupported, Reason: "no placers"}
			}
		}
		rep := runWith(o, fixtureOptions())
		Expect(rep.Level).To(Equal(runner.LevelNone))
		Expect(rep.LevelReason).To(Equal("7 of 8 required cases pass"))
		Expect(rep.Err()).To(MatchError(runner.ErrFailed))
	})

	It("claims no level for a filtered run, and skips the rest", func() {
		rep := runWith(newOracle(), runner.Options{Suite: os.DirFS("testdata/suite"), Tiers: []string{"required"}})
		Expect(rep.Level).To(Equal(runner.LevelNone))
		Expect(rep.LevelReason).To(ContainSubstring("filtered"))
		Expect(rep.Counts["optional"][protocol.OutcomeSkip]).To(Equal(6))
		Expect(rep.Err()).To(Succeed())
	})

	It("filters by --run, --skip and --stage, and a filter that selects nothing is a usage error", func() {
		rep := runWith(newOracle(), runner.Options{Suite: os.DirFS("testdata/suite"), Run: "pipeline", Skip: "proceed", Stages: []string{"pipeline"}})
		Expect(rep.Counts["all"][protocol.OutcomePass]).To(Equal(3))
		_, err := runner.Run(context.Background(), newOracle(), runner.Options{Suite: os.DirFS("testdata/suite"), Run: "nothing-matches"})
		Expect(err).To(MatchError(runner.ErrUsage))
		_, err = runner.Run(context.Background(), newOracle(), runner.Options{Suite: os.DirFS("testdata/suite"), Run: "("})
		Expect(err).To(MatchError(runner.ErrUsage))
		_, err = runner.Run(context.Background(), newOracle(), runner.Options{Suite: os.DirFS("testdata/suite"), Tiers: []string{"gold"}})
		Expect(err).To(MatchError(runner.ErrUsage))
	})

	It("turns suite errors into error cases and exit code 3, while the rest runs", func() {
		s, err := casefile.LoadSuite(os.DirFS("testdata/broken"))
		Expect(err).NotTo(HaveOccurred())
		rep, err := runner.RunSuite(context.Background(), oracleimpl.New(s), s, runner.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.SuiteErrors).To(Equal(5))
		Expect(rep.Counts["required"][protocol.OutcomePass]).To(Equal(1))
		Expect(rep.Err()).To(MatchError(protocol.ErrInfrastructure))
		var msgs []string
		for _, c := range rep.Cases {
			msgs = append(msgs, c.Message)
		}
		Expect(strings.Join(msgs, "\n")).To(ContainSubstring("bad-syntax.toml:8"))
	})

	It("reports a timeout for an in-process implementation that hangs, and a crash for one that panics", func() {
		o := newOracle()
		h := &hanging{Oracle: o, id: "required/scoring/recency-basic"}
		opts := fixtureOptions()
		// Generous, so that only the hanging case times out on a loaded
		// machine (it costs this plus the one-second grace).
		opts.Timeout = 2 * time.Second
		rep, err := runner.Run(context.Background(), h, opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(statusOf(rep, "required/scoring/recency-basic")).To(Equal(protocol.OutcomeTimeout))
		Expect(rep.Counts["all"][protocol.OutcomePass]).To(Equal(13))

		o.Mutate = func(c *casefile.Case, r *protocol.Result) {
			if c.ID == "required/slicing/greedy-density-order" {
				panic("boom")
			}
		}
		rep = runWith(o, fixtureOptions())
		Expect(statusOf(rep, "required/slicing/greedy-density-order")).To(Equal(protocol.OutcomeCrash))
	})
})

type hanging struct {
	*oracleimpl.Oracle
	id string
}

func (h *hanging) Run(ctx context.Context, req protocol.Request) (protocol.Result, error) {
	if req.ID == h.id {
		select {} // ignores ctx on purpose
	}
	return h.Oracle.Run(ctx, req)
}

func statusOf(rep *runner.Report, id string) protocol.Outcome {
	for _, c := range rep.Cases {
		if c.ID == id {
			return c.Outcome
		}
	}
	return ""
}

var _ = Describe("An Execution stepped by hand", func() {
	It("runs the files it is given, records the rest as skipped, and claims no level then", func() {
		x, err := runner.Start(ctx(), newOracle(), fixtures(), fixtureOptions())
		Expect(err).NotTo(HaveOccurred())
		files := x.Files()
		Expect(files).To(HaveLen(len(fixtures().Cases)))
		Expect(files[0].Tier).To(Equal(casefile.TierRequired))
		cr := x.RunFile(ctx(), files[0])
		Expect(cr.Outcome).To(Equal(protocol.OutcomePass))

		foreign := files[1]
		foreign.ID = "required/scoring/elsewhere"
		Expect(x.RunFile(ctx(), foreign).Outcome).To(Equal(protocol.OutcomeError))
		Expect(x.Skip(runner.SuiteFile{ID: "x"}, "why").Message).To(ContainSubstring("not a file of this Execution"))

		rep := x.Finish()
		Expect(rep.Cases).To(HaveLen(len(files)))
		Expect(rep.Counts["all"][protocol.OutcomePass]).To(Equal(1))
		Expect(rep.Counts["all"][protocol.OutcomeSkip]).To(Equal(len(files) - 1))
		Expect(rep.Filtered).To(BeTrue())
		Expect(rep.Level).To(Equal(runner.LevelNone))
		Expect(rep.LevelReason).To(Equal("a filtered run claims no level"))
	})

	It("claims the level when every entry ran", func() {
		x, err := runner.Start(ctx(), newOracle(), fixtures(), fixtureOptions())
		Expect(err).NotTo(HaveOccurred())
		for _, e := range x.Files() {
			x.RunFile(ctx(), e)
		}
		rep := x.Finish()
		Expect(rep.Filtered).To(BeFalse())
		Expect(rep.Level).To(Equal(runner.LevelFullyConformant))
	})

	It("refuses a required level together with filters, and nil arguments, as usage errors", func() {
		opts := fixtureOptions()
		opts.RequireLevel, opts.Tiers = runner.LevelConformant, []string{casefile.TierRequired}
		_, err := runner.Start(ctx(), newOracle(), fixtures(), opts)
		Expect(err).To(MatchError(runner.ErrUsage))
		Expect(err).To(MatchError(ContainSubstring("a filtered run claims no level")))
		_, err = runner.Start(ctx(), nil, fixtures(), fixtureOptions())
		Expect(err).To(MatchError(runner.ErrUsage))
		_, err = runner.Start(ctx(), newOracle(), nil, fixtureOptions())
		Expect(err).To(MatchError(runner.ErrUsage))
	})
})
