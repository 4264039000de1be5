package runner_test

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/testtool"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// faultAdapter and hostileAdapter are internal/faultyimpl and
// internal/hostile as programs, built once for the suite.
var faultAdapter, hostileAdapter string

var _ = BeforeSuite(func() {
	dir, err := os.MkdirTemp("", "faultyimpl")
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(os.RemoveAll, dir)
	faultAdapter = filepath.Join(dir, "faultyimpl")
	out, err := exec.Command("go", "build", "-o", faultAdapter, "./testdata/faultyimpl").CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), string(out))
	hostileAdapter = filepath.Join(dir, "hostileadapter")
	out, err = exec.Command("go", "build", "-o", hostileAdapter, "../internal/hostile/hostileadapter").CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), string(out))
})

// faultRun runs the fixtures against the fault adapter with FAULT=fault at
// seq 3 (the third required case).
func faultRun(fault string, mod func(*protocol.ProcessOptions)) *runner.Report {
	GinkgoHelper()
	abs, _ := filepath.Abs("testdata/suite")
	po := protocol.ProcessOptions{
		Argv:           []string{faultAdapter},
		Env:            append(os.Environ(), "FAULT="+fault, "FAULT_AT=3", "FAULT_SUITE="+abs),
		StartupTimeout: 10 * time.Second,
	}
	if mod != nil {
		mod(&po)
	}
	p := protocol.NewProcess(po)
	opts := fixtureOptions()
	opts.Timeout = 3 * time.Second
	if fault == "longline" || strings.HasPrefix(fault, "stderr") {
		// Not meant to time out: writing and reading a 16 MiB line or 50 MB
		// of stderr may take a loaded machine longer than 3s.
		opts.Timeout = 2 * time.Minute
	}
	opts.StartupTimeout = 10 * time.Second
	rep, err := runner.Run(context.Background(), p, opts)
	Expect(err).NotTo(HaveOccurred())
	return rep
}

// thirdCase is the case that gets seq 3: required cases run first, by id.
const thirdCase = "required/pipeline/pipeline-pinned-exceeds-budget"

