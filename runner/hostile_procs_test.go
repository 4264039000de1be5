//go:build linux

package runner_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/testtool"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/explore"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// The process variants of internal/hostile against the runner: after every
// path that ends a process (bye, crash, timeout, protocol error, a session
// that exited between cases, parallel sessions, one process per case,
// explore, an interrupted run), no process of any group the run started is
// alive. The processes are counted from /proc, and the variants record
// their pids in $HOSTILE_PIDS. No assertion is on time: a runner that
// waited for a timeout it should not would stall until the test timeout.

// procsAdapter is the hostile adapter, built by the BeforeAll of the
// specs below.
var procsAdapter string

// hostileProcess is the Process of a variant over the fixtures, with the
// fault at the third case; its pids go to the returned directory.
func hostileProcess(variant string, mod func(*protocol.ProcessOptions)) (*protocol.Process, string) {
	GinkgoHelper()
	pids := GinkgoT().TempDir()
	abs, _ := filepath.Abs("testdata/suite")
	po := protocol.ProcessOptions{
		Argv:           []string{procsAdapter},
		Env:            append(os.Environ(), "HOSTILE="+variant, "HOSTILE_SUITE="+abs, "HOSTILE_AT=3", "HOSTILE_PIDS="+pids),
		StartupTimeout: time.Hour,
	}
	if mod != nil {
		mod(&po)
	}
	return protocol.NewProcess(po), pids
}

// hostileRunProcs runs the fixtures against a variant; the case timeout is
// an hour unless mod changes it.
func hostileRunProcs(variant string, mod func(*protocol.ProcessOptions), modOpts func(*runner.Options)) (*runner.Report, []testtool.ProcRecord) {
	GinkgoHelper()
	p, pids := hostileProcess(variant, mod)
	opts := fixtureOptions()
	opts.Timeout, opts.StartupTimeout = time.Hour, time.Hour
	if modOpts != nil {
		modOpts(&opts)
	}
	rep, err := runner.Run(context.Background(), p, opts)
	Expect(err).NotTo(HaveOccurred())
	return rep, readRecords(pids)
}

func readRecords(dir string) []testtool.ProcRecord {
	GinkgoHelper()
	recs, err := testtool.ReadProcRecords(dir)
	Expect(err).NotTo(HaveOccurred())
	return recs
}

func liveInGroup(pgid int) []int {
	GinkgoHelper()
	pids, err := testtool.LiveInGroup(pgid)
	Expect(err).NotTo(HaveOccurred())
	return pids
}

// expectNoneAlive checks that no group of a recorded process has a live
// process; escaped helpers (out of the runner's reach) are returned.
func expectNoneAlive(recs []testtool.ProcRecord) []testtool.ProcRecord {
	GinkgoHelper()
	var escaped []testtool.ProcRecord
	for _, r := range recs {
		if r.Role == "escaped" {
			escaped = append(escaped, r)
			continue
		}
		Expect(liveInGroup(r.PGID)).To(BeEmpty(), "the process group %d (of %s %d) outlived the run", r.PGID, r.Role, r.PID)
	}
	return escaped
}

