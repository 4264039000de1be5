package casefile

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
	"github.com/sebdah/goldie/v2"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/policy"
)

// The protocol's form of a case is fixed by PROTOCOL.md, and implementations
// in other languages parse it: the golden holds the configuration of every
// embedded vector as a run message carries it, so a changed key or shape
// shows as a diff.
var _ = ginkgo.Describe("a case's protocol form", func() {
	suite, err := LoadSuite(nil)

	ginkgo.It("is the golden for every embedded vector, and reads back as the same policy.Spec", func() {
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		gomega.Expect(suite.Errors).To(gomega.BeEmpty())
		var golden bytes.Buffer
		for _, c := range suite.Cases {
			wire, err := json.Marshal(c.Input)
			gomega.Expect(err).NotTo(gomega.HaveOccurred(), c.ID)
			var back Input
			gomega.Expect(json.Unmarshal(wire, &back)).To(gomega.Succeed(), c.ID)
			// The policy file's JSON of both specs; and, where no NaN
			// (which equals nothing) is in the way, the specs themselves.
			policy, err := json.Marshal(c.Input.Spec)
			gomega.Expect(err).NotTo(gomega.HaveOccurred(), c.ID)
			gomega.Expect(json.Marshal(back.Spec)).To(gomega.Equal(policy), "%s: %s", c.ID, wire)
			if !bytes.Contains(policy, []byte(`"NaN"`)) {
				gomega.Expect(back.Spec).To(gomega.Equal(c.Input.Spec), "%s: %s", c.ID, wire)
			}
			again, err := json.Marshal(back)
			gomega.Expect(err).NotTo(gomega.HaveOccurred(), c.ID)
			gomega.Expect(string(again)).To(gomega.Equal(string(wire)), c.ID)

			config, err := json.Marshal(Input{Spec: c.Input.Spec, Budget: c.Input.Budget})
			gomega.Expect(err).NotTo(gomega.HaveOccurred(), c.ID)
			golden.WriteString(c.ID + " " + string(config) + "\n")
		}
		g := goldie.New(ginkgo.GinkgoTB(), goldie.WithFixtureDir("testdata/golden"), goldie.WithNameSuffix(".jsonl"))
		g.Assert(ginkgo.GinkgoTB(), "wire-configs", golden.Bytes())
	})

	ginkgo.It("states the defaults a policy fills in, and refuses what it has no key for", func() {
		marshal := func(spec policy.Spec) string {
			b, err := json.Marshal(Input{Spec: spec})
			gomega.Expect(err).NotTo(gomega.HaveOccurred())
			return string(b)
		}
		// A kind scorer without weights uses the default weights, as a
		// policy builds it; a quota without percentages is 0 to 100; a
		// metadata_key scorer states its three keys.
		gomega.Expect(marshal(policy.Spec{Scorers: []policy.ScorerSpec{{Type: "kind"}}})).To(gomega.Equal(
			`{"scorer":{"type":"kind","use_default_weights":true},"items":null}`))
		gomega.Expect(marshal(policy.Spec{Scorers: []policy.ScorerSpec{{Type: "kind", UseDefaultWeights: cupel.Ptr(false)}}})).To(gomega.Equal(
			`{"scorer":{"type":"kind"},"items":null}`))
		gomega.Expect(marshal(policy.Spec{Slicer: "quota", Quotas: []policy.QuotaSpec{{Kind: "Document"}}})).To(gomega.Equal(
			`{"slicer":{"type":"quota","quotas":[{"kind":"Document","require":0,"cap":100}]},"items":null}`))
		gomega.Expect(marshal(policy.Spec{Scorers: []policy.ScorerSpec{{Type: "metadata_key"}}})).To(gomega.Equal(
			`{"scorer":{"type":"metadata_key","key":"","value":"","boost":0},"items":null}`))
		// Scorers is a composite of its entries; an inner kind scorer in
		// its default configuration says so; an inner knapsack carries the
		// bucket size.
		gomega.Expect(marshal(policy.Spec{Scorers: []policy.ScorerSpec{
			{Type: "recency", Weight: cupel.Ptr[Float](2)}, {Type: "scaled", Inner: &policy.ScorerSpec{Type: "kind"}, Weight: cupel.Ptr[Float](1)}}})).To(gomega.Equal(
			`{"scorer":{"type":"composite","children":[{"weight":2,"scorer":{"type":"recency"}},` +
				`{"weight":1,"scorer":{"type":"scaled","inner":{"type":"kind","use_default_weights":true}}}]},"items":null}`))
		gomega.Expect(marshal(policy.Spec{Slicer: "count_quota", InnerSlicer: "knapsack", BucketSize: cupel.Ptr(7)})).To(gomega.Equal(
			`{"slicer":{"type":"count_quota","inner":{"type":"knapsack","bucket_size":7}},"items":null}`))

		for what, spec := range map[string]policy.Spec{
			"table_limit":                     {TableLimit: 10},
			"scorer.children[0].weight":       {Scorers: []policy.ScorerSpec{{Type: "composite", Children: []policy.ScorerSpec{{Type: "recency"}}}}},
			"scorer.inner.weight":             {Scorers: []policy.ScorerSpec{{Type: "scaled", Inner: &policy.ScorerSpec{Type: "recency", Weight: cupel.Ptr[Float](1)}}}},
			"scorer.children[1].inner.weight": {Scorers: []policy.ScorerSpec{{Type: "recency", Weight: cupel.Ptr[Float](1)}, {Type: "scaled", Weight: cupel.Ptr[Float](1), Inner: &policy.ScorerSpec{Type: "recency", Weight: cupel.Ptr[Float](1)}}}},
		} {
			_, err := json.Marshal(Input{Spec: spec})
			gomega.Expect(err).To(gomega.MatchError(cupel.ErrInvalidConfig))
			gomega.Expect(err).To(gomega.MatchError(gomega.ContainSubstring(what)))
		}
	})

	ginkgo.It("reads what the protocol states, the flag of a kind scorer included, and refuses an inner slicer with its own configuration", func() {
		var in Input
		gomega.Expect(json.Unmarshal([]byte(`{"scorer":{"type":"composite","children":[{"weight":1.5,"scorer":{"type":"kind"}},`+
			`{"weight":1,"scorer":{"type":"kind","use_default_weights":true,"weights":[{"kind":"Message","weight":1}]}},`+
			`{"weight":1,"scorer":{"type":"decay","reference_time":"2024-01-01T00:00:00Z","curve":{"type":"window","max_age_secs":60}}}]},`+
			`"slicer":{"type":"quota","inner":{"type":"knapsack","bucket_size":9},"quotas":[{"kind":"Document","require":5,"cap":50}]},`+
			`"placer":"u-shaped","deduplication":false,"overflow_strategy":"proceed","items":[]}`), &in)).To(gomega.Succeed())
		ref := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
		gomega.Expect(in.Spec).To(gomega.Equal(policy.Spec{
			Scorers: []policy.ScorerSpec{{Type: "composite", Children: []policy.ScorerSpec{
				{Type: "kind", Weight: cupel.Ptr[Float](1.5), UseDefaultWeights: cupel.Ptr(false)},
				// With use_default_weights the weights are not used.
				{Type: "kind", Weight: cupel.Ptr[Float](1), UseDefaultWeights: cupel.Ptr(true)},
				{Type: "decay", Weight: cupel.Ptr[Float](1), ReferenceTime: &ref, Curve: &policy.CurveSpec{Type: "window", MaxAgeSecs: cupel.Ptr[Float](60)}},
			}}},
			Slicer: "quota", InnerSlicer: "knapsack", BucketSize: cupel.Ptr(9),
			Quotas: []policy.QuotaSpec{{Kind: "Document", Require: cupel.Ptr[Float](5), Cap: cupel.Ptr[Float](50)}},
			Placer: "u-shaped", Deduplication: cupel.Ptr(false), OverflowStrategy: "proceed",
		}))
		gomega.Expect(in.Items).To(gomega.BeEmpty())
		err := json.Unmarshal([]byte(`{"slicer":{"type":"quota","inner":{"type":"count_quota","entries":[]}},"items":[]}`), &in)
		gomega.Expect(err).To(gomega.MatchError(cupel.ErrInvalidConfig))
		gomega.Expect(err).To(gomega.MatchError(gomega.ContainSubstring("slicer.inner: an inner slicer count_quota with a configuration of its own")))
	})
})
