package policy_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"time"

	"github.com/BurntSushi/toml"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/policy"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

// tableScorer is a custom scorer: the score of each content.
type tableScorer map[string]float64

func (t tableScorer) Score(it *cupel.ContextItem, _ []*cupel.ContextItem) float64 {
	return t[it.Content()]
}

// validationField is the Field of err's *cupel.ValidationError.
func validationField(err error) string {
	var ve *cupel.ValidationError
	if errors.As(err, &ve) {
		return ve.Field
	}
	return "<not a ValidationError>"
}

var fixedClock = scorer.ClockFunc(func() time.Time { return time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC) })

func fullSpec(scorers []policy.ScorerSpec, slicer policy.Spec, placer string) policy.Spec {
	slicer.Scorers, slicer.Placer, slicer.Deduplication, slicer.OverflowStrategy = scorers, placer, cupel.Ptr(true), "throw"
	return slicer
}

func one(s policy.ScorerSpec) []policy.ScorerSpec { return []policy.ScorerSpec{s} }

func w(v float64) *policy.Float { return cupel.Ptr(policy.Float(v)) }

var greedy = policy.Spec{Slicer: "greedy"}

// canonical specs: what Of returns for each built-in component.
var componentSpecs = map[string]policy.Spec{
	"recency":   fullSpec(one(policy.ScorerSpec{Type: "recency"}), greedy, "chronological"),
	"priority":  fullSpec(one(policy.ScorerSpec{Type: "priority"}), greedy, "u-shaped"),
	"frequency": fullSpec(one(policy.ScorerSpec{Type: "frequency"}), greedy, "chronological"),
	"reflexive": fullSpec(one(policy.ScorerSpec{Type: "reflexive"}), greedy, "chronological"),
	"kind": fullSpec(one(policy.ScorerSpec{Type: "kind", Weights: []policy.KindWeightSpec{{Kind: "Document", Weight: 2.5}, {Kind: "Message", Weight: 0}}}),
		policy.Spec{Slicer: "knapsack", BucketSize: cupel.Ptr(50), TableLimit: 1000000}, "chronological"),
	"kind-zero": fullSpec(one(policy.ScorerSpec{Type: "kind", UseDefaultWeights: cupel.Ptr(false)}), greedy, "chronological"),
	"tag": fullSpec(one(policy.ScorerSpec{Type: "tag", TagWeights: []policy.TagWeightSpec{{Tag: "Important", Weight: 2}, {Tag: "urgent", Weight: 1}}}),
		greedy, "chronological"),
	"composite-scaled": fullSpec([]policy.ScorerSpec{
		{Type: "recency", Weight: w(3)},
		{Type: "scaled", Weight: w(1), Inner: &policy.ScorerSpec{Type: "composite", Children: []policy.ScorerSpec{{Type: "frequency", Weight: w(1)}, {Type: "priority", Weight: w(2)}}}},
	}, greedy, "u-shaped"),
	"composite-one": fullSpec(one(policy.ScorerSpec{Type: "composite", Children: []policy.ScorerSpec{{Type: "recency", Weight: w(2)}}}), greedy, "chronological"),
	"decay-exponential": fullSpec(one(policy.ScorerSpec{Type: "decay", Curve: &policy.CurveSpec{Type: "exponential", HalfLifeSecs: w(86400)}, NullTimestampScore: w(0.25)}),
		greedy, "chronological"),
	"decay-window": fullSpec(one(policy.ScorerSpec{Type: "decay", Curve: &policy.CurveSpec{Type: "window", MaxAgeSecs: w(5400)}, NullTimestampScore: w(0.5)}),
		greedy, "chronological"),
	"decay-step": fullSpec(one(policy.ScorerSpec{Type: "decay", Curve: &policy.CurveSpec{Type: "step", Windows: []policy.WindowSpec{
		{MaxAgeSecs: 3600, Score: 0.9}, {MaxAgeSecs: 86400, Score: 0.5}, {MaxAgeSecs: 259200.5, Score: 0.1}}}, NullTimestampScore: w(0.5)}),
		greedy, "chronological"),
	"metadata": fullSpec([]policy.ScorerSpec{
		{Type: "metadata_trust", Weight: w(1), DefaultScore: w(0.4)},
		{Type: "metadata_key", Weight: w(1), Key: "cupel:priority", Value: "high", Boost: 1.5},
	}, greedy, "chronological"),
	"quota": fullSpec(one(policy.ScorerSpec{Type: "recency"}), policy.Spec{Slicer: "quota", InnerSlicer: "knapsack", BucketSize: cupel.Ptr(10), TableLimit: slicer.DefaultKnapsackTableLimit,
		Quotas: []policy.QuotaSpec{{Kind: "Document", Require: w(20), Cap: w(60)}, {Kind: "ToolOutput", Require: w(0), Cap: w(30)}, {Kind: "Memory", Require: w(5), Cap: w(100)}}}, "chronological"),
	"count-quota": fullSpec(one(policy.ScorerSpec{Type: "recency"}), policy.Spec{Slicer: "count_quota", InnerSlicer: "greedy",
		Entries: []policy.CountEntrySpec{{Kind: "ToolOutput", RequireCount: 1, CapCount: 3}, {Kind: "Memory", RequireCount: 0, CapCount: 0}}, ScarcityBehavior: "throw"}, "chronological"),
	"count-constrained-knapsack": fullSpec(one(policy.ScorerSpec{Type: "recency"}), policy.Spec{Slicer: "count_constrained_knapsack", BucketSize: cupel.Ptr(100), TableLimit: slicer.DefaultKnapsackTableLimit,
		Entries: []policy.CountEntrySpec{{Kind: "ToolOutput", RequireCount: 2, CapCount: 2}}, ScarcityBehavior: "degrade"}, "u-shaped"),
}

