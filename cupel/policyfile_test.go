package cupel_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/cupel-go/go-cupel/cupel"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var fixedClock = cupel.ClockFunc(func() time.Time { return time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC) })

func fullSpec(scorer cupel.ScorerSpec, slicer cupel.SlicerSpec, placer string) cupel.PolicySpec {
	return cupel.PolicySpec{Scorer: scorer, Slicer: slicer, Placer: placer, Deduplication: cupel.Ptr(true), OverflowStrategy: "throw"}
}

// canonical specs: what PolicySpecOf returns for each built-in component.
var componentSpecs = map[string]cupel.PolicySpec{
	"recency":   fullSpec(cupel.ScorerSpec{Type: "recency"}, cupel.SlicerSpec{Type: "greedy"}, "chronological"),
	"priority":  fullSpec(cupel.ScorerSpec{Type: "priority"}, cupel.SlicerSpec{Type: "greedy"}, "u-shaped"),
	"frequency": fullSpec(cupel.ScorerSpec{Type: "frequency"}, cupel.SlicerSpec{Type: "greedy"}, "chronological"),
	"reflexive": fullSpec(cupel.ScorerSpec{Type: "reflexive"}, cupel.SlicerSpec{Type: "greedy"}, "chronological"),
	"kind": fullSpec(cupel.ScorerSpec{Type: "kind", Weights: []cupel.KindWeightSpec{{Kind: "Document", Weight: 2.5}, {Kind: "Message", Weight: 0}}},
		cupel.SlicerSpec{Type: "knapsack", BucketSize: 50, TableLimit: 1000000}, "chronological"),
	"tag": fullSpec(cupel.ScorerSpec{Type: "tag", TagWeights: []cupel.TagWeightSpec{{Tag: "Important", Weight: 2}, {Tag: "urgent", Weight: 1}}},
		cupel.SlicerSpec{Type: "greedy"}, "chronological"),
	"composite-scaled": fullSpec(cupel.ScorerSpec{Type: "composite", Scorers: []cupel.ScorerSpec{
		{Type: "recency", Weight: 3},
		{Type: "scaled", Weight: 1, Inner: &cupel.ScorerSpec{Type: "composite", Scorers: []cupel.ScorerSpec{{Type: "frequency", Weight: 1}, {Type: "priority", Weight: 2}}}},
	}}, cupel.SlicerSpec{Type: "greedy"}, "u-shaped"),
	"decay-exponential": fullSpec(cupel.ScorerSpec{Type: "decay", Curve: &cupel.CurveSpec{Type: "exponential", HalfLife: cupel.Duration(24 * time.Hour)}, NullTimestampScore: cupel.Ptr(0.25)},
		cupel.SlicerSpec{Type: "greedy"}, "chronological"),
	"decay-window": fullSpec(cupel.ScorerSpec{Type: "decay", Curve: &cupel.CurveSpec{Type: "window", MaxAge: cupel.Duration(90 * time.Minute)}, NullTimestampScore: cupel.Ptr(0.5)},
		cupel.SlicerSpec{Type: "greedy"}, "chronological"),
	"decay-step": fullSpec(cupel.ScorerSpec{Type: "decay", Curve: &cupel.CurveSpec{Type: "step", Windows: []cupel.WindowSpec{
		{MaxAge: cupel.Duration(time.Hour), Score: 0.9}, {MaxAge: cupel.Duration(24 * time.Hour), Score: 0.5}, {MaxAge: cupel.Duration(72 * time.Hour), Score: 0.1}}}, NullTimestampScore: cupel.Ptr(0.5)},
		cupel.SlicerSpec{Type: "greedy"}, "chronological"),
	"metadata": fullSpec(cupel.ScorerSpec{Type: "composite", Scorers: []cupel.ScorerSpec{
		{Type: "metadata_trust", Weight: 1, DefaultScore: cupel.Ptr(0.4)},
		{Type: "metadata_key", Weight: 1, Key: "cupel:priority", Value: "high", Boost: 1.5},
	}}, cupel.SlicerSpec{Type: "greedy"}, "chronological"),
	"quota": fullSpec(cupel.ScorerSpec{Type: "recency"}, cupel.SlicerSpec{Type: "quota", Inner: &cupel.SlicerSpec{Type: "knapsack", BucketSize: 10, TableLimit: cupel.DefaultKnapsackTableLimit},
		Quotas: []cupel.QuotaSpec{{Kind: "Document", Require: cupel.Ptr(20.0), Cap: cupel.Ptr(60.0)}, {Kind: "ToolOutput", Require: cupel.Ptr(0.0), Cap: cupel.Ptr(30.0)}, {Kind: "Memory", Require: cupel.Ptr(5.0), Cap: cupel.Ptr(100.0)}}}, "chronological"),
	"count-quota": fullSpec(cupel.ScorerSpec{Type: "recency"}, cupel.SlicerSpec{Type: "count_quota", Inner: &cupel.SlicerSpec{Type: "greedy"},
		Entries: []cupel.CountEntrySpec{{Kind: "ToolOutput", RequireCount: 1, CapCount: 3}, {Kind: "Memory", RequireCount: 0, CapCount: 0}}, ScarcityBehavior: "throw"}, "chronological"),
	"count-constrained-knapsack": fullSpec(cupel.ScorerSpec{Type: "recency"}, cupel.SlicerSpec{Type: "count_constrained_knapsack", BucketSize: 100, TableLimit: cupel.DefaultKnapsackTableLimit,
		Entries: []cupel.CountEntrySpec{{Kind: "ToolOutput", RequireCount: 2, CapCount: 2}}, ScarcityBehavior: "degrade"}, "u-shaped"),
}

