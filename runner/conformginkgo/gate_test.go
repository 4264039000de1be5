package conformginkgo_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/fakeimpl"
	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/conformginkgo"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// ginkgoJUnit is what the tests read of the JUnit report Ginkgo writes.
type ginkgoJUnit struct {
	Suites []struct {
		Cases []struct {
			Name   string `xml:"name,attr"`
			Status string `xml:"status,attr"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// caseName is the case id in a Ginkgo spec name: "[It] Cupel conformance cases ID [tier, stage]".
var caseName = regexp.MustCompile(`^\[It\] Cupel conformance cases (\S+) \[`)

// childRun is one run of the child suite testdata/gatesuite.
type childRun struct {
	impl     string
	implCmd  string // a command to run as the implementation instead of impl
	suite    string // the suite's directory (default ../testdata/suite)
	require  runner.Level
	parallel bool   // ginkgo -p instead of go test
	filter   string // a label filter
	focus    string // a focus
	failFast bool
}

// childBins are the ginkgo command and the child suite's test binary,
// built once for every run: go test and ginkgo would build the suite again
// for each (go test -c links it; ginkgo -p runs a precompiled .test as it
// runs the one it compiles).
type childBins struct{ ginkgo, suite string }

// childResult is what a child run reported.
type childResult struct {
	code   int
	status map[string]string  // Ginkgo's JUnit: each spec's status, by case id (and conformginkgo.LevelSpec)
	specs  []types.SpecReport // Ginkgo's JSON report: the gate's specs
	tmp    string             // the run's TMPDIR
	out    string
}

// command is the command of the child run, with its JUnit and JSON
// reports in dir and dir as its TMPDIR.
func (r childRun) command(bins childBins, dir string) *exec.Cmd {
	suite := r.suite
	if suite == "" {
		suite = "../testdata/suite"
	}
	fixtures, err := filepath.Abs(suite)
	Expect(err).NotTo(HaveOccurred())
	var cmd *exec.Cmd
	reports := []string{"junit-report=" + filepath.Join(dir, "junit.xml"), "json-report=" + filepath.Join(dir, "report.json")}
	if r.filter != "" {
		reports = append(reports, "label-filter="+r.filter)
	}
	if r.focus != "" {
		reports = append(reports, "focus="+r.focus)
	}
	if r.failFast {
		reports = append(reports, "fail-fast")
	}
	if r.parallel {
		args := []string{"-p", "--procs=3"}
		for _, a := range reports {
			args = append(args, "--"+a)
		}
		cmd = exec.Command(bins.ginkgo, append(args, bins.suite)...)
	} else {
		// What go test does: the test binary in the package's directory.
		args := []string{"-test.count=1"}
		for _, a := range reports {
			args = append(args, "-ginkgo."+a)
		}
		cmd = exec.Command(bins.suite, args...)
		cmd.Dir = "testdata/gatesuite"
	}
	cmd.Env = append(os.Environ(), "TESTIMPL="+r.impl, "TESTIMPL_SUITE="+fixtures, "REQUIRE_LEVEL="+string(r.require),
		"IMPL_CMD="+r.implCmd, "TMPDIR="+dir)
	return cmd
}

// run runs the child suite and returns what it reported.
func (r childRun) run(bins childBins) childResult {
	dir := GinkgoT().TempDir()
	cmd := r.command(bins, dir)
	out, err := cmd.CombinedOutput()
	return r.result(dir, string(out), err)
}

// result reads the reports of the child run in dir that exited with err.
func (r childRun) result(dir, out string, err error) childResult {
	res := childResult{tmp: dir, out: out, status: map[string]string{}}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		res.code = ee.ExitCode()
	} else {
		Expect(err).NotTo(HaveOccurred(), out)
	}
	data, err := os.ReadFile(filepath.Join(dir, "junit.xml"))
	Expect(err).NotTo(HaveOccurred(), out)
	var j ginkgoJUnit
	Expect(xml.Unmarshal(data, &j)).To(Succeed())
	for _, s := range j.Suites {
		for _, c := range s.Cases {
			if m := caseName.FindStringSubmatch(c.Name); m != nil {
				res.status[m[1]] = c.Status
			} else if strings.Contains(c.Name, conformginkgo.LevelSpec) {
				res.status[conformginkgo.LevelSpec] = c.Status
			}
		}
	}
	data, err = os.ReadFile(filepath.Join(dir, "report.json"))
	Expect(err).NotTo(HaveOccurred(), out)
	var reports []types.Report
	Expect(json.Unmarshal(data, &reports)).To(Succeed())
	for _, rep := range reports {
		for _, s := range rep.SpecReports {
			if s.LeafNodeType == types.NodeTypeIt {
				res.specs = append(res.specs, s)
			}
		}
	}
	return res
}

// left lists what the child run left in its TMPDIR, besides its reports.
func (res childResult) left() []string {
	entries, err := os.ReadDir(res.tmp)
	Expect(err).NotTo(HaveOccurred())
	var names []string
	for _, e := range entries {
		if n := e.Name(); n != "junit.xml" && n != "report.json" {
			names = append(names, n)
		}
	}
	return names
}

// gateLine is the line of the Gate call in the child suite.
func gateLine() int {
	data, err := os.ReadFile("testdata/gatesuite/gate_suite_test.go")
	Expect(err).NotTo(HaveOccurred())
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, "conformginkgo.Gate(") {
			return i + 1
		}
	}
	Fail("no Gate call in the child suite")
	return 0
}

// want is what the child run must report, from the runner's own verdict
// on the same implementation and options: runner.Check for the exit
// code, runner.Classify for each case.
func (r childRun) want() (code int, status map[string]string) {
	suite, err := casefile.LoadSuite(os.DirFS("../testdata/suite"))
	Expect(err).NotTo(HaveOccurred())
	opts := runner.Options{Suite: os.DirFS("../testdata/suite"), RequireLevel: r.require}
	if r.filter != "" {
		// the filter "required && scoring": a narrowed run takes no target
		opts.RequireLevel = ""
		opts.Tiers, opts.Stages = []string{casefile.TierRequired}, []string{casefile.StageScoring}
	}
	if runner.Check(fakeimpl.New(r.impl, suite), opts) != nil {
		code = 1
	}
	rep, err := runner.RunSuite(context.Background(), fakeimpl.New(r.impl, suite), suite, opts)
	Expect(err).NotTo(HaveOccurred())
	v := rep.Verdict()
	status = map[string]string{}
	for _, c := range rep.Cases {
		switch k, _ := v.ClassOf(c.ID); {
		case c.Outcome == protocol.OutcomeSkip:
			status[c.ID] = "skipped" // Ginkgo lists a spec its filter leaves out as skipped
		case k == runner.ClassGated:
			status[c.ID] = "failed"
		case k == runner.ClassWarning, c.Outcome == protocol.OutcomeXFail:
			status[c.ID] = "skipped"
		default:
			status[c.ID] = "passed"
		}
	}
	status[conformginkgo.LevelSpec] = "skipped" // without a target, or narrowed
	if v.Target != "" {
		status[conformginkgo.LevelSpec] = "passed"
		if !v.Level.AtLeast(v.Target) {
			status[conformginkgo.LevelSpec] = "failed"
		}
	}
	return code, status
}

var _ = Describe("The Ginkgo gate, in a child Ginkgo suite", Ordered, ContinueOnFailure, func() {
	var bins childBins
	BeforeAll(func() {
		dir := GinkgoT().TempDir()
		bins = childBins{ginkgo: filepath.Join(dir, "ginkgo"), suite: filepath.Join(dir, "gatesuite.test")}
		out, err := exec.Command("go", "build", "-o", bins.ginkgo, "github.com/onsi/ginkgo/v2/ginkgo").CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
		out, err = exec.Command("go", "test", "-c", "-o", bins.suite, "./testdata/gatesuite").CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
	})

	DescribeTable("renders the runner's verdict: the exit code of runner.Check, each case's class in Ginkgo's JUnit; every spec at the Gate call; nothing left in TMPDIR",
		func(r childRun) {
			res := r.run(bins)
			wantCode, want := r.want()
			Expect(res.code).To(Equal(wantCode), res.out)
			Expect(res.status).To(Equal(want))
			line := gateLine()
			Expect(res.specs).To(HaveLen(len(want)))
			for _, s := range res.specs {
				Expect(s.LeafNodeLocation.FileName).To(HaveSuffix("/testdata/gatesuite/gate_suite_test.go"), s.LeafNodeText)
				Expect(s.LeafNodeLocation.LineNumber).To(Equal(line), s.LeafNodeText)
				if s.State == types.SpecStateFailed {
					Expect(s.Failure.FailureNodeLocation).To(Equal(s.LeafNodeLocation), s.LeafNodeText)
				}
			}
			if res.code != 0 {
				Expect(res.out).To(ContainSubstring(fmt.Sprintf("gate_suite_test.go:%d", line)))
			}
			if r.impl == fakeimpl.FailingRequired && r.filter == "" {
				// A failing case names the requirements its vector covers.
				Expect(res.out).To(ContainSubstring("requirements: R6.1, R26.1"))
			}
			Expect(res.left()).To(BeEmpty())
		},
		Entry("a conformant implementation", childRun{impl: fakeimpl.Conformant, require: runner.LevelConformant}),
		Entry("a failing implementation", childRun{impl: fakeimpl.FailingRequired, require: runner.LevelConformant}),
		Entry("optional failures are warnings for conformant", childRun{impl: fakeimpl.OptionalFailures, require: runner.LevelConformant}),
		Entry("optional failures fail strictly", childRun{impl: fakeimpl.OptionalFailures}),
		Entry("a label filter selects the required scoring cases", childRun{impl: fakeimpl.FailingRequired, require: runner.LevelConformant, filter: "required && scoring"}),
		Entry("ginkgo -p: a conformant implementation", childRun{impl: fakeimpl.Conformant, require: runner.LevelFullyConformant, parallel: true}),
		Entry("ginkgo -p: optional failures, with the level gathered from every process", childRun{impl: fakeimpl.OptionalFailures, require: runner.LevelConformant, parallel: true}),
		Entry("ginkgo -p: optional failures miss fully conformant", childRun{impl: fakeimpl.OptionalFailures, require: runner.LevelFullyConformant, parallel: true}),
		Entry("ginkgo -p: optional failures fail strictly", childRun{impl: fakeimpl.OptionalFailures, parallel: true}),
		Entry("ginkgo -p with a label filter", childRun{impl: fakeimpl.FailingRequired, parallel: true, filter: "required && scoring"}),
	)

	DescribeTable("fails one spec, with the implementation's stderr, when the implementation cannot start, and skips the others",
		func(r childRun) {
			r.implCmd = `echo "python3: can't open file '/nowhere/nonexistent.py': [Errno 2] No such file or directory" >&2; exit 2`
			res := r.run(bins)
			Expect(res.code).To(Equal(1), res.out)
			var failed []types.SpecReport
			for _, s := range res.specs {
				switch s.State {
				case types.SpecStateFailed:
					failed = append(failed, s)
				case types.SpecStateSkipped:
				default:
					Fail(fmt.Sprintf("%s: %s, want failed (once) or skipped", s.LeafNodeText, s.State))
				}
			}
			Expect(failed).To(HaveLen(1), res.out)
			msg := failed[0].Failure.Message
			Expect(msg).To(ContainSubstring("the run has no verdict: implementation failed to start: "))
			Expect(msg).To(ContainSubstring("  | python3: can't open file '/nowhere/nonexistent.py'"))
			for _, s := range res.specs {
				if s.State == types.SpecStateSkipped && s.LeafNodeText != conformginkgo.LevelSpec {
					Expect(s.Failure.Message).To(HavePrefix("not run: implementation failed to start: "), s.LeafNodeText)
					Expect(s.Failure.Message).To(HaveSuffix(fmt.Sprintf("(the spec of %s says why)", failed[0].LeafNodeText)), s.LeafNodeText)
				}
			}
			Expect(strings.Count(res.out, "can't open file")).To(Equal(1), "the stderr tail is said once")
			Expect(res.left()).To(BeEmpty())
		},
		Entry("go test", childRun{}),
		Entry("go test, with a target", childRun{require: runner.LevelConformant}),
		Entry("ginkgo -p", childRun{parallel: true}),
		Entry("ginkgo -p, with a target", childRun{require: runner.LevelConformant, parallel: true}),
	)

	It("caps a failure's output as the text report does: its problems, and the failures in full", func() {
		vectors := "../../vectors" // the embedded suite: a failure of 302 scores
		res := childRun{impl: fakeimpl.FailingRequired, suite: vectors, focus: "recency-many-items$"}.run(bins)
		Expect(res.code).To(Equal(1))
		var msg string
		for _, s := range res.specs {
			if s.LeafNodeText == "required/scoring/recency-many-items" {
				msg = s.Failure.Message
			}
		}
		Expect(msg).To(HavePrefix(`fail: score of #0 "r0": `))
		Expect(strings.Count(msg, "score of #")).To(Equal(report.DefaultMaxFailures))
		Expect(msg).To(ContainSubstring(fmt.Sprintf("… and %d more problems (see the JSON report)", 302-report.DefaultMaxFailures)))

		res = childRun{impl: fakeimpl.FailingRequired, suite: vectors}.run(bins)
		full, short := 0, 0
		for _, s := range res.specs {
			if s.State != types.SpecStateFailed {
				continue
			}
			if strings.HasSuffix(s.Failure.Message, fmt.Sprintf("(only the first %d failures of each Ginkgo process are shown in full)", report.DefaultMaxFailures)) {
				short++
				Expect(s.Failure.Message).NotTo(ContainSubstring("\n"))
			} else {
				full++
			}
		}
		Expect(full).To(Equal(report.DefaultMaxFailures))
		Expect(short).To(BeNumerically(">", 0))
	})

	It("leaves nothing in TMPDIR after ginkgo -p --fail-fast, or an interrupt", func() {
		res := childRun{impl: fakeimpl.FailingRequired, require: runner.LevelConformant, parallel: true, failFast: true}.run(bins)
		Expect(res.code).To(Equal(1), res.out)
		Expect(res.status).To(ContainElement("failed"))
		Expect(res.status[conformginkgo.LevelSpec]).To(Equal("skipped"))
		Expect(res.left()).To(BeEmpty())

		// Each process answers its first case, recording it in the run's
		// directory, and hangs on its second until the run is interrupted:
		// once every process has recorded a case, each is in the middle of
		// its run, and the ^C reaches all of them there.
		r := childRun{impl: fakeimpl.Conformant, require: runner.LevelConformant, parallel: true}
		dir := GinkgoT().TempDir()
		cmd := r.command(bins, dir)
		cmd.Env = append(cmd.Env, "CASE_TIMEOUT=5m", "HANG_AFTER_FIRST=1")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		Expect(cmd.Start()).To(Succeed())
		recorded := func() []string {
			files, err := filepath.Glob(filepath.Join(dir, "cupel-conformginkgo-*", "*", "process-*.jsonl"))
			Expect(err).NotTo(HaveOccurred())
			return files
		}
		Eventually(recorded).WithTimeout(2 * time.Minute).Should(HaveLen(3))
		Expect(syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)).To(Succeed()) // ^C: to every process of the run
		err := cmd.Wait()
		res = r.result(dir, out.String(), err)
		Expect(res.code).NotTo(Equal(0))
		Expect(res.specs).To(ContainElement(HaveField("State", types.SpecStateInterrupted)), res.out)
		Expect(res.left()).To(BeEmpty())
	})
})
