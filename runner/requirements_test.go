package runner_test

import (
	"bytes"
	"os"
	"strings"
	"testing/fstest"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/bound"
	"github.com/cupel-go/go-cupel/internal/oracleimpl"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
	"github.com/cupel-go/go-cupel/runner/requirement"
)

// testCatalogue is runner/testdata/requirements, the catalogue the
// fixture suite's covers refer to.
func testCatalogue() *requirement.Catalogue {
	GinkgoHelper()
	cat, err := requirement.Load(os.DirFS("testdata/requirements"))
	Expect(err).NotTo(HaveOccurred())
	return cat
}

// reqOptions are fixtureOptions judged against the test catalogue.
func reqOptions() runner.Options {
	o := fixtureOptions()
	o.Catalogue = testCatalogue()
	return o
}

// The fixture cases and the requirements they cover
// (runner/testdata/suite, runner/testdata/requirements).
const (
	greedyCase    = "required/slicing/greedy-density-order"                 // R26.1
	pipelineCase  = "required/pipeline/pipeline-basic-greedy-chronological" // R6.1, R26.1
	knapsackCase  = "optional/slicing/knapsack-table-too-large"             // R27.1
	compositeCase = "optional/scoring/composite-construction-empty"         // R20.2, RL3
)

// coveredOnlyOptional are the testable requirements of the test catalogue
// that only optional cases cover, or none (R26.2), in catalogue order.
var coveredOnlyOptional = []string{"R20.2", "R22.1", "R26.2", "R27.1", "R29.1", "R29.2", "R38.1", "RL3"}

// without is all but the ids in drop, in order.
func without(all []string, drop ...string) []string {
	out := []string{}
	for _, id := range all {
		keep := true
		for _, d := range drop {
			keep = keep && id != d
		}
		if keep {
			out = append(out, id)
		}
	}
	return out
}

// testable are the test catalogue's protocol requirements, in order.
var testable = []string{"R6.1", "R6.2", "R6.3", "R14.1", "R20.1", "R20.2", "R22.1", "R26.1", "R26.2", "R27.1", "R28.1", "R29.1", "R29.2", "R33.1", "R38.1", "RL3"}

