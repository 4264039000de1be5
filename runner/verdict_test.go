package runner_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"sync"
	"testing/fstest"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/oracleimpl"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// forking is the oracle as a Forker: every fork shares the oracle and the
// counters, and each case waits until two cases have been in flight at
// once, so that parallel workers overlap however the machine schedules
// them (no sleep: a loaded machine cannot make the workers miss each
// other). A runner that ran one case at a time would leave the first case
// waiting until its per-case timeout, and fail the test.
type forking struct {
	*oracleimpl.Oracle
	st *forkStats
}

type forkStats struct {
	mu                          sync.Mutex
	forks, hellos, now, maxBusy int
	overlap                     chan struct{} // closed when two cases first run at once
}

func newForkStats() *forkStats { return &forkStats{overlap: make(chan struct{})} }

func (f forking) Fork() protocol.Implementation {
	f.st.mu.Lock()
	f.st.forks++
	f.st.mu.Unlock()
	return f
}

func (f forking) Hello(ctx context.Context) (protocol.Identity, error) {
	f.st.mu.Lock()
	f.st.hellos++
	f.st.mu.Unlock()
	return f.Oracle.Hello(ctx)
}

func (f forking) Run(ctx context.Context, req protocol.Request) (protocol.Result, error) {
	f.st.mu.Lock()
	f.st.now++
	if f.st.now == 2 && f.st.maxBusy < 2 {
		close(f.st.overlap)
	}
	f.st.maxBusy = max(f.st.maxBusy, f.st.now)
	f.st.mu.Unlock()
	defer func() {
		f.st.mu.Lock()
		f.st.now--
		f.st.mu.Unlock()
	}()
	select {
	case <-f.st.overlap:
	case <-ctx.Done():
		return protocol.Result{}, ctx.Err()
	}
	return f.Oracle.Run(ctx, req)
}

// comparable strips what differs between two runs of the same cases: the
// clock.
func comparable(r *runner.Report) *runner.Report {
	c := *r
	c.Started, c.Duration = time.Time{}, 0
	c.Cases = append([]runner.CaseResult(nil), r.Cases...)
	for i := range c.Cases {
		c.Cases[i].Duration = 0
	}
	return &c
}

