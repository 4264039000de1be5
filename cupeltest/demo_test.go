package cupeltest_test

import (
	"bufio"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupeltest"
	"github.com/cupel-go/go-cupel/internal/testcases"
)

// The demos below run only in a child process started by the specs at the
// end of this file (CUPELTEST_DEMO names the demo): they fail on purpose,
// and the specs read what the test framework printed.
const demoEnv = "CUPELTEST_DEMO"

// TestPlainDemo: under plain testing, every failure of a chain is reported,
// each at the line of the assertion that failed.
func TestPlainDemo(t *testing.T) {
	if os.Getenv(demoEnv) != "plain" {
		t.Skip("run by the cupeltest suite in a child process")
	}
	r := testcases.Agent()
	cupeltest.Should(t, r).
		HaveAtLeastNExclusions(99).            // DEMO-LINE HaveAtLeastNExclusions
		IncludeItemWithKind(cupel.KindMemory). // DEMO-LINE IncludeItemWithKind
		HaveKindCoverageCount(4)
}

// TestRequireDemo: Require stops the test at the first failure.
func TestRequireDemo(t *testing.T) {
	if os.Getenv(demoEnv) != "require" {
		t.Skip("run by the cupeltest suite in a child process")
	}
	r := testcases.Agent()
	t.Log("DEMO: before the chain")
	cupeltest.Require(t, r).
		HaveKindCoverageCount(4).
		HaveAtLeastNExclusions(99).            // DEMO-LINE HaveAtLeastNExclusions
		IncludeItemWithKind(cupel.KindMemory). // DEMO-LINE IncludeItemWithKind
		HaveKindCoverageCount(4)
	t.Log("DEMO: after the chain")
}

// The Ginkgo demo spec is registered only in the child process.
var _ = func() bool {
	if os.Getenv(demoEnv) == "ginkgo" {
		Describe("GinkgoT demo", Label("ginkgo-t-demo"), func() {
			It("stops at the first failed assertion", func() {
				r := testcases.Agent()
				GinkgoWriter.Println("DEMO: before the chain")
				cupeltest.Should(GinkgoT(), r).
					HaveAtLeastNExclusions(99).            // DEMO-LINE HaveAtLeastNExclusions
					IncludeItemWithKind(cupel.KindMemory). // DEMO-LINE IncludeItemWithKind
					HaveKindCoverageCount(4)
				GinkgoWriter.Println("DEMO: after the chain")
			})
		})
	}
	return true
}()

// TestGinkgoDemo runs the Ginkgo demo spec alone.
func TestGinkgoDemo(t *testing.T) {
	if os.Getenv(demoEnv) != "ginkgo" {
		t.Skip("run by the cupeltest suite in a child process")
	}
	RegisterFailHandler(Fail)
	suite, reporter := GinkgoConfiguration()
	suite.LabelFilter = "ginkgo-t-demo"
	reporter.NoColor = true
	RunSpecs(t, "ginkgo demo", suite, reporter)
}

// runDemo runs this test binary on one demo and returns its output.
func runDemo(name, test string) string {
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), demoEnv+"="+name)
	out, err := cmd.CombinedOutput()
	Expect(err).To(HaveOccurred(), "the demo fails on purpose; output:\n%s", out)
	return string(out)
}

// demoLine returns the line number of the line marked "DEMO-LINE <method>"
// in this file, in the demo named.
func demoLine(method string, nth int) int {
	f, err := os.Open("demo_test.go")
	Expect(err).NotTo(HaveOccurred())
	defer f.Close()
	s := bufio.NewScanner(f)
	line, seen := 0, 0
	for s.Scan() {
		line++
		if strings.Contains(s.Text(), "// DEMO-LINE "+method) {
			seen++
			if seen == nth {
				return line
			}
		}
	}
	Fail("no DEMO-LINE for " + method)
	return 0
}

var _ = Describe("failure reporting", Label("child-process"), func() {
	const first = "HaveAtLeastNExclusions(99) failed: expected at least 99 excluded items, but Excluded had 4."
	const second = "IncludeItemWithKind(Memory) failed: Included contained 0 items with Kind=Memory. Included had 5 items with kinds: [SystemPrompt, Document, Message, ToolOutput]."

	It("under plain testing reports every failure at its caller's line", func() {
		out := runDemo("plain", "TestPlainDemo")
		Expect(out).To(ContainSubstring("demo_test.go:" + strconv.Itoa(demoLine("HaveAtLeastNExclusions", 1)) + ": " + first))
		Expect(out).To(ContainSubstring("demo_test.go:" + strconv.Itoa(demoLine("IncludeItemWithKind", 1)) + ": " + second))
		Expect(out).To(ContainSubstring("--- FAIL: TestPlainDemo"))
	})

	It("with Require stops the test at the first failure, at its caller's line", func() {
		out := runDemo("require", "TestRequireDemo")
		Expect(out).To(ContainSubstring("DEMO: before the chain"))
		Expect(out).To(ContainSubstring("demo_test.go:" + strconv.Itoa(demoLine("HaveAtLeastNExclusions", 2)) + ": " + first))
		Expect(out).NotTo(ContainSubstring("IncludeItemWithKind(Memory) failed"))
		Expect(out).NotTo(ContainSubstring("DEMO: after the chain"))
		Expect(out).To(ContainSubstring("--- FAIL: TestRequireDemo"))
	})

	It("under Ginkgo's GinkgoT() stops the spec at the first failure, at its caller's line", func() {
		out := runDemo("ginkgo", "TestGinkgoDemo")
		Expect(out).To(ContainSubstring(first))
		Expect(out).To(ContainSubstring("DEMO: before the chain"))
		Expect(out).NotTo(ContainSubstring("IncludeItemWithKind(Memory) failed"))
		Expect(out).NotTo(ContainSubstring("DEMO: after the chain"))
		loc := regexp.MustCompile(`demo_test\.go:(\d+)`).FindAllStringSubmatch(out, -1)
		Expect(loc).NotTo(BeEmpty())
		lines := []string{}
		for _, m := range loc {
			lines = append(lines, m[1])
		}
		Expect(lines).To(ContainElement(strconv.Itoa(demoLine("HaveAtLeastNExclusions", 3))))
		Expect(out).To(ContainSubstring("1 Failed"))
	})
})
