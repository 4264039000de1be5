package runner_test

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"strings"
	"testing/fstest"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/policy"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
	"github.com/cupel-go/go-cupel/vectors"
)

func load(name, src string) (*casefile.Case, error) { return casefile.LoadCase(name, []byte(src)) }

var _ = Describe("Loader", func() {
	It("loads every fixture into canonical cases sorted by id, with a digest", func() {
		s := fixtures()
		Expect(s.Cases).To(HaveLen(14))
		Expect(s.Digest).To(HaveLen(64))
		for i := 1; i < len(s.Cases); i++ {
			Expect(s.Cases[i-1].ID < s.Cases[i].ID).To(BeTrue())
		}
		c := s.Case("required/scoring/recency-basic")
		Expect(c).NotTo(BeNil())
		Expect(c.Tier).To(Equal("required"))
		Expect(c.Stage).To(Equal("scoring"))
		Expect(c.Input.Scorers[0].Type).To(Equal("recency"))
		Expect(c.Expect.Epsilon).To(Equal(1e-9))
	})

	It("loads the embedded suite without a single error", func() {
		s, err := casefile.LoadSuite(vectors.FS)
		Expect(err).NotTo(HaveOccurred())
		for _, e := range s.Errors {
			Fail("embedded vector does not load: " + e.Error())
		}
	})

	It("computes the digest over sorted path and file hashes", func() {
		a, _ := casefile.LoadSuite(fstest.MapFS{"required/scoring/x.toml": {Data: []byte("x")}})
		b, _ := casefile.LoadSuite(fstest.MapFS{"required/scoring/x.toml": {Data: []byte("y")}})
		c, _ := casefile.LoadSuite(fstest.MapFS{"required/scoring/x.toml": {Data: []byte("x")}, "README.md": {Data: []byte("z")}})
		Expect(a.Digest).NotTo(Equal(b.Digest))
		Expect(a.Digest).To(Equal(c.Digest), "only .toml files count")
	})

	It("reports malformed and unknown-schema files with file, line and reason, and loads the rest", func() {
		s, err := casefile.LoadSuite(os.DirFS("testdata/broken"))
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Cases).To(HaveLen(1))
		msgs := map[string]string{}
		for _, e := range s.Errors {
			Expect(e).To(MatchError(casefile.ErrSuite))
			msgs[e.File] = e.Error()
		}
		Expect(msgs).To(HaveKeyWithValue("required/scoring/bad-syntax.toml", ContainSubstring(":8: invalid TOML")))
		Expect(msgs).To(HaveKeyWithValue("required/scoring/wrong-stage.toml", ContainSubstring(`:3: [test] stage = "pipeline" disagrees with the path's stage "scoring"`)))
		Expect(msgs).To(HaveKeyWithValue("optional/placing/missing-content.toml", ContainSubstring(`:6: [items]: missing required key "content"`)))
		Expect(msgs).To(HaveKeyWithValue("optional/placing/unknown-content.toml", ContainSubstring(`no item has content "zzz"`)))
		Expect(msgs).To(HaveKeyWithValue("misplaced/x.toml", ContainSubstring("<tier>/<stage>")))
	})

	It("rejects an unknown stage and a wrongly typed value", func() {
		_, err := load("required/foo/x.toml", "[test]\nstage = \"foo\"\n")
		Expect(err).To(MatchError(ContainSubstring(`stage "foo"`)))
		_, err = load("required/scoring/x.toml", "[test]\nstage = \"scoring\"\nscorer = \"recency\"\n[[items]]\ncontent = \"a\"\ntokens = \"ten\"\n")
		Expect(err).To(MatchError(ContainSubstring(`x.toml:6: items.tokens: want an integer, got string`)))
		_, err = load("required/scoring/x.toml", "[test]\nname = \"x\"\n")
		Expect(err).To(MatchError(ContainSubstring(`missing required key "stage"`)))
	})

	It("reads TOML 1.1 datetimes without seconds as UTC instants", func() {
		c, err := load("optional/scoring/x.toml", `[test]
stage = "scoring"
scorer = "recency"
[[items]]
content = "a"
tokens = 1
timestamp = 2024-01-01T02:00+02:00
`)
		Expect(err).NotTo(HaveOccurred())
		Expect(*c.Input.Items[0].Timestamp).To(Equal(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)))
		b, _ := json.Marshal(c.Input.Items[0])
		Expect(string(b)).To(ContainSubstring(`"timestamp":"2024-01-01T00:00:00Z"`))
	})

	It("reads what other suites write: string datetimes, slot arrays, placing items without score or tokens, missing expectations", func() {
		c, err := load("required/pipeline/x.toml", `[test]
stage = "pipeline"
[budget]
max_tokens = 10
target_tokens = 10
[[budget.reserved_slots]]
kind = "Document"
tokens = 3
[config]
slicer = "greedy"
placer = "u-shaped"
[[items]]
content = "a"
tokens = 1
timestamp = "2024-01-01T00:00:00.5Z"
`)
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Input.Budget.ReservedSlots).To(Equal(map[string]int64{"Document": 3}))
		Expect(c.Input.Items[0].Timestamp.Nanosecond()).To(Equal(500000000))
		Expect(c.Input.Scorers[0].Type).To(Equal("composite"))
		Expect(c.Input.Scorers[0].Children).To(BeEmpty())

		p, err := load("optional/placing/x.toml", "[test]\nstage = \"placing\"\nplacer = \"chronological\"\n[[items]]\ncontent = \"a\"\n")
		Expect(err).NotTo(HaveOccurred())
		Expect(float64(*p.Input.Items[0].Score)).To(Equal(0.0))
		Expect(p.Expect.Ordered).To(BeEmpty())

		s, err := load("optional/slicing/x.toml", "[test]\nstage = \"slicing\"\nslicer = \"greedy\"\n[budget]\ntarget_tokens = 0\n")
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Expect.Selected).To(BeEmpty())
		Expect(s.Input.Items).NotTo(BeNil(), "items are [] on the wire, never null")
	})

	It("fills in defaults and lists unknown keys", func() {
		c, err := load("required/slicing/x.toml", `[test]
stage = "slicing"
slicer = "quota"
mystery = 1
[budget]
target_tokens = 300
[config]
inner_slicer = "knapsack"
[[config.quotas]]
kind = "Document"
[[scored_items]]
content = "a"
tokens = 10
score = 0.5
extra = true
[expected]
selected_contents = []
`)
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Input.Budget.MaxTokens).To(Equal(int64(300)))
		Expect(c.Input.Items[0].Kind).To(Equal("Message"))
		Expect(c.Input.Items[0].Source).To(Equal("Chat"))
		Expect(c.Input.InnerSlicer).To(Equal("knapsack"))
		Expect(*c.Input.BucketSize).To(Equal(100))
		Expect(c.Input.Quotas).To(Equal([]policy.QuotaSpec{{Kind: "Document", Require: cupel.Ptr[casefile.Float](0), Cap: cupel.Ptr[casefile.Float](100)}}))
		Expect(c.Expect.Selected).To(BeEmpty())
		Expect(c.Expect.Selected).NotTo(BeNil())
		Expect(c.UnknownKeys).To(Equal([]string{"scored_items.extra", "test.mystery"}))
	})

	It("resolves content references by position: first unmatched item, or an explicit index", func() {
		c := fixtures().Case("optional/pipeline/diagnostics-duplicate-content")
		Expect(c.Expect.Ordered[0].Resolved).To(Equal(0))
		Expect(c.Expect.Diagnostics.Included[0].Resolved).To(Equal(0))
		Expect(c.Expect.Diagnostics.Excluded[0].Resolved).To(Equal(1))
		Expect(c.Expect.Diagnostics.Excluded[0].Fields).To(Equal(map[string]any{"item_tokens": int64(400), "available_tokens": int64(50)}))
		Expect(c.UnknownKeys).To(ConsistOf("test.future_key"))

		s, err := load("required/scoring/x.toml", `[test]
stage = "scoring"
scorer = "priority"
[[items]]
content = "same"
tokens = 1
priority = 1
[[items]]
content = "same"
tokens = 1
priority = 2
[[expected]]
content = "same"
score_approx = 0.0
[[expected]]
content = "same"
score_approx = 1.0
`)
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Expect.Scores[0].Resolved).To(Equal(0))
		Expect(s.Expect.Scores[1].Resolved).To(Equal(1))
	})

	It("canonicalizes scorers: nested composites, scaled inner tables, one pipeline entry alone, several as a composite", func() {
		c, err := load("optional/pipeline/x.toml", `[test]
stage = "pipeline"
[budget]
max_tokens = 10
target_tokens = 10
[config]
slicer = "knapsack"
bucket_size = 5
placer = "u-shaped"
[[config.scorers]]
type = "kind"
weight = 2.0
[[config.scorers]]
type = "composite"
weight = 1.0
[[config.scorers.children]]
type = "scaled"
weight = 1.0
inner_scorer = "tag"
`)
		Expect(err).NotTo(HaveOccurred())
		sc := c.Input.Scorers[0]
		Expect(sc.Type).To(Equal("composite"))
		Expect(sc.Children).To(HaveLen(2))
		Expect(*sc.Children[0].UseDefaultWeights).To(BeTrue())
		Expect(sc.Children[1].Children[0].Inner.Type).To(Equal("tag"))
		Expect(*c.Input.BucketSize).To(Equal(5))
		Expect(*c.Input.Deduplication).To(BeTrue())
		Expect(c.Input.OverflowStrategy).To(Equal("throw"))
		Expect(c.Expect.Ordered).To(BeEmpty(), "a missing [[expected_output]] means empty output")
	})

	It("encodes non-finite floats and metadata so that they survive JSON", func() {
		c := fixtures().Case("optional/scoring/metadata-trust-non-finite-float-stored")
		b, err := json.Marshal(c.Input)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(ContainSubstring(`{"float":"NaN"}`))
		var back casefile.Input
		Expect(json.Unmarshal(b, &back)).To(Succeed())
		for i, it := range c.Input.Items {
			for k, v := range it.Metadata {
				if f, ok := v.(float64); ok && math.IsNaN(f) {
					Expect(math.IsNaN(back.Items[i].Metadata[k].(float64))).To(BeTrue())
					continue
				}
				Expect(back.Items[i].Metadata[k]).To(Equal(v))
			}
		}
		for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0.1} {
			b, _ := json.Marshal(casefile.Float(f))
			var g casefile.Float
			Expect(json.Unmarshal(b, &g)).To(Succeed())
			if math.IsNaN(f) {
				Expect(math.IsNaN(float64(g))).To(BeTrue())
			} else {
				Expect(float64(g)).To(Equal(f))
				Expect(math.Signbit(float64(g))).To(Equal(math.Signbit(f)))
			}
		}
		Expect(strings.Contains(string(must(json.Marshal(casefile.Float(math.Copysign(0, -1))))), "-0")).To(BeTrue())
	})

	Describe("count_requirement_shortfalls (pipeline)", func() {
		src := func(expected string) string {
			data, err := os.ReadFile("../vectors/optional/pipeline/pipeline-count-quota-shortfalls.toml")
			Expect(err).NotTo(HaveOccurred())
			body := string(data)
			return body[:strings.Index(body, "[[expected.shortfalls]]")] + expected
		}
		const both = `
[[expected.count_requirement_shortfalls]]
kind = "Memory"
required_count = 2
satisfied_count = 1

[[expected.count_requirement_shortfalls]]
kind = "ToolOutput"
required_count = 1
satisfied_count = 0
`
		It("loads the key in order and passes the engine, whose report has them", func() {
			c, err := load("optional/pipeline/x.toml", src(both))
			Expect(err).NotTo(HaveOccurred())
			Expect(c.UnknownKeys).To(BeEmpty())
			Expect(c.Expect.ReportShortfalls).To(Equal([]casefile.Shortfall{
				{Kind: "Memory", RequiredCount: 2, SatisfiedCount: 1},
				{Kind: "ToolOutput", RequiredCount: 1, SatisfiedCount: 0},
			}))
			r, err := runner.Engine().Run(ctx(), protocol.NewRequest(1, c))
			Expect(err).NotTo(HaveOccurred())
			Expect(runner.Compare(c, r).Outcome).To(Equal(protocol.OutcomePass))
		})

		It("compares in full and in order against the report's shortfalls", func() {
			c, err := load("optional/pipeline/x.toml", src(both))
			Expect(err).NotTo(HaveOccurred())
			r, err := runner.Engine().Run(ctx(), protocol.NewRequest(1, c))
			Expect(err).NotTo(HaveOccurred())
			sf := r.Output.Diagnostics.Shortfalls
			sf[0], sf[1] = sf[1], sf[0]
			v := runner.Compare(c, r)
			Expect(v.Outcome).To(Equal(protocol.OutcomeFail))
			Expect(v.Message).To(ContainSubstring("count_requirement_shortfalls differ (in order)"))

			r.Output.Diagnostics.Shortfalls = sf[:1]
			Expect(runner.Compare(c, r).Outcome).To(Equal(protocol.OutcomeFail))

			r.Output.Diagnostics = nil
			v = runner.Compare(c, r)
			Expect(v.Outcome).To(Equal(protocol.OutcomeFail))
			Expect(v.Message).To(ContainSubstring("no selection report"))
		})

		It("wants the three fields of every entry", func() {
			_, err := load("optional/pipeline/x.toml", src("\n[[expected.count_requirement_shortfalls]]\nkind = \"Memory\"\nrequired_count = 2\n"))
			Expect(err).To(MatchError(ContainSubstring(`missing required key "satisfied_count"`)))
		})
	})

	Describe("a float where an integer belongs", func() {
		vectorSrc := func(tokens string) string {
			return "[test]\nname = \"n\"\nstage = \"scoring\"\nscorer = \"reflexive\"\n\n[[items]]\ncontent = \"a\"\ntokens = " + tokens + "\n\n[[expected]]\ncontent = \"a\"\nscore_approx = 0.0\n"
		}
		It("is read as the integer when it is integral", func() {
			c, err := load("required/scoring/x.toml", vectorSrc("100.0"))
			Expect(err).NotTo(HaveOccurred())
			Expect(c.Input.Items[0].Tokens).To(Equal(int64(100)))
		})
		It("is a suite error with file and line when it is not", func() {
			_, err := load("required/scoring/x.toml", vectorSrc("2.5"))
			var se *casefile.SuiteError
			Expect(errors.As(err, &se)).To(BeTrue())
			Expect(se.File).To(Equal("required/scoring/x.toml"))
			Expect(se.Line).To(Equal(8))
			Expect(err).To(MatchError(ContainSubstring("want an integer")))
			Expect(err.Error()).To(HavePrefix("required/scoring/x.toml:8: "))
		})
		It("is a suite error when it is too large to be exact", func() {
			_, err := load("required/scoring/x.toml", vectorSrc("1e300"))
			Expect(err).To(MatchError(casefile.ErrSuite))
		})
	})
})

func must[T any](v T, err error) T {
	Expect(err).NotTo(HaveOccurred())
	return v
}