var _ = Describe("The verdict", func() {
	It("takes the level from outcomes only: a stale expected failure fails the run but keeps the level", func() {
		x, err := runner.ParseExpectedFailures("x.toml", []byte("[[expected_failure]]\nid = \"required/placing/u-shaped-seven-items\"\nstatus = \"fail\"\nreason = \"fixed since\"\n"))
		Expect(err).NotTo(HaveOccurred())
		opts := fixtureOptions()
		opts.ExpectedFailures = x
		rep := runWith(newOracle(), opts)
		Expect(rep.Level).To(Equal(runner.LevelFullyConformant))
		Expect(rep.LevelReason).To(Equal("all 8 required and 6 optional cases pass"))
		Expect(rep.Err()).To(MatchError(runner.ErrFailed))
		Expect(rep.Err().Error()).To(ContainSubstring("u-shaped-seven-items: xpass"))

		// An expected failure that fails as expected is still no pass.
		o := newOracle()
		o.Mutate = breakCase("required/placing/u-shaped-seven-items")
		rep = runWith(o, opts)
		Expect(rep.Level).To(Equal(runner.LevelNone))
		Expect(rep.Err()).To(Succeed())
	})

	It("does not count a broken vector file against the implementation, and is an infrastructure error", func() {
		fsys := fstest.MapFS{}
		src := fixtureOptions().Suite
		Expect(copyFS(fsys, src)).To(Succeed())
		fsys["required/scoring/broken.toml"] = &fstest.MapFile{Data: []byte("[test\nname = 1\n")}
		fsys["optional/placing/broken.toml"] = &fstest.MapFile{Data: []byte("schema = 9\n")}
		rep := runWith(newOracle(), runner.Options{Suite: fsys})
		Expect(rep.SuiteErrors).To(Equal(2))
		Expect(rep.Level).To(Equal(runner.LevelFullyConformant))
		Expect(rep.LevelReason).To(ContainSubstring("2 vector files could not be loaded"))
		Expect(rep.Err()).To(MatchError(protocol.ErrInfrastructure))
	})

	It("runs cases in parallel on forks, with the report of a serial run", func() {
		st := newForkStats()
		o := newOracle()
		o.Mutate = breakCase("required/placing/u-shaped-seven-items")
		serial := runWith(o, fixtureOptions())
		opts := fixtureOptions()
		opts.Parallel = 3
		var order []string
		var mu sync.Mutex
		opts.OnResult = func(c runner.CaseResult) {
			mu.Lock()
			order = append(order, c.ID)
			mu.Unlock()
		}
		rep, err := runner.Run(ctx(), forking{o, st}, opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(comparable(rep)).To(Equal(comparable(serial)))
		Expect(order).To(HaveLen(len(serial.Cases)))
		Expect(st.forks).To(Equal(2))
		Expect(st.hellos).To(Equal(3))
		Expect(st.maxBusy).To(BeNumerically(">", 1))
		Expect(st.maxBusy).To(BeNumerically("<=", 3))
	})

	It("runs one case at a time an implementation that is no Forker", func() {
		opts := fixtureOptions()
		opts.Parallel = 4
		rep := runWith(newOracle(), opts)
		Expect(rep.Level).To(Equal(runner.LevelFullyConformant))
	})

	It("stops at the first unexpected result with FailFast, and claims no level", func() {
		o := newOracle()
		o.Mutate = breakCase("required/pipeline/pipeline-overflow-proceed")
		opts := fixtureOptions()
		opts.FailFast = true
		rep := runWith(o, opts)
		Expect(rep.StoppedEarly).To(BeTrue())
		Expect(rep.Level).To(Equal(runner.LevelNone))
		Expect(rep.LevelReason).To(ContainSubstring("fail fast"))
		ran := 0
		for _, c := range rep.Cases {
			if c.Outcome != protocol.OutcomeSkip {
				ran++
			}
		}
		Expect(ran).To(Equal(2), "the case before it and the failing case")
		Expect(rep.Err()).To(MatchError(runner.ErrFailed))

		opts.FailFast = true
		rep = runWith(newOracle(), opts)
		Expect(rep.StoppedEarly).To(BeFalse())
		Expect(rep.Level).To(Equal(runner.LevelFullyConformant))
	})

	It("gives a Process fork its own session", func() {
		p := protocol.NewProcess(protocol.ProcessOptions{Command: "true"})
		f, ok := any(p).(protocol.Forker)
		Expect(ok).To(BeTrue())
		Expect(f.Fork()).NotTo(BeIdenticalTo(p))
	})
})

// copyFS copies every file of src into dst.
func copyFS(dst fstest.MapFS, src fs.FS) error {
	return fs.WalkDir(src, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(src, path)
		if err != nil {
			return err
		}
		dst[path] = &fstest.MapFile{Data: data}
		return nil
	})
}

var _ = Describe("Classify", func() {
	// The table of docs/verdicts.md, case by case.
	type row struct {
		status protocol.Outcome
		tier   string
		target runner.Level
		want   runner.Class
	}
	const req, opt = casefile.TierRequired, casefile.TierOptional
	none, conf, full := runner.Level(""), runner.LevelConformant, runner.LevelFullyConformant
	rows := []row{
		{protocol.OutcomePass, req, none, runner.ClassOK}, {protocol.OutcomePass, opt, full, runner.ClassOK},
		{protocol.OutcomeSkip, req, conf, runner.ClassOK}, {protocol.OutcomeNotRun, opt, none, runner.ClassOK},
		// strict: unpinned fail or unsupported in either tier, and xpass
		{protocol.OutcomeFail, opt, none, runner.ClassGated}, {protocol.OutcomeCrash, req, none, runner.ClassGated},
		{protocol.OutcomeUnsupported, opt, none, runner.ClassGated}, {protocol.OutcomeXFail, req, none, runner.ClassOK},
		{protocol.OutcomeXPass, opt, none, runner.ClassGated},
		// conformant: the required tier, pinned or not; optional warns
		{protocol.OutcomeFail, req, conf, runner.ClassGated}, {protocol.OutcomeXFail, req, conf, runner.ClassGated},
		{protocol.OutcomeUnsupported, req, conf, runner.ClassGated}, {protocol.OutcomeTimeout, opt, conf, runner.ClassWarning},
		{protocol.OutcomeUnsupported, opt, conf, runner.ClassWarning}, {protocol.OutcomeXFail, opt, conf, runner.ClassWarning},
		{protocol.OutcomeXPass, opt, conf, runner.ClassGated},
		// fully-conformant: both tiers, pinned or not
		{protocol.OutcomeXFail, opt, full, runner.ClassGated}, {protocol.OutcomeUnsupported, opt, full, runner.ClassGated},
		{protocol.OutcomeError, req, full, runner.ClassGated}, {protocol.OutcomeXPass, req, full, runner.ClassGated},
	}
	for _, r := range rows {
		It(fmt.Sprintf("counts %s in the %s tier under target %q as %s", r.status, r.tier, r.target, r.want), func() {
			Expect(runner.Classify(runner.CaseResult{ID: "x", Tier: r.tier, Outcome: r.status}, r.target)).To(Equal(r.want))
		})
	}
})