var _ = Describe("policy files", func() {
	for name, spec := range componentSpecs {
		It("round-trips "+name+" through Build, PolicySpecOf, JSON and TOML", func() {
			policy, err := spec.Build(cupel.WithClock(fixedClock))
			Expect(err).NotTo(HaveOccurred())
			_, err = cupel.NewPipeline(policy)
			Expect(err).NotTo(HaveOccurred())
			back, err := cupel.PolicySpecOf(policy)
			Expect(err).NotTo(HaveOccurred())
			Expect(back).To(Equal(spec))

			js, err := json.Marshal(spec)
			Expect(err).NotTo(HaveOccurred())
			fromJSON, err := cupel.ParsePolicyJSON(js)
			Expect(err).NotTo(HaveOccurred())
			Expect(fromJSON).To(Equal(spec))

			var buf bytes.Buffer
			Expect(toml.NewEncoder(&buf).Encode(spec)).To(Succeed())
			var fromTOML cupel.PolicySpec
			Expect(toml.Unmarshal(buf.Bytes(), &fromTOML)).To(Succeed(), buf.String())
			Expect(fromTOML).To(Equal(spec), buf.String())

			_, viaFile, err := cupel.DecodePolicyFile("p.toml", buf.Bytes(), toml.Unmarshal, cupel.WithClock(fixedClock))
			Expect(err).NotTo(HaveOccurred())
			Expect(viaFile).To(Equal(spec))
		})
	}

	It("canonicalises quota shorthand (an absent require is 0, an absent cap 100)", func() {
		short := componentSpecs["quota"]
		short.Slicer.Quotas = []cupel.QuotaSpec{{Kind: "Document", Require: cupel.Ptr(20.0), Cap: cupel.Ptr(60.0)}, {Kind: "ToolOutput", Cap: cupel.Ptr(30.0)}, {Kind: "Memory", Require: cupel.Ptr(5.0)}}
		p, err := short.Build()
		Expect(err).NotTo(HaveOccurred())
		back, err := cupel.PolicySpecOf(p)
		Expect(err).NotTo(HaveOccurred())
		Expect(back).To(Equal(componentSpecs["quota"]))
	})

	It("reads a hand-written TOML file with durations", func() {
		const src = `
placer = "u-shaped"
overflow_strategy = "truncate"
deduplication = false

[scorer]
type = "composite"

[[scorer.scorers]]
type = "recency"
weight = 3.0

[[scorer.scorers]]
type = "decay"
weight = 1.0
curve = { type = "exponential", half_life = "24h" }

[slicer]
type = "knapsack"
bucket_size = 100
`
		p, spec, err := cupel.DecodePolicyFile("policy.toml", []byte(src), toml.Unmarshal, cupel.WithClock(fixedClock))
		Expect(err).NotTo(HaveOccurred())
		Expect(p.Overflow).To(Equal(cupel.OverflowTruncate))
		Expect(p.DisableDeduplication).To(BeTrue())
		Expect(spec.Scorer.Scorers[1].Curve.HalfLife).To(Equal(cupel.Duration(24 * time.Hour)))
		ks, ok := p.Slicer.(*cupel.KnapsackSlice)
		Expect(ok).To(BeTrue())
		Expect(ks.BucketSize()).To(Equal(100))
	})

	DescribeTable("rejects invalid descriptions, naming the field and the value",
		func(src string, field string) {
			_, _, err := cupel.DecodePolicyFile("bad.json", []byte(src), nil, cupel.WithClock(fixedClock))
			Expect(err).To(MatchError(cupel.ErrInvalidConfig))
			var fe *cupel.PolicyFileError
			Expect(errors.As(err, &fe)).To(BeTrue())
			Expect(fe.File).To(Equal("bad.json"))
			Expect(err.Error()).To(HavePrefix("bad.json: "))
			if field != "" {
				Expect(validationField(err)).To(Equal(field))
			}
		},
		Entry("unknown scorer", `{"scorer":{"type":"magic"},"slicer":{"type":"greedy"},"placer":"chronological"}`, "scorer.type"),
		Entry("zero composite weight", `{"scorer":{"type":"composite","scorers":[{"type":"recency","weight":1},{"type":"kind","weight":0}]},"slicer":{"type":"greedy"},"placer":"chronological"}`, "scorer.scorers[1].weight"),
		Entry("field of another type", `{"scorer":{"type":"recency","boost":2},"slicer":{"type":"greedy"},"placer":"chronological"}`, "scorer.boost"),
		Entry("negative kind weight", `{"scorer":{"type":"kind","weights":[{"kind":"Message","weight":-1}]},"slicer":{"type":"greedy"},"placer":"chronological"}`, ""),
		Entry("repeated kind", `{"scorer":{"type":"kind","weights":[{"kind":"Message","weight":1},{"kind":"message","weight":2}]},"slicer":{"type":"greedy"},"placer":"chronological"}`, "scorer.weights[1].kind"),
		Entry("zero half-life", `{"scorer":{"type":"decay","curve":{"type":"exponential","half_life":"0s"}},"slicer":{"type":"greedy"},"placer":"chronological"}`, ""),
		Entry("bad duration", `{"scorer":{"type":"decay","curve":{"type":"exponential","half_life":"a day"}},"slicer":{"type":"greedy"},"placer":"chronological"}`, ""),
		Entry("zero bucket", `{"scorer":{"type":"recency"},"slicer":{"type":"knapsack","bucket_size":-5},"placer":"chronological"}`, ""),
		Entry("invalid count entry", `{"scorer":{"type":"recency"},"slicer":{"type":"count_quota","entries":[{"kind":"Tool","require_count":3,"cap_count":1}]},"placer":"chronological"}`, ""),
		Entry("knapsack inside count_quota", `{"scorer":{"type":"recency"},"slicer":{"type":"count_quota","inner":{"type":"knapsack"}},"placer":"chronological"}`, ""),
		Entry("quota without values", `{"scorer":{"type":"recency"},"slicer":{"type":"quota","quotas":[{"kind":"Document"}]},"placer":"chronological"}`, "slicer.quotas[0]"),
		Entry("weight outside a composite", `{"scorer":{"type":"recency","weight":2},"slicer":{"type":"greedy"},"placer":"chronological"}`, "scorer.weight"),
		Entry("weight on a scaled scorer's inner", `{"scorer":{"type":"scaled","inner":{"type":"recency","weight":2}},"slicer":{"type":"greedy"},"placer":"chronological"}`, "scorer.inner.weight"),
		Entry("unknown placer", `{"scorer":{"type":"recency"},"slicer":{"type":"greedy"},"placer":"random"}`, "placer"),
		Entry("unknown overflow", `{"scorer":{"type":"recency"},"slicer":{"type":"greedy"},"placer":"chronological","overflow_strategy":"ignore"}`, "overflow_strategy"),
		Entry("unknown key", `{"scorer":{"type":"recency","wieght":1},"slicer":{"type":"greedy"},"placer":"chronological"}`, ""),
		Entry("trailing data", `{"scorer":{"type":"recency"},"slicer":{"type":"greedy"},"placer":"chronological"} {}`, ""),
		Entry("not JSON", `scorer = "recency"`, ""),
	)

	It("needs a clock for decay scorers and a TOML decoder for TOML", func() {
		spec := componentSpecs["decay-window"]
		_, err := spec.Build()
		Expect(err).To(MatchError(cupel.ErrInvalidConfig))
		Expect(err.Error()).To(ContainSubstring("WithClock"))
		_, _, err = cupel.DecodePolicyFile("p.toml", []byte(`placer = "u-shaped"`), nil)
		Expect(err).To(MatchError(cupel.ErrInvalidConfig))
		_, _, err = cupel.DecodePolicyFile("p.yaml", nil, nil)
		Expect(err).To(MatchError(cupel.ErrInvalidConfig))
	})

	It("refuses to describe custom components", func() {
		_, err := cupel.PolicySpecOf(cupel.Policy{Scorer: tableScorer{}, Slicer: cupel.NewGreedySlice(), Placer: cupel.NewUShapedPlacer()})
		Expect(err).To(MatchError(cupel.ErrInvalidConfig))
		Expect(validationField(err)).To(Equal("scorer"))
	})
})

