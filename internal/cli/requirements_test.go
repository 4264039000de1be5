package cli

import (
	"bytes"
	"encoding/json"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/sebdah/goldie/v2"
)

// The small catalogue and suite of testdata/requirements: R26.1 has a
// required and an optional vector, RL26 an optional one, R26.2 and R23.1
// (protocol) none; R26.3 is api, R26.4 none; one vector covers nothing.
const (
	testCatalogue = "testdata/requirements/catalogue"
	testSuite     = "testdata/requirements/suite"
)

// cupelConform runs the command and returns its exit code, stdout and
// stderr.
func cupelConform(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := Main(args, strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

var _ = Describe("cupel-conform requirements", func() {
	DescribeTable("prints the catalogue with its coverage",
		func(golden string, flags ...string) {
			code, stdout, stderr := cupelConform(append([]string{"requirements", "--catalogue", testCatalogue, "--suite", testSuite}, flags...)...)
			Expect(stderr).To(BeEmpty())
			if len(flags) > 0 && flags[len(flags)-1] == "--uncovered" {
				Expect(code).To(Equal(exitFail), "R26.2 and R23.1 have no vector")
			} else {
				Expect(code).To(Equal(exitOK))
			}
			g := goldie.New(GinkgoTB(), goldie.WithFixtureDir("testdata/golden"))
			g.Assert(GinkgoTB(), golden, []byte(stdout))
		},
		Entry("as text", "requirements.txt"),
		Entry("as Markdown", "requirements.md", "--markdown"),
		Entry("as JSON", "requirements.json", "--json"),
		Entry("uncovered, as text", "requirements-uncovered.txt", "--uncovered"),
		Entry("uncovered, as Markdown", "requirements-uncovered.md", "--markdown", "--uncovered"),
		Entry("uncovered, as JSON", "requirements-uncovered.json", "--json", "--uncovered"),
	)

	It("gives each requirement its vectors and tiers in JSON, and the summary's counts", func() {
		_, stdout, _ := cupelConform("requirements", "--catalogue", testCatalogue, "--suite", testSuite, "--json")
		var out struct {
			Schema  string `json:"schema"`
			Summary struct {
				Protocol         int `json:"protocol"`
				Covered          int `json:"protocol_covered"`
				RequiredProtocol int `json:"required_chapters_protocol"`
				RequiredCovered  int `json:"required_chapters_required_tier"`
			} `json:"summary"`
			Requirements []struct {
				ID      string `json:"id"`
				URL     string `json:"url"`
				Vectors []struct{ ID, Tier string }
			} `json:"requirements"`
		}
		Expect(json.Unmarshal([]byte(stdout), &out)).To(Succeed())
		Expect(out.Schema).To(Equal(RequirementsSchema))
		Expect(out.Summary.Protocol).To(Equal(4))
		Expect(out.Summary.Covered).To(Equal(2))
		Expect([]int{out.Summary.RequiredCovered, out.Summary.RequiredProtocol}).To(Equal([]int{1, 2}), "chapter 26 is required, chapter 23 and the rulings are not")
		Expect(out.Requirements[1].ID).To(Equal("R26.1"))
		Expect(out.Requirements[1].Vectors).To(HaveLen(2))
		Expect(out.Requirements[1].Vectors[1].Tier).To(Equal("required"))
	})

	It("exits 0 with --uncovered when every protocol requirement has a vector", func() {
		code, stdout, _ := cupelConform("requirements", "--catalogue", testCatalogue+"/../covered", "--suite", testSuite, "--uncovered")
		Expect(code).To(Equal(exitOK))
		Expect(stdout).To(ContainSubstring("that no vector covers: 0\n"))
	})

	It("refuses two formats, and a catalogue that is not a directory", func() {
		code, _, stderr := cupelConform("requirements", "--json", "--markdown")
		Expect(code).To(Equal(exitUsage))
		Expect(stderr).To(ContainSubstring("choose one format"))
		code, _, stderr = cupelConform("requirements", "--catalogue", testSuite+"/optional/scoring/bare.toml")
		Expect(code).To(Equal(exitUsage))
		Expect(stderr).To(ContainSubstring("is not a directory"))
	})
})

var _ = Describe("cupel-conform lint's coverage", func() {
	It("holds a suite that uses covers to the catalogue, with file and line", func() {
		code, stdout, stderr := cupelConform("lint", "--catalogue", testCatalogue, "--suite", testSuite)
		Expect(code).To(Equal(exitFail))
		Expect(strings.Split(strings.TrimSpace(stdout), "\n")).To(Equal([]string{
			"optional/scoring/bare.toml: covers no requirement: [test] covers must name the requirements the case checks",
			testCatalogue + "/23-decayscorer.toml: R23.1: tested by the protocol, and no vector covers it (A decay curve should be monotone.)",
			testCatalogue + "/26-greedyslice.toml: R26.2: tested by the protocol, and no vector covers it (An item that does not fit is skipped | and the walk goes on <with the next>.)",
		}))
		Expect(stderr).To(Equal("3 files, 3 errors, 0 ignored keys\ncoverage of 6 requirements: 0 unknown ids, 1 vectors that cover none, 2 protocol requirements without a vector\n"))
	})

	It("checks only the ids with --coverage off", func() {
		code, stdout, stderr := cupelConform("lint", "--catalogue", testCatalogue, "--suite", testSuite, "--coverage", "off")
		Expect(code).To(Equal(exitOK))
		Expect(stdout).To(BeEmpty())
		Expect(stderr).To(ContainSubstring("coverage not checked"))
	})

	It("refuses an unknown --coverage", func() {
		code, _, stderr := cupelConform("lint", "--coverage", "maybe")
		Expect(code).To(Equal(exitUsage))
		Expect(stderr).To(ContainSubstring(`"maybe" is not auto, on or off`))
	})
})