var _ = Describe("Report.Verdict", func() {
	report := func(target runner.Level, cases ...runner.CaseResult) *runner.Report {
		r := &runner.Report{RequireLevel: target, Cases: cases}
		r.Recount()
		return r
	}
	c := func(id, tier string, st protocol.Outcome) runner.CaseResult {
		return runner.CaseResult{ID: id, Tier: tier, Outcome: st}
	}

	It("passes an optional failure under conformant, with a warning, and keeps the level", func() {
		v := report(runner.LevelConformant, c("r", casefile.TierRequired, protocol.OutcomePass), c("o", casefile.TierOptional, protocol.OutcomeFail)).Verdict()
		Expect(v.Passed).To(BeTrue())
		Expect(v.Warnings).To(Equal(1))
		Expect(v.Level).To(Equal(runner.LevelConformant))
		Expect(v.Line()).To(Equal("verdict: PASS — level Cupel Conformant reaches the target Cupel Conformant; 1 warning (optional cases failed or unsupported, not required for Cupel Conformant)"))
	})

	It("fails a target the level misses even with nothing gated", func() {
		v := report(runner.LevelConformant, c("o", casefile.TierOptional, protocol.OutcomePass)).Verdict()
		Expect(v.Passed).To(BeFalse())
		Expect(v.Gated).To(BeZero())
		Expect(v.Reason).To(HavePrefix("level not conformant misses the target Cupel Conformant"))
	})

	It("counts each outcome apart", func() {
		v := report("", c("a", casefile.TierRequired, protocol.OutcomeCrash), c("b", casefile.TierRequired, protocol.OutcomeUnsupported),
			c("d", casefile.TierOptional, protocol.OutcomeUnsupported)).Verdict()
		Expect(v.Counts).To(Equal(map[runner.Outcome]int{protocol.OutcomeCrash: 1, protocol.OutcomeUnsupported: 2}))
		Expect(v.Reason).To(Equal("3 gated (1 crash, 2 unsupported)"))
	})

	It("labels a filtered run 'no level claimed' and judges it strictly", func() {
		r := report("", c("a", casefile.TierRequired, protocol.OutcomePass), c("b", casefile.TierRequired, protocol.OutcomeSkip))
		v := r.Verdict()
		Expect(v.Passed).To(BeTrue())
		Expect(v.LevelClaimed).To(BeFalse())
		Expect(v.LevelText).To(Equal("no level claimed (filtered run)"))
		r = report("", c("a", casefile.TierOptional, protocol.OutcomeUnsupported), c("b", casefile.TierRequired, protocol.OutcomeSkip))
		Expect(r.Verdict().Passed).To(BeFalse())
	})

	It("fails a run that stopped early, claiming no level", func() {
		r := report(runner.LevelConformant, c("a", casefile.TierRequired, protocol.OutcomePass), c("b", casefile.TierRequired, protocol.OutcomeSkip))
		r.StoppedEarly = true
		r.Recount()
		v := r.Verdict()
		Expect(v.Passed).To(BeFalse())
		Expect(v.LevelText).To(Equal("no level claimed (the run stopped early: fail fast)"))
		Expect(r.Err()).To(MatchError(runner.ErrFailed))
	})

	It("has no verdict after an infrastructure error", func() {
		r := report("", c("a", casefile.TierRequired, protocol.OutcomeNotRun))
		r.Infrastructure = "implementation failed to start"
		r.Recount()
		v := r.Verdict()
		Expect(v.Passed).To(BeFalse())
		Expect(v.Infrastructure).To(BeTrue())
		Expect(r.Err()).To(MatchError(protocol.ErrInfrastructure))
	})

	It("is in the JSON report as the verdict object", func() {
		r := report(runner.LevelConformant, c("r", casefile.TierRequired, protocol.OutcomePass), c("o", casefile.TierOptional, protocol.OutcomeUnsupported))
		var b bytes.Buffer
		Expect(r.WriteJSON(&b)).To(Succeed())
		var doc struct {
			Verdict runner.Verdict `json:"verdict"`
		}
		Expect(json.Unmarshal(b.Bytes(), &doc)).To(Succeed())
		Expect(doc.Verdict).To(Equal(r.Verdict()))
	})
})