var _ = Describe("presets", func() {
	want := map[cupel.PresetName]struct {
		children []string
		weights  []float64
		slicer   string
		placer   string
	}{
		cupel.PresetChat:        {[]string{"recency", "kind"}, []float64{3, 1}, "greedy", "chronological"},
		cupel.PresetCodeReview:  {[]string{"kind", "priority", "recency"}, []float64{2, 2, 1}, "greedy", "chronological"},
		cupel.PresetRag:         {[]string{"reflexive", "kind"}, []float64{3, 1}, "greedy", "u-shaped"},
		cupel.PresetDocumentQa:  {[]string{"kind", "reflexive", "priority"}, []float64{2, 2, 1}, "knapsack", "u-shaped"},
		cupel.PresetToolUse:     {[]string{"kind", "recency", "priority"}, []float64{2, 2, 1}, "greedy", "chronological"},
		cupel.PresetLongRunning: {[]string{"recency", "frequency", "kind"}, []float64{3, 1, 1}, "greedy", "chronological"},
		cupel.PresetDebugging:   {[]string{"priority", "kind", "recency"}, []float64{3, 2, 1}, "greedy", "chronological"},
	}
	It("has exactly the seven presets of the issue, each deduplicating with Throw", func() {
		Expect(cupel.Presets()).To(HaveLen(7))
		for _, name := range cupel.Presets() {
			w, ok := want[name]
			Expect(ok).To(BeTrue(), string(name))
			p, err := cupel.PresetPolicy(name)
			Expect(err).NotTo(HaveOccurred())
			Expect(p.DisableDeduplication).To(BeFalse())
			Expect(p.Overflow).To(Equal(cupel.OverflowThrow))
			spec, err := cupel.PolicySpecOf(p)
			Expect(err).NotTo(HaveOccurred())
			var types []string
			var weights []float64
			for _, c := range spec.Scorer.Scorers {
				types = append(types, c.Type)
				weights = append(weights, c.Weight)
			}
			Expect(types).To(Equal(w.children), string(name))
			Expect(weights).To(Equal(w.weights), string(name))
			Expect(spec.Slicer.Type).To(Equal(w.slicer))
			Expect(spec.Placer).To(Equal(w.placer))
			if w.slicer == "knapsack" {
				Expect(spec.Slicer.BucketSize).To(Equal(100))
			}
		}
		_, err := cupel.PresetPolicy("nope")
		Expect(err).To(MatchError(cupel.ErrInvalidArgument))
	})
})