var _ = Describe("policy files", func() {
	for name, spec := range componentSpecs {
		It("round-trips "+name+" through Build, Of, JSON and TOML", func() {
			pol, err := spec.Build(policy.WithClock(fixedClock))
			Expect(err).NotTo(HaveOccurred())
			_, err = cupel.NewPipeline(pol)
			Expect(err).NotTo(HaveOccurred())
			back, err := policy.Of(pol)
			Expect(err).NotTo(HaveOccurred())
			Expect(back).To(Equal(spec))

			js, err := json.Marshal(spec)
			Expect(err).NotTo(HaveOccurred())
			fromJSON, err := policy.Decode("p.json", js)
			Expect(err).NotTo(HaveOccurred())
			Expect(fromJSON).To(Equal(spec))

			var buf bytes.Buffer
			Expect(toml.NewEncoder(&buf).Encode(spec)).To(Succeed())
			var fromTOML policy.Spec
			Expect(toml.Unmarshal(buf.Bytes(), &fromTOML)).To(Succeed(), buf.String())
			Expect(fromTOML).To(Equal(spec), buf.String())

			viaFile, err := policy.Decode("p.toml", buf.Bytes())
			Expect(err).NotTo(HaveOccurred())
			Expect(viaFile).To(Equal(spec))
		})
	}

	It("canonicalises quota shorthand (an absent require is 0, an absent cap 100)", func() {
		short := componentSpecs["quota"]
		short.Quotas = []policy.QuotaSpec{{Kind: "Document", Require: w(20), Cap: w(60)}, {Kind: "ToolOutput", Cap: w(30)}, {Kind: "Memory", Require: w(5)}}
		p, err := short.Build()
		Expect(err).NotTo(HaveOccurred())
		back, err := policy.Of(p)
		Expect(err).NotTo(HaveOccurred())
		Expect(back).To(Equal(componentSpecs["quota"]))
	})

	It("reads a hand-written TOML file in the vectors' vocabulary", func() {
		const src = `
placer = "u-shaped"
overflow_strategy = "truncate"
deduplication = false
slicer = "knapsack"
bucket_size = 100

[[scorers]]
type = "recency"
weight = 3.0

[[scorers]]
type = "decay"
weight = 1
curve = { type = "exponential", half_life_secs = 86400 }
`
		spec, err := policy.Decode("policy.toml", []byte(src))
		Expect(err).NotTo(HaveOccurred())
		p, err := spec.Build(policy.WithClock(fixedClock))
		Expect(err).NotTo(HaveOccurred())
		Expect(p.Overflow).To(Equal(cupel.OverflowTruncate))
		Expect(p.DisableDeduplication).To(BeTrue())
		Expect(*spec.Scorers[1].Curve.HalfLifeSecs).To(Equal(policy.Float(86400)))
		Expect(p.Scorer.(*scorer.Composite).Entries()[1].Scorer.(*scorer.Decay).Curve().HalfLife()).To(Equal(24 * time.Hour))
		ks, ok := p.Slicer.(*slicer.Knapsack)
		Expect(ok).To(BeTrue())
		Expect(ks.BucketSize()).To(Equal(100))
	})

	It("reads use_default_weights, and refuses the vectors' other shorthands, naming the key", func() {
		const src = `
slicer = "greedy"
placer = "chronological"

[[scorers]]
type = "scaled"
weight = 1.0
inner = { type = "priority" }

[[scorers]]
type = "composite"
weight = 2.0
[[scorers.children]]
type = "kind"
weight = 1.0
use_default_weights = true
[[scorers.children]]
type = "recency"
weight = 1.0
`
		spec, err := policy.Decode("policy.toml", []byte(src))
		Expect(err).NotTo(HaveOccurred())
		p, err := spec.Build()
		Expect(err).NotTo(HaveOccurred())
		back, err := policy.Of(p)
		Expect(err).NotTo(HaveOccurred())
		Expect(back.Scorers[0].Inner).To(Equal(&policy.ScorerSpec{Type: "priority"}))
		Expect(back.Scorers[1].Children).To(HaveLen(2))
		Expect(back.Scorers[1].Children[0].Type).To(Equal("kind"))
		Expect(back.Scorers[1].Children[1].Type).To(Equal("recency"))

		for key, src := range map[string]string{
			"scorers.inner_scorer": "slicer = \"greedy\"\nplacer = \"chronological\"\n[[scorers]]\ntype = \"scaled\"\ninner_scorer = \"priority\"\n",
			"scorers.scorers":      "slicer = \"greedy\"\nplacer = \"chronological\"\n[[scorers]]\ntype = \"composite\"\n[[scorers.scorers]]\ntype = \"kind\"\nweight = 1.0\n",
		} {
			_, err := policy.Decode("policy.toml", []byte(src))
			Expect(err).To(MatchError(cupel.ErrInvalidConfig), key)
			Expect(err.Error()).To(ContainSubstring("unknown keys: "+key), key)
		}
		_, err = policy.Decode("policy.json", []byte(`{"scorers":[{"type":"scaled","inner_scorer":"priority"}],"slicer":"greedy","placer":"chronological"}`))
		Expect(err).To(MatchError(ContainSubstring(`unknown field "inner_scorer"`)))
	})

	It("fixes a decay scorer's clock at its reference_time", func() {
		src := []byte(`{"scorers":[{"type":"decay","reference_time":"2025-01-01T12:00:00Z","curve":{"type":"window","max_age_secs":3600}}],` + `"slicer":"greedy","placer":"chronological"}`)
		spec, err := policy.Decode("p.json", src)
		Expect(err).NotTo(HaveOccurred())
		p, err := spec.Build()
		Expect(err).NotTo(HaveOccurred())
		ts := time.Date(2025, 1, 1, 11, 30, 0, 0, time.UTC)
		Expect(p.Scorer.Score(cupel.MustItem(cupel.ItemSpec{Content: "a", Tokens: 1, Timestamp: &ts}), nil)).To(Equal(1.0))
		// The reference time wins over WithClock: the file states it.
		late := scorer.ClockFunc(func() time.Time { return ts.Add(24 * time.Hour) })
		p, err = spec.Build(policy.WithClock(late))
		Expect(err).NotTo(HaveOccurred())
		Expect(p.Scorer.Score(cupel.MustItem(cupel.ItemSpec{Content: "a", Tokens: 1, Timestamp: &ts}), nil)).To(Equal(1.0))
	})

	DescribeTable("rejects invalid descriptions, naming the field and the value",
		func(src string, field string) {
			_, err := policy.Decode("bad.json", []byte(src))
			Expect(err).To(MatchError(cupel.ErrInvalidConfig))
			var fe *policy.FileError
			Expect(errors.As(err, &fe)).To(BeTrue())
			Expect(fe.File).To(Equal("bad.json"))
			Expect(err.Error()).To(HavePrefix("bad.json: "))
			if field != "" {
				Expect(validationField(err)).To(Equal(field))
			}
		},
		Entry("unknown scorer", `{"scorers":[{"type":"magic"}],"slicer":"greedy","placer":"chronological"}`, "scorers[0].type"),
		Entry("no scorers", `{"scorers":[],"slicer":"greedy","placer":"chronological"}`, "scorers"),
		Entry("zero composite weight", `{"scorers":[{"type":"recency","weight":1},{"type":"kind","weight":0}],"slicer":"greedy","placer":"chronological"}`, "scorers[1].weight"),
		Entry("missing composite weight", `{"scorers":[{"type":"recency","weight":1},{"type":"kind"}],"slicer":"greedy","placer":"chronological"}`, "scorers[1].weight"),
		Entry("nested composite weight", `{"scorers":[{"type":"composite","children":[{"type":"recency","weight":-1}]}],"slicer":"greedy","placer":"chronological"}`, "scorers[0].children[0].weight"),
		Entry("field of another type", `{"scorers":[{"type":"recency","boost":2}],"slicer":"greedy","placer":"chronological"}`, "scorers[0].boost"),
		Entry("negative kind weight", `{"scorers":[{"type":"kind","weights":[{"kind":"Message","weight":-1}]}],"slicer":"greedy","placer":"chronological"}`, ""),
		Entry("repeated kind", `{"scorers":[{"type":"kind","weights":[{"kind":"Message","weight":1},{"kind":"message","weight":2}]}],"slicer":"greedy","placer":"chronological"}`, "scorers[0].weights[1].kind"),
		Entry("default and custom kind weights", `{"scorers":[{"type":"kind","use_default_weights":true,"weights":[{"kind":"Message","weight":1}]}],"slicer":"greedy","placer":"chronological"}`, "scorers[0].weights"),
		Entry("zero half-life", `{"scorers":[{"type":"decay","curve":{"type":"exponential","half_life_secs":0}}],"slicer":"greedy","placer":"chronological"}`, ""),
		Entry("missing half-life", `{"scorers":[{"type":"decay","curve":{"type":"exponential"}}],"slicer":"greedy","placer":"chronological"}`, "scorers[0].curve.half_life_secs"),
		Entry("duration text", `{"scorers":[{"type":"decay","curve":{"type":"exponential","half_life_secs":"24h"}}],"slicer":"greedy","placer":"chronological"}`, ""),
		Entry("infinite age", `{"scorers":[{"type":"decay","curve":{"type":"window","max_age_secs":"Infinity"}}],"slicer":"greedy","placer":"chronological"}`, "scorers[0].curve.max_age_secs"),
		Entry("scaled scorer without inner", `{"scorers":[{"type":"scaled"}],"slicer":"greedy","placer":"chronological"}`, "scorers[0].inner"),
		Entry("empty nested composite", `{"scorers":[{"type":"composite","children":[]}],"slicer":"greedy","placer":"chronological"}`, "scorers[0].children"),
		Entry("negative bucket", `{"scorers":[{"type":"recency"}],"slicer":"knapsack","bucket_size":-5,"placer":"chronological"}`, ""),
		Entry("zero bucket", `{"scorers":[{"type":"recency"}],"slicer":"knapsack","bucket_size":0,"placer":"chronological"}`, ""),
		Entry("bucket of a greedy slicer", `{"scorers":[{"type":"recency"}],"slicer":"greedy","bucket_size":10,"placer":"chronological"}`, "bucket_size"),
		Entry("invalid count entry", `{"scorers":[{"type":"recency"}],"slicer":"count_quota","entries":[{"kind":"Tool","require_count":3,"cap_count":1}],"placer":"chronological"}`, ""),
		Entry("knapsack inside count_quota", `{"scorers":[{"type":"recency"}],"slicer":"count_quota","inner_slicer":"knapsack","placer":"chronological"}`, ""),
		Entry("unknown inner slicer", `{"scorers":[{"type":"recency"}],"slicer":"quota","inner_slicer":"quota","placer":"chronological"}`, "inner_slicer"),
		Entry("weight on a scaled scorer's inner", `{"scorers":[{"type":"scaled","inner":{"type":"recency","weight":2}}],"slicer":"greedy","placer":"chronological"}`, "scorers[0].inner.weight"),
		Entry("unknown slicer", `{"scorers":[{"type":"recency"}],"slicer":"magic","placer":"chronological"}`, "slicer"),
		Entry("unknown placer", `{"scorers":[{"type":"recency"}],"slicer":"greedy","placer":"random"}`, "placer"),
		Entry("unknown overflow", `{"scorers":[{"type":"recency"}],"slicer":"greedy","placer":"chronological","overflow_strategy":"ignore"}`, "overflow_strategy"),
		Entry("unknown key", `{"scorers":[{"type":"recency","wieght":1}],"slicer":"greedy","placer":"chronological"}`, ""),
		Entry("old nested scorer table", `{"scorer":{"type":"recency"},"slicer":"greedy","placer":"chronological"}`, ""),
		Entry("trailing data", `{"scorers":[{"type":"recency"}],"slicer":"greedy","placer":"chronological"} {}`, ""),
		Entry("not JSON", `scorer = "recency"`, ""),
	)

	It("needs a clock to build decay scorers, not to decode them, and a .toml or .json file", func() {
		spec := componentSpecs["decay-window"]
		_, err := spec.Build()
		Expect(err).To(MatchError(cupel.ErrInvalidConfig))
		Expect(err.Error()).To(ContainSubstring("WithClock"))
		js, err := json.Marshal(spec)
		Expect(err).NotTo(HaveOccurred())
		decoded, err := policy.Decode("P.JSON", js)
		Expect(err).NotTo(HaveOccurred())
		Expect(decoded).To(Equal(spec))
		_, err = policy.Decode("p.toml", []byte(`placer = "u-shaped"`))
		Expect(err).To(MatchError(cupel.ErrInvalidConfig))
		_, err = policy.Decode("p.yaml", nil)
		Expect(err).To(MatchError(cupel.ErrInvalidConfig))
		Expect(err.Error()).To(ContainSubstring(`".yaml"`))
		// The long s folds to s under Unicode rules, not under ASCII ones.
		_, err = policy.Decode("p.j\u017fon", []byte(`{}`))
		Expect(err).To(MatchError(cupel.ErrInvalidConfig))
	})

	It("refuses to describe custom components", func() {
		_, err := policy.Of(cupel.Policy{Scorer: tableScorer{}, Slicer: slicer.NewGreedy(), Placer: placer.NewUShaped()})
		Expect(err).To(MatchError(cupel.ErrInvalidConfig))
		Expect(validationField(err)).To(Equal("scorers[0]"))
	})
})