var _ = Describe("The requirements of a run", func() {
	It("carries each case's covers, and decides met, failed and untested over the testable requirements", func() {
		o := newOracle()
		o.Mutate = breakCase(greedyCase)
		rep := runWith(o, reqOptions())
		for _, c := range rep.Cases {
			Expect(c.Requirements).To(Equal(fixtures().Case(c.ID).Covers), c.ID)
		}
		q := rep.Requirements
		Expect(q.Testable).To(Equal(16), "R6.4 (api) and R27.2 (none) are not testable")
		// R26.1 is covered by a case that passes and one that fails.
		Expect(q.Failed.IDs).To(Equal([]string{"R26.1"}))
		Expect(q.Untested.IDs).To(Equal([]string{"R26.2"}), "no case covers R26.2")
		Expect(q.Met.IDs).To(Equal(without(testable, "R26.1", "R26.2")))
		Expect([]int{q.Met.Count, q.Failed.Count, q.Untested.Count}).To(Equal([]int{14, 1, 1}))
		Expect(q.Unchecked).To(BeNil(), "no level reached")
		Expect(q.Summary()).To(Equal("14 of 16 testable requirements met (1 failed, 1 untested)"))
		Expect(q.UncheckedSummary()).To(BeEmpty())
	})

	It("says which testable requirements the level reached leaves unchecked", func() {
		o := newOracle()
		o.Mutate = breakCase(knapsackCase)
		rep := runWith(o, reqOptions())
		Expect(rep.Level).To(Equal(runner.LevelConformant))
		q := rep.Requirements
		Expect(q.Failed.IDs).To(Equal([]string{"R27.1"}))
		Expect(q.Unchecked.Level).To(Equal(runner.LevelConformant))
		Expect(q.Unchecked.IDs).To(Equal(coveredOnlyOptional))
		Expect(q.Unchecked.Count).To(Equal(8))
		Expect(q.UncheckedSummary()).To(Equal("Cupel Conformant leaves 8 testable requirements unchecked (no required case covers them)"))

		rep = runWith(newOracle(), reqOptions())
		Expect(rep.Level).To(Equal(runner.LevelFullyConformant))
		q = rep.Requirements
		Expect(q.Met.IDs).To(Equal(without(testable, "R26.2")))
		Expect(q.Unchecked.IDs).To(Equal([]string{"R26.2"}))
		Expect(q.UncheckedSummary()).To(Equal("Cupel Fully Conformant leaves 1 testable requirement unchecked (no case covers it)"))
	})

	It("counts an expected failure as failed, and a requirement not every covering case ran as untested", func() {
		o := newOracle()
		o.Mutate = breakCase(compositeCase)
		opts := reqOptions()
		x, err := runner.ParseExpectedFailures("x.toml", []byte("[[expected_failure]]\nid = \""+compositeCase+"\"\nstatus = \"fail\"\nreason = \"known\"\n"))
		Expect(err).NotTo(HaveOccurred())
		opts.ExpectedFailures = x
		rep := runWith(o, opts)
		Expect(rep.Verdict().Passed).To(BeTrue(), "the failure is pinned")
		Expect(rep.Requirements.Failed.IDs).To(Equal([]string{"R20.2", "RL3"}))

		// Only the greedy case runs: R26.1's other case is filtered out.
		opts = reqOptions()
		opts.Run = "^" + greedyCase + "$"
		rep = runWith(newOracle(), opts)
		q := rep.Requirements
		Expect(q.Met.IDs).To(BeEmpty())
		Expect(q.Failed.IDs).To(BeEmpty())
		Expect(q.Untested.IDs).To(Equal(testable))
		opts.Run = "^(" + greedyCase + "|" + pipelineCase + ")$"
		rep = runWith(newOracle(), opts)
		Expect(rep.Requirements.Met.IDs).To(Equal([]string{"R6.1", "R26.1"}))
	})

	It("counts an unsupported case as untested", func() {
		o := newOracle()
		o.Mutate = func(c *casefile.Case, r *protocol.Result) {
			if c.ID == greedyCase {
				*r = protocol.Result{Kind: protocol.ResultUnsupported, Reason: "no greedy"}
			}
		}
		rep := runWith(o, reqOptions())
		Expect(rep.Requirements.Untested.IDs).To(Equal([]string{"R26.1", "R26.2"}))
		Expect(rep.Requirements.Failed.IDs).To(BeEmpty())
	})

	It("keeps ids the catalogue does not hold on their case, without judging them, and bounds what it keeps", func() {
		base, err := os.ReadFile("testdata/suite/required/scoring/recency-basic.toml")
		Expect(err).NotTo(HaveOccurred())
		long := strings.Repeat("X", 300)
		ids := []string{`"FOREIGN-1"`, `"R14.1"`, `"` + long + `"`}
		for i := range 100 {
			ids = append(ids, `"F`+strings.Repeat("9", i%3)+`.`+string(rune('a'+i%26))+`"`)
		}
		data := bytes.Replace(base, []byte(`covers = ["R14.1"]`), []byte("covers = ["+strings.Join(ids, ", ")+"]"), 1)
		Expect(data).NotTo(Equal(base))
		fsys := fstest.MapFS{"required/scoring/recency-basic.toml": {Data: data}}
		suite, err := casefile.LoadSuite(fsys)
		Expect(err).NotTo(HaveOccurred())
		opts := runner.Options{Suite: fsys, Catalogue: testCatalogue()}
		rep, err := runner.RunSuite(ctx(), oracleimpl.New(suite), suite, opts)
		Expect(err).NotTo(HaveOccurred())
		got := rep.Cases[0].Requirements
		Expect(got).To(HaveLen(bound.MaxList))
		Expect(got[:2]).To(Equal([]string{"FOREIGN-1", "R14.1"}))
		Expect(got[2]).To(Equal(bound.Name(long)))
		Expect(len([]rune(got[2]))).To(Equal(bound.MaxName))
		Expect(got[bound.MaxList-1]).To(Equal("… [40 more cut]"))
		_, ok := rep.Requirement("FOREIGN-1")
		Expect(ok).To(BeFalse())
		r, ok := rep.Requirement("R14.1")
		Expect(ok).To(BeTrue())
		Expect(r.Title).To(Equal("RecencyScorer"))
		Expect(rep.Requirements.Met.IDs).To(Equal([]string{"R14.1"}))
		Expect(rep.Requirements.Testable).To(Equal(16))
	})

	It("of merged shards is the unsharded run's, decided again from the merged cases", func() {
		o := newOracle()
		o.Mutate = breakCase(greedyCase)
		whole := runWith(o, reqOptions())
		for _, n := range []int{2, 3, 5} {
			var parts []*runner.Report
			for i := 1; i <= n; i++ {
				opts := reqOptions()
				opts.Shard = runner.Shard{Index: i, Count: n}
				part := runWith(o, opts)
				Expect(part.Requirements).NotTo(Equal(whole.Requirements), "a shard alone does not run every case")
				back := throughJSON(part)
				Expect(back.Requirements).To(Equal(part.Requirements), "the JSON report carries them")
				back.SetCatalogue(testCatalogue()) // read back, a report is judged against the embedded catalogue
				Expect(back.Requirements).To(Equal(part.Requirements))
				parts = append(parts, back)
			}
			merged, err := runner.MergeReports(parts)
			Expect(err).NotTo(HaveOccurred())
			Expect(merged.Requirements).To(Equal(whole.Requirements), "%d shards", n)
			for i, c := range merged.Cases {
				Expect(c.Requirements).To(Equal(whole.Cases[i].Requirements))
			}
		}
	})
})
