package matrix_test

import (
	"bytes"
	"encoding/json"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/sebdah/goldie/v2"

	"github.com/cupel-go/go-cupel/internal/matrix"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

func golden(name string, got []byte) {
	GinkgoHelper()
	g := goldie.New(GinkgoTB(), goldie.WithFixtureDir("testdata/golden"), goldie.WithNameSuffix(".golden"))
	g.Assert(GinkgoTB(), name, got)
}

var _ = Describe("New", func() {
	It("counts per tier and stage, and lists who passed each disagreeing case, failing ones first", func() {
		m := mustNew(threeImpls())
		Expect(m.Implementations).To(HaveLen(3))
		py := m.Implementations[1]
		Expect(py.Name).To(Equal("python"))
		Expect(py.Level).To(Equal(runner.LevelNone))
		Expect(py.Counts[casefile.TierRequired]).To(Equal(map[protocol.Outcome]int{protocol.OutcomePass: 3, protocol.OutcomeUnsupported: 2}))
		Expect(py.StageCounts["required/scoring"]).To(Equal(map[protocol.Outcome]int{protocol.OutcomePass: 1, protocol.OutcomeUnsupported: 1}))
		Expect(m.Groups).To(Equal([]string{"required/scoring", "required/slicing", "required/placing", "optional/scoring", "optional/pipeline"}))

		ids := []string{}
		for _, d := range m.Disagreements {
			ids = append(ids, d.ID)
		}
		Expect(ids).To(Equal([]string{placeTies, scoreKind, sliceGreed, scoreDecay, pipeBasic}))
		first := m.Disagreements[0]
		Expect(first.Failing).To(BeTrue())
		Expect(first.Passed).To(Equal([]string{"go-cupel", "python"}))
		Expect(first.Outcomes).To(Equal(map[string]protocol.Outcome{"go-cupel": protocol.OutcomePass, "python": protocol.OutcomePass, "broken": protocol.OutcomeFail}))
		Expect(m.Disagreements[1].Failing).To(BeFalse())
		Expect(m.Disagreements[1].Passed).To(Equal([]string{"go-cupel"}))
		Expect(m.Warnings).To(BeEmpty())
	})

	It("attaches the inputs and expectation Options.Case has", func() {
		m := mustNew(threeImpls())
		for _, c := range m.Cases {
			Expect(c.Data != nil).To(Equal(c.ID == placeTies), c.ID)
		}
	})

	It("marks a case a report lacks as absent, and warns about different suites and filtered runs", func() {
		es := threeImpls()
		es[2].Report.Cases = es[2].Report.Cases[1:] // broken lacks scoreRec
		es[2].Report.Suite.Digest = "ffffffffffffffffffff"
		es[1].Report.Filtered = true
		m := mustNew(es)
		var d *matrix.Disagreement
		for i := range m.Disagreements {
			if m.Disagreements[i].ID == scoreRec {
				d = &m.Disagreements[i]
			}
		}
		Expect(d).NotTo(BeNil())
		Expect(d.Outcomes["broken"]).To(Equal(matrix.OutcomeAbsent))
		Expect(d.Passed).To(Equal([]string{"go-cupel", "python"}))
		Expect(d.Failing).To(BeFalse())
		Expect(m.Warnings).To(ConsistOf(
			"broken ran suite ffffffffffff, go-cupel ran suite 0123456789ab: the cases may differ",
			"python's run was filtered: it claims no level"))
	})

	It("leaves the reports as they were", func() {
		es := threeImpls()
		before, err := json.Marshal(es[2].Report)
		Expect(err).NotTo(HaveOccurred())
		m := mustNew(es)
		var buf bytes.Buffer
		Expect(matrix.WriteHTML(&buf, m, matrix.HTMLOptions{})).To(Succeed())
		after, err := json.Marshal(es[2].Report)
		Expect(err).NotTo(HaveOccurred())
		Expect(after).To(MatchJSON(before))
	})

	It("has no disagreements for one implementation", func() {
		m := mustNew(threeImpls()[1:2])
		Expect(m.Disagreements).To(BeEmpty())
	})

	DescribeTable("rejects entries it cannot compare",
		func(mutate func([]runner.NamedReport) []runner.NamedReport, want string) {
			_, err := matrix.New(mutate(threeImpls()), matrix.Options{})
			Expect(err).To(MatchError(matrix.ErrInvalid))
			Expect(err.Error()).To(ContainSubstring(want))
		},
		Entry("none", func([]runner.NamedReport) []runner.NamedReport { return nil }, "no report to compare"),
		Entry("a nil report", func(es []runner.NamedReport) []runner.NamedReport { es[1].Report = nil; return es }, `entry 2 ("python") has no report`),
		Entry("no name", func(es []runner.NamedReport) []runner.NamedReport { es[2].Name = ""; return es }, "entry 3 has no name"),
		Entry("a repeated name", func(es []runner.NamedReport) []runner.NamedReport { es[2].Name = "python"; return es }, `reports 2 and 3 are both named "python"`),
	)
})

var _ = Describe("text and Markdown", func() {
	It("writes the text comparison of three implementations", func() {
		var b bytes.Buffer
		Expect(matrix.WriteText(&b, mustNew(threeImpls()), matrix.TextOptions{MaxCases: 2})).To(Succeed())
		golden("text_three", b.Bytes())
	})

	It("writes the text of one implementation, without a disagreement section", func() {
		var b bytes.Buffer
		Expect(matrix.WriteText(&b, mustNew(threeImpls()[2:]), matrix.TextOptions{})).To(Succeed())
		Expect(b.String()).NotTo(ContainSubstring("disagree"))
		golden("text_one", b.Bytes())
	})

	It("ends with each implementation's verdict line", func() {
		es := threeImpls()
		for _, e := range es {
			e.Report.RequireLevel = runner.LevelConformant
		}
		var b bytes.Buffer
		Expect(matrix.WriteText(&b, mustNew(es), matrix.TextOptions{MaxCases: -1})).To(Succeed())
		var want strings.Builder
		for _, e := range es {
			want.WriteString(e.Name + ": " + e.Report.Verdict().Line() + "\n")
		}
		Expect(b.String()).To(HaveSuffix("\n\n" + want.String()))
		Expect(b.String()).To(ContainSubstring("go-cupel: verdict: PASS — level Cupel Fully Conformant reaches the target Cupel Conformant"))
		Expect(b.String()).To(ContainSubstring("python: verdict: FAIL — 2 gated (2 unsupported); level not conformant misses the target Cupel Conformant"))
		Expect(b.String()).NotTo(ContainSubstring(scoreKind), "MaxCases -1 lists no case")
	})

	It("writes the Markdown matrix and the disagreeing cases", func() {
		var b bytes.Buffer
		Expect(matrix.WriteMarkdown(&b, mustNew(threeImpls()))).To(Succeed())
		golden("markdown_three", b.Bytes())
	})

	It("writes the Markdown of one implementation", func() {
		var b bytes.Buffer
		Expect(matrix.WriteMarkdown(&b, mustNew(threeImpls()[:1]))).To(Succeed())
		golden("markdown_one", b.Bytes())
	})

	It("folds the disagreements where nobody fails after the first 20", func() {
		es := threeImpls()
		for i := range 30 {
			id := "optional/scoring/extra-" + string(rune('a'+i%26)) + strings.Repeat("x", i/26)
			es[0].Report.Cases = append(es[0].Report.Cases, runner.CaseResult{ID: id, Tier: "optional", Stage: "scoring", Outcome: protocol.OutcomePass})
			es[1].Report.Cases = append(es[1].Report.Cases, runner.CaseResult{ID: id, Tier: "optional", Stage: "scoring", Outcome: protocol.OutcomeUnsupported})
			es[2].Report.Cases = append(es[2].Report.Cases, runner.CaseResult{ID: id, Tier: "optional", Stage: "scoring", Outcome: protocol.OutcomeUnsupported})
		}
		var b bytes.Buffer
		Expect(matrix.WriteMarkdown(&b, mustNew(es))).To(Succeed())
		out := b.String()
		Expect(out).To(ContainSubstring("### 35 cases where they disagree"))
		Expect(out).To(ContainSubstring("<details><summary>15 more where only what they support differs</summary>"))
		Expect(strings.Index(out, placeTies)).To(BeNumerically("<", strings.Index(out, "<details>")))
	})
})

var _ = Describe("JSON", func() {
	It("round-trips through Decode with the names and reports", func() {
		m := mustNew(threeImpls())
		var b bytes.Buffer
		Expect(matrix.WriteJSON(&b, m)).To(Succeed())
		var doc map[string]any
		Expect(json.Unmarshal(b.Bytes(), &doc)).To(Succeed())
		Expect(doc).To(HaveKeyWithValue("schema", matrix.Schema))
		Expect(doc).To(HaveKey("reports"))
		Expect(doc["matrix"]).To(HaveKey("disagreements"))

		es, err := matrix.Decode(b.Bytes(), "m.json")
		Expect(err).NotTo(HaveOccurred())
		Expect(es).To(HaveLen(3))
		Expect(es[2].Name).To(Equal("broken"))
		Expect(es[2].Report.Cases[4].Outcome).To(Equal(protocol.OutcomeFail))
		Expect(es[2].Report.Cases[4].Details).To(Equal(tiesDiff))
		again, err := matrix.New(es, matrix.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(again.Disagreements).To(HaveLen(len(m.Disagreements)))
	})

	It("decodes a report, named after its implementation", func() {
		data, err := json.Marshal(threeImpls()[1].Report)
		Expect(err).NotTo(HaveOccurred())
		es, err := matrix.Decode(data, "py.json")
		Expect(err).NotTo(HaveOccurred())
		Expect(es).To(HaveLen(1))
		Expect(es[0].Name).To(Equal("cupel-python-example"))
	})

	DescribeTable("rejects what is not a report or a matrix",
		func(data, want string) {
			_, err := matrix.Decode([]byte(data), "x.json")
			Expect(err).To(MatchError(matrix.ErrFormat))
			Expect(err.Error()).To(HavePrefix("x.json: "))
			Expect(err.Error()).To(ContainSubstring(want))
		},
		Entry("not JSON", "<html>", "invalid character"),
		Entry("no schema", `{"cases": []}`, `no "schema" field`),
		Entry("another schema", `{"schema": "cupel-conform/report/9"}`, `schema "cupel-conform/report/9", want "cupel-conform/report/2" or "cupel-conform/matrix/2"`),
		Entry("an empty matrix", `{"schema": "cupel-conform/matrix/1", "reports": []}`, "the matrix holds no report"),
		Entry("a matrix entry without report", `{"schema": "cupel-conform/matrix/1", "reports": [{"name": "a"}]}`, `reports[0] ("a") has no report`),
	)
})