var _ = Describe("presets", func() {
	want := map[string]struct {
		children []string
		weights  []float64
		slicer   string
		placer   string
	}{
		"chat":         {[]string{"recency", "kind"}, []float64{3, 1}, "greedy", "chronological"},
		"code-review":  {[]string{"kind", "priority", "recency"}, []float64{2, 2, 1}, "greedy", "chronological"},
		"rag":          {[]string{"reflexive", "kind"}, []float64{3, 1}, "greedy", "u-shaped"},
		"document-qa":  {[]string{"kind", "reflexive", "priority"}, []float64{2, 2, 1}, "knapsack", "u-shaped"},
		"tool-use":     {[]string{"kind", "recency", "priority"}, []float64{2, 2, 1}, "greedy", "chronological"},
		"long-running": {[]string{"recency", "frequency", "kind"}, []float64{3, 1, 1}, "greedy", "chronological"},
		"debugging":    {[]string{"priority", "kind", "recency"}, []float64{3, 2, 1}, "greedy", "chronological"},
	}
	It("has exactly the seven presets of the issue, each deduplicating with Throw", func() {
		Expect(policy.PresetNames()).To(HaveLen(7))
		for _, name := range policy.PresetNames() {
			w, ok := want[name]
			Expect(ok).To(BeTrue(), name)
			preset, err := policy.Preset(name)
			Expect(err).NotTo(HaveOccurred())
			p, err := preset.Build()
			Expect(err).NotTo(HaveOccurred())
			Expect(p.DisableDeduplication).To(BeFalse())
			Expect(p.Overflow).To(Equal(cupel.OverflowThrow))
			spec, err := policy.Of(p)
			Expect(err).NotTo(HaveOccurred())
			var types []string
			var weights []float64
			for _, c := range spec.Scorers {
				types = append(types, c.Type)
				weights = append(weights, float64(*c.Weight))
			}
			Expect(types).To(Equal(w.children), name)
			Expect(weights).To(Equal(w.weights), name)
			Expect(spec.Slicer).To(Equal(w.slicer))
			Expect(spec.Placer).To(Equal(w.placer))
			if w.slicer == "knapsack" {
				Expect(*spec.BucketSize).To(Equal(100))
			}
		}
		_, err := policy.Preset("nope")
		Expect(err).To(MatchError(cupel.ErrInvalidArgument))
	})
})