var _ = Describe("Process implementations", func() {
	It("passes everything over a healthy session", func() {
		rep := faultRun("none", nil)
		Expect(rep.Implementation.Name).To(Equal("oracle"))
		Expect(rep.Level).To(Equal(runner.LevelFullyConformant))
		Expect(rep.Err()).To(Succeed())
	})

	DescribeTable("reports each fault on the case it hit, restarts, and finishes the rest",
		func(fault string, status protocol.Outcome, msg string) {
			rep := faultRun(fault, nil)
			for _, c := range rep.Cases {
				if c.ID == thirdCase {
					Expect(c.Outcome).To(Equal(status), c.Message)
					Expect(c.Message).To(ContainSubstring(msg))
					if fault != "stderr" {
						Expect(c.Stderr).To(ContainSubstring("injecting " + fault))
					}
				} else {
					Expect(c.Outcome).To(Equal(protocol.OutcomePass), c.ID+": "+c.Message)
				}
			}
			Expect(rep.Infrastructure).To(BeEmpty())
			Expect(rep.Err()).To(MatchError(runner.ErrFailed))
		},
		Entry("crash", "crash", protocol.OutcomeCrash, "exit status 2"),
		Entry("hang", "hang", protocol.OutcomeTimeout, "no result within 3s (the per-case timeout)"),
		Entry("garbage line", "garbage", protocol.OutcomeError, "not JSON"),
		Entry("wrong seq", "seq", protocol.OutcomeError, "seq 103, want 3"),
		Entry("line over 16 MiB", "longline", protocol.OutcomeError, "exceeds 16777216 bytes"),
		Entry("50 MB of stderr", "stderr", protocol.OutcomeError, "stderr flood"),
	)

	It("survives 50 MB of stderr without a limit, keeping only a tail", func() {
		rep := faultRun("stderr", func(po *protocol.ProcessOptions) { po.MaxStderr = -1 })
		Expect(rep.Level).To(Equal(runner.LevelFullyConformant))
	})

	It("keeps only a bounded tail of a flood of stderr on a failing case", func() {
		rep := faultRun("stderrcrash", func(po *protocol.ProcessOptions) { po.StderrTail, po.MaxStderr = 1024, -1 })
		var c runner.CaseResult
		for _, x := range rep.Cases {
			if x.ID == thirdCase {
				c = x
			}
		}
		Expect(c.Outcome).To(Equal(protocol.OutcomeCrash))
		Expect(c.Stderr).To(HavePrefix("[… "))
		Expect(c.Stderr).To(HaveSuffix("last words\n"))
		Expect(len(c.Stderr)).To(BeNumerically("<", 1100))
		Expect(rep.Counts["all"][protocol.OutcomePass]).To(Equal(13))
	})

	It("exits with an infrastructure error when the implementation dies at start", func() {
		rep := faultRun("start", nil)
		Expect(rep.Infrastructure).To(ContainSubstring("failed to start"))
		Expect(rep.InfrastructureStderr).To(ContainSubstring("cannot start"))
		Expect(rep.Level).To(Equal(runner.LevelNone))
		Expect(rep.Counts["all"][protocol.OutcomeNotRun]).To(Equal(14))
		Expect(rep.Err()).To(MatchError(protocol.ErrInfrastructure))
	})

	It("restarts an implementation that starts slower than a case may take", func() {
		rep := faultRun("crash", func(po *protocol.ProcessOptions) {
			po.Env = append(po.Env, "FAULT_SLOW_START=3500ms")
		})
		Expect(statusOf(rep, thirdCase)).To(Equal(protocol.OutcomeCrash))
		Expect(rep.Infrastructure).To(BeEmpty())
		Expect(rep.Counts["all"][protocol.OutcomePass]).To(Equal(13))
	})

	DescribeTable("exits with an infrastructure error when the hello fails",
		func(fault, msg string, exec bool) {
			rep := faultRun(fault, func(po *protocol.ProcessOptions) {
				po.StartupTimeout = time.Second
				po.ExecPerCase = exec
			})
			// The run stops at the hello: no case is sent, none waits
			// for its timeout.
			Expect(rep.Counts["all"][protocol.OutcomeNotRun]).To(Equal(14))
			Expect(rep.Infrastructure).To(ContainSubstring(msg))
			Expect(rep.Err()).To(MatchError(protocol.ErrInfrastructure))
		},
		Entry("a hello that never comes", "hellohang", "no hello within the startup timeout of 1s", false),
		Entry("a banner on stdout", "hellogarbage", "not JSON", false),
		Entry("death at start, one process per case", "start", "failed to start", true),
	)

	It("stops with an infrastructure error once the restart budget is spent", func() {
		abs, _ := filepath.Abs("testdata/suite")
		// Crash at every case from seq 1 on: FAULT_AT is matched per seq, so
		// use a wrapper that always crashes after the hello.
		script := filepath.Join(GinkgoT().TempDir(), "crashy.sh")
		Expect(os.WriteFile(script, []byte("#!/bin/sh\nread hello\necho '{\"type\":\"hello\",\"protocol\":\"cupel-conform/1\",\"implementation\":{\"name\":\"crashy\"},\"capabilities\":{}}'\nread run\necho dying >&2\nexit 9\n"), 0o755)).To(Succeed())
		p := protocol.NewProcess(protocol.ProcessOptions{Argv: []string{script}, Restarts: 2, Env: append(os.Environ(), "FAULT_SUITE="+abs)})
		opts := fixtureOptions()
		opts.Timeout = 2 * time.Second
		rep, err := runner.Run(context.Background(), p, opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Counts["all"][protocol.OutcomeCrash]).To(Equal(3), "the first case and one per restart")
		Expect(rep.Infrastructure).To(ContainSubstring("restart budget of 2 restarts in a row exhausted"))
		Expect(rep.Restarts).To(Equal(2))
		Expect(rep.Counts["all"][protocol.OutcomeNotRun]).To(Equal(11))
		Expect(rep.Err()).To(MatchError(protocol.ErrInfrastructure))
	})

	It("budgets restarts in a row: faults between completed cases cost only their cases", func() {
		abs, _ := filepath.Abs("testdata/suite")
		// Answers every run "unsupported", but dies on the second run of each
		// process: every restart is followed by a completed case.
		script := filepath.Join(GinkgoT().TempDir(), "flaky.py")
		Expect(os.WriteFile(script, []byte(`import json, sys
sys.stdin.readline()
print(json.dumps({"type": "hello", "protocol": "cupel-conform/1", "implementation": {"name": "flaky"}, "capabilities": {}}), flush=True)
runs = 0
for line in sys.stdin:
    m = json.loads(line)
    if m.get("type") != "run":
        break
    runs += 1
    if runs == 2:
        sys.exit(9)
    print(json.dumps({"type": "result", "seq": m["seq"], "id": m["id"], "status": "unsupported", "reason": "flaky"}), flush=True)
`), 0o644)).To(Succeed())
		p := protocol.NewProcess(protocol.ProcessOptions{Argv: []string{testtool.Python3(GinkgoT(), "the restart test with a flaky Python adapter"), script}, Restarts: 2, Env: append(os.Environ(), "FAULT_SUITE="+abs)})
		rep, err := runner.Run(context.Background(), p, fixtureOptions())
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Infrastructure).To(BeEmpty())
		Expect(rep.Counts["all"][protocol.OutcomeNotRun]).To(BeZero())
		crashes := rep.Counts["all"][protocol.OutcomeCrash]
		Expect(crashes).To(BeNumerically(">", 2), "more faults than the budget, none of them in a row")
		Expect(rep.Restarts).To(BeNumerically(">=", crashes-1), "a restart after every crash but perhaps the last")
		Expect(rep.Err()).To(MatchError(runner.ErrFailed))
	})

	It("runs one process per case in exec mode, where a fault touches one case only", func() {
		rep := faultRun("none", func(po *protocol.ProcessOptions) { po.ExecPerCase = true })
		Expect(rep.Level).To(Equal(runner.LevelFullyConformant))
		// In exec mode every case has seq >= 1 in a fresh process; FAULT_AT=3
		// still hits only the third case.
		rep = faultRun("crash", func(po *protocol.ProcessOptions) { po.ExecPerCase = true })
		Expect(statusOf(rep, thirdCase)).To(Equal(protocol.OutcomeCrash))
		Expect(rep.Counts["all"][protocol.OutcomePass]).To(Equal(13))
	})

	It("serves any Implementation over the protocol in process", func() {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		done := make(chan error, 1)
		go func() { done <- protocol.Serve(context.Background(), newOracle(), inR, outW); outW.Close() }()
		go func() {
			io.WriteString(inW, `{"type":"hello","protocol":["cupel-conform/1"]}`+"\n")
			io.WriteString(inW, `{"type":"run","seq":7,"id":"required/scoring/recency-basic","stage":"scoring","case":{"items":[]}}`+"\n")
			io.WriteString(inW, `{"type":"bye"}`+"\n")
		}()
		out, _ := io.ReadAll(outR)
		Expect(<-done).To(Succeed())
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		Expect(lines).To(HaveLen(2))
		Expect(lines[0]).To(ContainSubstring(`"protocol":"cupel-conform/1"`))
		Expect(lines[1]).To(HavePrefix(`{"type":"result","seq":7,"id":"required/scoring/recency-basic","status":"ok"`))
	})
})
