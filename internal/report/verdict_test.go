package report_test

import (
	"bytes"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/sebdah/goldie/v2"

	"github.com/cupel-go/go-cupel/internal/fakeimpl"
	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/internal/testtool"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
)

// junitVerdict reads what a JUnit consumer counts: the failures and errors
// of <testsuites>, and the failure of the "conformance level" case.
type junitDoc struct {
	Failures int `xml:"failures,attr"`
	Errors   int `xml:"errors,attr"`
	Tests    int `xml:"tests,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Failures int    `xml:"failures,attr"`
		Skipped  int    `xml:"skipped,attr"`
		Cases    []struct {
			Name    string    `xml:"name,attr"`
			Failure *struct{} `xml:"failure"`
			Skipped *struct{} `xml:"skipped"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func junitOf(rep *runner.Report, suite *casefile.Suite) (junitDoc, string) {
	var b bytes.Buffer
	Expect(report.WriteJUnit(&b, rep, suite)).To(Succeed())
	var d junitDoc
	Expect(xml.Unmarshal(b.Bytes(), &d)).To(Succeed())
	return d, b.String()
}

func tapOf(rep *runner.Report, suite *casefile.Suite) string {
	var b bytes.Buffer
	Expect(report.WriteTAP(&b, rep, suite)).To(Succeed())
	return b.String()
}

var _ = Describe("The CI formats", func() {
	It("put the inputs and the diff in each failure body, and real times", func() {
		rep, suite := fixtureRun(fakeimpl.FailingRequired, runner.Options{})
		rep.Cases[0].Duration = runner.Seconds(1234 * time.Millisecond)
		_, x := junitOf(rep, suite)
		Expect(x).To(ContainSubstring(`time="1.234"`))
		Expect(x).To(ContainSubstring("first difference at position 0"))
		Expect(x).To(ContainSubstring("inputs:\n  config: "))
		tap := tapOf(rep, suite)
		Expect(tap).To(ContainSubstring("  duration_ms: 1234.000\n"))
		Expect(tap).To(ContainSubstring("  requirements: [\"R6.1\", \"R26.1\"]\n  detail: |\n    requirement R6.1 (step): "))
		Expect(tap).To(ContainSubstring("\n    output differs"))
		Expect(tap).To(ContainSubstring("    inputs:\n      config: "))
	})
})

var _ = Describe("The JUnit report", func() {
	It("is valid against the Jenkins JUnit schema", func() {
		xmllint := testtool.Need(GinkgoT(), "the check of the JUnit report against testdata/jenkins-junit.xsd (package libxml2-utils)", "xmllint")
		dir := GinkgoT().TempDir()
		x, err := runner.ParseExpectedFailures("x.toml", []byte("[[expected_failure]]\nid = \"required/scoring/recency-basic\"\nstatus = \"fail\"\nreason = \"stale\"\n"))
		Expect(err).NotTo(HaveOccurred())
		runs := map[string]runner.Options{
			fakeimpl.Conformant + "-stale": {ExpectedFailures: x},
			fakeimpl.Crashing:              {},
			fakeimpl.Slow:                  {},
		}
		for _, name := range []string{fakeimpl.Conformant, fakeimpl.FailingRequired, fakeimpl.OptionalFailures, fakeimpl.Partial, fakeimpl.OutOfRange} {
			runs[name] = runner.Options{}
		}
		for name, opts := range runs {
			impl := strings.TrimSuffix(name, "-stale")
			rep, suite := fixtureRun(impl, opts)
			if impl == fakeimpl.Crashing {
				rep.Cases[0].Stderr = "boom <&> ]]> done\n"
			}
			var b bytes.Buffer
			Expect(report.WriteJUnit(&b, rep, suite)).To(Succeed())
			Expect(b.String()).NotTo(ContainSubstring("<properties></properties>"))
			Expect(b.String()).NotTo(MatchRegexp(`<testsuites[^>]* skipped=`))
			path := filepath.Join(dir, name+".xml")
			Expect(os.WriteFile(path, b.Bytes(), 0o644)).To(Succeed())
			out, err := exec.Command(xmllint, "--noout", "--schema", "testdata/jenkins-junit.xsd", path).CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), "%s: %s", name, out)
			Expect(string(out)).To(MatchRegexp(regexp.QuoteMeta(path) + " validates"))
		}
		// The check has teeth: what the report used to write is refused.
		old := filepath.Join(dir, "old.xml")
		Expect(os.WriteFile(old, []byte(`<testsuites skipped="1"><testsuite name="s" tests="1"><properties></properties>`+
			`<testcase name="c"><skipped message="unsupported: x" type="x"></skipped></testcase></testsuite></testsuites>`), 0o644)).To(Succeed())
		out, err := exec.Command(xmllint, "--noout", "--schema", "testdata/jenkins-junit.xsd", old).CombinedOutput()
		Expect(err).To(HaveOccurred(), string(out))
		Expect(string(out)).To(ContainSubstring("fails to validate"))
	})
})

var _ = Describe("The badge", func() {
	for _, name := range []string{fakeimpl.Conformant, fakeimpl.OptionalFailures, fakeimpl.FailingRequired, fakeimpl.Partial} {
		It("is stable for "+name, func() {
			rep, _ := fixtureRun(name, runner.Options{})
			var b bytes.Buffer
			Expect(report.WriteBadge(&b, rep)).To(Succeed())
			g := goldie.New(GinkgoTB(), goldie.WithFixtureDir("testdata/golden"), goldie.WithNameSuffix(".badge.json"))
			g.Assert(GinkgoTB(), name, b.Bytes())
		})
	}

	It("says there is no verdict when the implementation did not start", func() {
		rep, _ := fixtureRun(fakeimpl.Conformant, runner.Options{})
		rep.Infrastructure, rep.Level = "implementation failed to start", runner.LevelNone
		Expect(report.NewBadge(rep)).To(Equal(report.Badge{SchemaVersion: 1, Label: "cupel 1.3", Message: "no level claimed (infrastructure error)", Color: "lightgrey"}))
	})
})