var _ = Describe("Hostile process variants", Ordered, ContinueOnFailure, func() {
	BeforeAll(func() { procsAdapter = hostileAdapter })

	It("kills the helpers of a session when it ends with bye", func() {
		rep, recs := hostileRunProcs("proc-helpers", nil, nil)
		Expect(rep.Level).To(Equal(runner.LevelFullyConformant))
		Expect(testtool.Roles(recs)).To(Equal(map[string]int{"adapter": 1, "helper": 2}))
		expectNoneAlive(recs)
	})

	It("kills the helpers of every parallel session", func() {
		rep, recs := hostileRunProcs("proc-helpers", nil, func(o *runner.Options) { o.Parallel = 2 })
		Expect(rep.Level).To(Equal(runner.LevelFullyConformant))
		Expect(testtool.Roles(recs)).To(Equal(map[string]int{"adapter": 2, "helper": 4}))
		expectNoneAlive(recs)
	})

	It("kills the helpers of every process in exec-per-case mode", func() {
		rep, recs := hostileRunProcs("proc-helpers", func(po *protocol.ProcessOptions) { po.ExecPerCase = true }, nil)
		Expect(rep.Level).To(Equal(runner.LevelFullyConformant))
		Expect(testtool.Roles(recs)).To(Equal(map[string]int{"adapter": 15, "helper": 30}), "the hello's process and one per case")
		expectNoneAlive(recs)
	})

	It("kills the helpers of a session explore ran", func() {
		// go-cupel's engine answers (the fixtures' answer key declares no
		// component to generate cases from).
		p, pids := hostileProcess("proc-helpers", func(po *protocol.ProcessOptions) { po.Env = append(po.Env, "HOSTILE_SUITE=") })
		rep, err := explore.Run(context.Background(), p, explore.Options{Seed: 1, Cases: 20, Timeout: time.Hour, StartupTimeout: time.Hour})
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Infrastructure).To(BeEmpty())
		Expect(rep.Cases).To(Equal(20))
		recs := readRecords(pids)
		Expect(testtool.Roles(recs)).To(Equal(map[string]int{"adapter": 1, "helper": 2}))
		expectNoneAlive(recs)
	})

	It("kills the group of a session that exited between cases before it starts the next one", func() {
		p, pids := hostileProcess("proc-exit-after-answer", func(po *protocol.ProcessOptions) {
			po.Env = append(po.Env, "HOSTILE_AT=1")
		})
		defer p.Close()
		suite := fixtures()
		_, err := p.Hello(context.Background())
		Expect(err).NotTo(HaveOccurred())
		res, err := p.Run(context.Background(), protocol.NewRequest(1, suite.Cases[0]))
		Expect(err).NotTo(HaveOccurred())
		Expect(runner.Compare(suite.Cases[0], res).Outcome).To(Equal(protocol.OutcomePass))
		recs := readRecords(pids)
		Expect(testtool.Roles(recs)).To(Equal(map[string]int{"adapter": 1, "helper": 1}))
		var adapter, helper testtool.ProcRecord
		for _, r := range recs {
			if r.Role == "adapter" {
				adapter = r
			} else {
				helper = r
			}
		}
		// Wait for the event: the adapter has exited (its helper lives on in
		// its group), so that the next Run finds the session dead.
		Eventually(func() []int { return liveInGroup(adapter.PGID) }).WithTimeout(time.Hour).Should(Equal([]int{helper.PID}))
		// The runner learns of the exit on a goroutine of its own (its wait
		// for the process), which may not have run yet: then Run finds the
		// session dead when it sends the case, a crash, which kills the group
		// too. Either way no helper outlives the session, and the next case
		// runs in a new one.
		req := protocol.NewRequest(2, suite.Cases[1])
		res, err = p.Run(context.Background(), req)
		if err != nil {
			var f *protocol.Fault
			Expect(errors.As(err, &f)).To(BeTrue(), "%v", err)
			Expect(f.Outcome).To(Equal(protocol.OutcomeCrash), f.Message)
			Expect(liveInGroup(adapter.PGID)).To(BeEmpty(), "Run found the session dead but left its helper alive")
			res, err = p.Run(context.Background(), req)
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(runner.Compare(suite.Cases[1], res).Outcome).To(Equal(protocol.OutcomePass))
		Expect(p.Restarts()).To(Equal(1))
		Expect(liveInGroup(adapter.PGID)).To(BeEmpty(), "Run replaced the session but left its helper alive")
	})

	It("reports a crash, not a timeout, when a helper holds the output of a process that exited", func() {
		rep, recs := hostileRunProcs("proc-crash-holding-stdout", nil, nil)
		c := caseOf(rep, thirdCase)
		Expect(c.Outcome).To(Equal(protocol.OutcomeCrash), c.Message)
		Expect(c.Message).To(ContainSubstring("still holds its output open"))
		Expect(c.Message).To(ContainSubstring("exit status 3"))
		Expect(rep.Counts["all"][protocol.OutcomePass]).To(Equal(13))
		Expect(testtool.Roles(recs)).To(Equal(map[string]int{"adapter": 2, "helper": 1}))
		expectNoneAlive(recs)
	})

	It("fails the start, not after the startup timeout, when a helper holds the output of a process that died at its hello", func() {
		rep, recs := hostileRunProcs("proc-hello-crash-holding-stdout", nil, nil)
		Expect(rep.Infrastructure).To(ContainSubstring("failed to start"))
		Expect(rep.Infrastructure).To(ContainSubstring("still holds its output open"))
		Expect(rep.Counts["all"][protocol.OutcomeNotRun]).To(Equal(14))
		Expect(testtool.Roles(recs)).To(Equal(map[string]int{"adapter": 1, "helper": 1}))
		expectNoneAlive(recs)
	})

	It("kills, with SIGKILL, a group that ignores SIGTERM, SIGINT and SIGHUP and hangs", func() {
		rep, recs := hostileRunProcs("proc-hang-ignoring-signals", nil, func(o *runner.Options) { o.Timeout = 2 * time.Second })
		Expect(statusOf(rep, thirdCase)).To(Equal(protocol.OutcomeTimeout))
		Expect(rep.Counts["all"][protocol.OutcomePass]).To(Equal(13))
		Expect(testtool.Roles(recs)).To(Equal(map[string]int{"adapter": 2, "helper": 2, "hanging": 1}))
		expectNoneAlive(recs)
	})

	It("kills the group before the restart that follows a protocol error", func() {
		rep, recs := hostileRunProcs("proc-helper-then-garbage", nil, nil)
		Expect(statusOf(rep, thirdCase)).To(Equal(protocol.OutcomeError))
		Expect(rep.Restarts).To(Equal(1))
		Expect(testtool.Roles(recs)).To(Equal(map[string]int{"adapter": 2, "helper": 1}))
		expectNoneAlive(recs)
	})

	It("kills the groups of an interrupted run, whose case in flight is not run", func() {
		p, pids := hostileProcess("proc-hang-ignoring-signals", nil)
		ctx, cancel := context.WithCancelCause(context.Background())
		go func() {
			defer GinkgoRecover()
			// The event: the adapter hangs on the third case.
			Eventually(func() map[string]int { return testtool.Roles(readRecords(pids)) }).WithTimeout(time.Hour).Should(HaveKey("hanging"))
			cancel(errors.New("received SIGTERM"))
		}()
		opts := fixtureOptions()
		opts.Timeout, opts.StartupTimeout = time.Hour, time.Hour
		rep, err := runner.Run(ctx, p, opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Infrastructure).To(Equal("interrupted: received SIGTERM"))
		Expect(caseOf(rep, thirdCase).Message).To(Equal("not run: interrupted: received SIGTERM"))
		Expect(rep.Counts["all"][protocol.OutcomePass]).To(Equal(2))
		Expect(rep.Counts["all"][protocol.OutcomeNotRun]).To(Equal(12), "the case in flight and the rest")
		Expect(rep.Err()).To(MatchError(protocol.ErrInfrastructure))
		recs := readRecords(pids)
		Expect(testtool.Roles(recs)).To(Equal(map[string]int{"adapter": 1, "helper": 1, "hanging": 1}))
		expectNoneAlive(recs)
	})

	It("reports a run stopped during the hello as interrupted, not as a failed start", func() {
		p, pids := hostileProcess("proc-hello-hang", nil)
		ctx, cancel := context.WithCancelCause(context.Background())
		go func() {
			defer GinkgoRecover()
			Eventually(func() map[string]int { return testtool.Roles(readRecords(pids)) }).WithTimeout(time.Hour).Should(HaveKey("hanging"))
			cancel(errors.New("received SIGINT"))
		}()
		opts := fixtureOptions()
		opts.StartupTimeout = time.Hour
		rep, err := runner.Run(ctx, p, opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Infrastructure).To(Equal("interrupted: received SIGINT"))
		Expect(rep.Counts["all"][protocol.OutcomeNotRun]).To(Equal(14))
		recs := readRecords(pids)
		Expect(testtool.Roles(recs)).To(Equal(map[string]int{"adapter": 1, "helper": 1, "hanging": 1}))
		expectNoneAlive(recs)
	})

	It("kills its own group when a helper escapes into a new session; the escaped helper is out of reach", func() {
		rep, recs := hostileRunProcs("proc-escape-session", nil, nil)
		c := caseOf(rep, thirdCase)
		Expect(c.Outcome).To(Equal(protocol.OutcomeCrash), c.Message)
		Expect(rep.Counts["all"][protocol.OutcomePass]).To(Equal(13))
		escaped := expectNoneAlive(recs)
		Expect(escaped).To(HaveLen(1))
		// What the docs say the runner cannot do: the helper left the
		// group, so it is still alive; the test cleans it up.
		Expect(liveInGroup(escaped[0].PGID)).To(Equal([]int{escaped[0].PID}))
		Expect(syscall.Kill(escaped[0].PID, syscall.SIGKILL)).To(Succeed())
	})
})

func caseOf(rep *runner.Report, id string) runner.CaseResult {
	GinkgoHelper()
	for _, c := range rep.Cases {
		if c.ID == id {
			return c
		}
	}
	Fail("no case " + id)
	return runner.CaseResult{}
}
