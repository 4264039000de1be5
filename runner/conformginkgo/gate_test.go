package conformginkgo_test

import (
	"context"
	"encoding/xml"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/testimpl"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/conformginkgo"
	"github.com/cupel-go/go-cupel/runner/protocol"
	"github.com/cupel-go/go-cupel/runner/vector"
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
	require  runner.Level
	parallel bool   // ginkgo -p instead of go test
	filter   string // a label filter
}

// childBins are the ginkgo command and the child suite's test binary,
// built once for every run: go test and ginkgo would build the suite again
// for each (go test -c links it; ginkgo -p runs a precompiled .test as it
// runs the one it compiles).
type childBins struct{ ginkgo, suite string }

// run runs the child suite and returns its exit code and the statuses of
// Ginkgo's JUnit report, by case id (and conformginkgo.LevelSpec).
func (r childRun) run(bins childBins) (int, map[string]string) {
	fixtures, err := filepath.Abs("../testdata/suite")
	Expect(err).NotTo(HaveOccurred())
	junit := filepath.Join(GinkgoT().TempDir(), "junit.xml")
	var cmd *exec.Cmd
	if r.parallel {
		args := []string{"-p", "--procs=3", "--junit-report=" + junit}
		if r.filter != "" {
			args = append(args, "--label-filter="+r.filter)
		}
		cmd = exec.Command(bins.ginkgo, append(args, bins.suite)...)
	} else {
		// What go test does: the test binary in the package's directory.
		args := []string{"-test.count=1", "-ginkgo.junit-report=" + junit}
		if r.filter != "" {
			args = append(args, "-ginkgo.label-filter="+r.filter)
		}
		cmd = exec.Command(bins.suite, args...)
		cmd.Dir = "testdata/gatesuite"
	}
	cmd.Env = append(os.Environ(), "TESTIMPL="+r.impl, "TESTIMPL_SUITE="+fixtures, "REQUIRE_LEVEL="+string(r.require))
	out, err := cmd.CombinedOutput()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else {
		Expect(err).NotTo(HaveOccurred(), string(out))
	}
	data, err := os.ReadFile(junit)
	Expect(err).NotTo(HaveOccurred(), string(out))
	var j ginkgoJUnit
	Expect(xml.Unmarshal(data, &j)).To(Succeed())
	status := map[string]string{}
	for _, s := range j.Suites {
		for _, c := range s.Cases {
			if m := caseName.FindStringSubmatch(c.Name); m != nil {
				status[m[1]] = c.Status
			} else if strings.Contains(c.Name, conformginkgo.LevelSpec) {
				status[conformginkgo.LevelSpec] = c.Status
			}
		}
	}
	return code, status
}

// want is what the child run must report, from the runner's own verdict
// on the same implementation and options: runner.Check for the exit
// code, runner.Classify for each case.
func (r childRun) want() (code int, status map[string]string) {
	suite, err := vector.LoadSuite(os.DirFS("../testdata/suite"))
	Expect(err).NotTo(HaveOccurred())
	opts := runner.Options{Suite: os.DirFS("../testdata/suite"), RequireLevel: r.require}
	if r.filter != "" {
		// the filter "required && scoring": a narrowed run takes no target
		opts.RequireLevel = ""
		opts.Tiers, opts.Stages = []string{vector.TierRequired}, []string{vector.StageScoring}
	}
	if runner.Check(testimpl.New(r.impl, suite), opts) != nil {
		code = 1
	}
	rep, err := runner.RunSuite(context.Background(), testimpl.New(r.impl, suite), suite, opts)
	Expect(err).NotTo(HaveOccurred())
	v := rep.Verdict()
	status = map[string]string{}
	for _, c := range rep.Cases {
		switch k, _ := v.ClassOf(c.ID); {
		case c.Status == protocol.StatusSkip:
			status[c.ID] = "skipped" // Ginkgo lists a spec its filter leaves out as skipped
		case k == runner.ClassGated:
			status[c.ID] = "failed"
		case k == runner.ClassWarning, c.Status == protocol.StatusXFail:
			status[c.ID] = "skipped"
		default:
			status[c.ID] = "passed"
		}
	}
	if r.filter != "" && r.require != "" {
		status[conformginkgo.LevelSpec] = "skipped"
	}
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

	DescribeTable("renders the runner's verdict: the exit code of runner.Check, each case's class in Ginkgo's JUnit",
		func(r childRun) {
			code, got := r.run(bins)
			wantCode, want := r.want()
			Expect(code).To(Equal(wantCode))
			Expect(got).To(Equal(want))
		},
		Entry("a conformant implementation", childRun{impl: testimpl.Conformant, require: runner.LevelConformant}),
		Entry("a failing implementation", childRun{impl: testimpl.FailingRequired, require: runner.LevelConformant}),
		Entry("optional failures are warnings for conformant", childRun{impl: testimpl.OptionalFailures, require: runner.LevelConformant}),
		Entry("optional failures fail strictly", childRun{impl: testimpl.OptionalFailures}),
		Entry("a label filter selects the required scoring cases", childRun{impl: testimpl.FailingRequired, require: runner.LevelConformant, filter: "required && scoring"}),
		Entry("ginkgo -p: a conformant implementation", childRun{impl: testimpl.Conformant, require: runner.LevelFullyConformant, parallel: true}),
		Entry("ginkgo -p: optional failures, with the level gathered from every process", childRun{impl: testimpl.OptionalFailures, require: runner.LevelConformant, parallel: true}),
		Entry("ginkgo -p: optional failures miss fully conformant", childRun{impl: testimpl.OptionalFailures, require: runner.LevelFullyConformant, parallel: true}),
		Entry("ginkgo -p with a label filter", childRun{impl: testimpl.FailingRequired, parallel: true, filter: "required && scoring"}),
	)
})
