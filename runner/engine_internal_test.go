package runner

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/policy"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// splitScorer scores 0.5 per item and something else in its batch path.
type splitScorer struct{ batch float64 }

func (splitScorer) Score(*cupel.ContextItem, []*cupel.ContextItem) float64 { return 0.5 }
func (s splitScorer) ScoreAll(items []*cupel.ContextItem, out []float64) {
	for i := range items {
		out[i] = s.batch
	}
}

var _ = ginkgo.Describe("The engine adapter", func() {
	items := func(n int) []*cupel.ContextItem {
		out := make([]*cupel.ContextItem, n)
		for i := range out {
			out[i] = cupel.MustItem(cupel.ItemSpec{Content: "x", Tokens: 1})
		}
		return out
	}

	ginkgo.It("fails a scoring case whose batch path disagrees with Score", func() {
		_, err := scoreBoth(splitScorer{batch: 0.25}, items(2))
		gomega.Expect(err).To(gomega.MatchError(errPathsDisagree))
		gomega.Expect(err).To(gomega.MatchError(gomega.ContainSubstring("item 0: Score gives 0.5 but the batch path")))
		r := engineError(err)
		gomega.Expect(r.Kind).To(gomega.Equal(protocol.ResultError))
	})

	ginkgo.It("treats the two zeros as one score, and any NaN as any NaN", func() {
		_, err := scoreBoth(splitScorer{batch: 0.5}, items(3))
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		gomega.Expect(sameScore(0, math.Copysign(0, -1))).To(gomega.BeTrue())
		gomega.Expect(sameScore(math.NaN(), math.Float64frombits(0x7ff8000000000001))).To(gomega.BeTrue())
		gomega.Expect(sameScore(math.NaN(), 0)).To(gomega.BeFalse())
		gomega.Expect(sameScore(math.Inf(1), math.Inf(1))).To(gomega.BeTrue())
		gomega.Expect(sameScore(0.1, math.Nextafter(0.1, 1))).To(gomega.BeFalse())
	})

	ginkgo.It("declares exactly the component types a policy.Spec accepts", func() {
		info, err := Engine().Hello(context.Background())
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		gomega.Expect(info.Capabilities.Scorers).To(gomega.Equal(policy.ScorerTypes()))
		gomega.Expect(info.Capabilities.Slicers).To(gomega.Equal(policy.SlicerTypes()))
		gomega.Expect(info.Capabilities.Placers).To(gomega.Equal(policy.PlacerTypes()))
		typeError := func(err error) bool {
			var ve *cupel.ValidationError
			return errors.As(err, &ve) && (ve.Field == "scorers[0].type" || ve.Field == "slicer" || ve.Field == "placer")
		}
		for _, t := range policy.ScorerTypes() {
			_, err := policy.Spec{Scorers: []policy.ScorerSpec{{Type: t}}, Slicer: "greedy", Placer: "chronological"}.Build()
			gomega.Expect(typeError(err)).To(gomega.BeFalse(), "scorer %s: %v", t, err)
		}
		for _, t := range policy.SlicerTypes() {
			_, err := policy.Spec{Scorers: []policy.ScorerSpec{{Type: "reflexive"}}, Slicer: t, Placer: "chronological"}.Build()
			gomega.Expect(typeError(err)).To(gomega.BeFalse(), "slicer %s: %v", t, err)
		}
		for _, t := range policy.PlacerTypes() {
			_, err := policy.Spec{Scorers: []policy.ScorerSpec{{Type: "reflexive"}}, Slicer: "greedy", Placer: t}.Build()
			gomega.Expect(err).NotTo(gomega.HaveOccurred(), "placer %s", t)
		}
		_, err = policy.Spec{Scorers: []policy.ScorerSpec{{Type: "nonesuch"}}, Slicer: "greedy", Placer: "chronological"}.Build()
		gomega.Expect(typeError(err)).To(gomega.BeTrue())
	})

	ginkgo.It("answers unsupported for a component no policy.Spec names", func() {
		for _, in := range []policy.Spec{
			{Scorers: []policy.ScorerSpec{{Type: "composite", Children: []policy.ScorerSpec{{Weight: cupel.Ptr[casefile.Float](1), Type: "nonesuch"}}}}},
			{Slicer: "quota", InnerSlicer: "nonesuch"},
			{Placer: "nonesuch"},
		} {
			_, err := build(in)
			gomega.Expect(engineError(err).Kind).To(gomega.Equal(protocol.ResultUnsupported))
			gomega.Expect(engineError(err).Reason).To(gomega.ContainSubstring("nonesuch"))
		}
	})

	ginkgo.It("writes every exclusion reason as the engine's JSON envelope does", func() {
		for _, r := range []cupel.ExclusionReason{
			cupel.BudgetExceeded(400, 100), cupel.ScoredTooLow(0.25, 0.5), cupel.Deduplicated("dup"),
			cupel.QuotaCapExceeded("Document", 3, 4), cupel.QuotaRequireDisplaced("Message"), cupel.NegativeTokens(-5),
			cupel.PinnedOverride("pin"), cupel.Filtered("f"), cupel.CountCapExceeded("Tool", 1, 2),
		} {
			want, err := json.Marshal(r)
			gomega.Expect(err).NotTo(gomega.HaveOccurred())
			got, err := json.Marshal(exclusionReason(r))
			gomega.Expect(err).NotTo(gomega.HaveOccurred())
			gomega.Expect(got).To(gomega.MatchJSON(want), "%s", r.Variant)
		}
	})

	ginkgo.It("refuses integers the platform's int cannot hold instead of wrapping them", func() {
		if math.MaxInt == math.MaxInt64 {
			_, err := platformInt("x", math.MaxInt64)
			gomega.Expect(err).NotTo(gomega.HaveOccurred())
			return
		}
		_, err := platformInt("items[0].priority", math.MaxInt64)
		gomega.Expect(engineError(err).Kind).To(gomega.Equal(protocol.ResultUnsupported))
		gomega.Expect(engineError(err).Reason).To(gomega.ContainSubstring("items[0].priority = 9223372036854775807 does not fit"))
	})

	ginkgo.It("builds a kind scorer with an empty weight list that scores every kind 0", func() {
		in := casefile.Input{Spec: policy.Spec{Scorers: []policy.ScorerSpec{{Type: "kind", UseDefaultWeights: cupel.Ptr(false)}}}, Items: []casefile.Item{{Content: "a", Tokens: 1, Kind: "SystemPrompt", Source: "Chat"}, {Content: "b", Tokens: 1, Kind: "Message", Source: "Chat"}}}
		out, err := engineScore(in)
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		gomega.Expect(slices.Collect(func(yield func(float64) bool) {
			for _, s := range out.Scores {
				if !yield(float64(s.Score)) {
					return
				}
			}
		})).To(gomega.Equal([]float64{0, 0}))
	})

	ginkgo.It("has one float codec, the engine's, that keeps every float and refuses null", func() {
		for _, c := range []struct {
			v    float64
			json string
		}{{math.NaN(), `"NaN"`}, {math.Inf(1), `"Infinity"`}, {math.Inf(-1), `"-Infinity"`}, {math.Copysign(0, -1), `-0.0`}, {0, `0`}, {0.1, `0.1`}, {-2.5e-300, `-2.5e-300`}} {
			b, err := json.Marshal(casefile.Float(c.v))
			gomega.Expect(err).NotTo(gomega.HaveOccurred())
			gomega.Expect(string(b)).To(gomega.Equal(c.json))
			var back casefile.Float
			gomega.Expect(json.Unmarshal(b, &back)).To(gomega.Succeed())
			gomega.Expect(math.Float64bits(float64(back)) == math.Float64bits(c.v) || math.IsNaN(c.v)).To(gomega.BeTrue(), c.json)
		}
		var f casefile.Float
		gomega.Expect(json.Unmarshal([]byte(`"+Infinity"`), &f)).To(gomega.Succeed())
		gomega.Expect(math.IsInf(float64(f), 1)).To(gomega.BeTrue())
		gomega.Expect(json.Unmarshal([]byte(`null`), &f)).To(gomega.MatchError(gomega.ContainSubstring("null is not a number")))
		gomega.Expect(json.Unmarshal([]byte(`"nan"`), &f)).NotTo(gomega.Succeed())
		// The engine's own JSON forms use the same codec. (On a 32-bit
		// platform ScoredTooLow loses its floats until the engine's fix of
		// issue 12 part 4, which is not this package's.)
		if math.MaxInt != math.MaxInt64 {
			return
		}
		b, err := json.Marshal(cupel.ScoredTooLow(math.Copysign(0, -1), math.NaN()))
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		gomega.Expect(string(b)).To(gomega.Equal(`{"reason":"ScoredTooLow","score":-0.0,"threshold":"NaN"}`))
	})

	ginkgo.It("builds decay scorers with two reference times, each reading its own clock", func() {
		decay := func(ref time.Time) policy.ScorerSpec {
			return policy.ScorerSpec{Weight: cupel.Ptr[casefile.Float](1), Type: "decay", ReferenceTime: &ref, Curve: &policy.CurveSpec{Type: "window", MaxAgeSecs: cupel.Ptr(casefile.Float(3600))}}
		}
		composite := func(children ...policy.ScorerSpec) policy.Spec {
			return policy.Spec{Scorers: []policy.ScorerSpec{{Type: "composite", Children: children}}}
		}
		t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
		ts := t0.Add(-30 * time.Minute)
		items := []casefile.Item{{Content: "a", Tokens: 1, Kind: "Message", Source: "Chat", Timestamp: &ts}}
		for _, c := range []struct {
			ref  time.Time
			want float64
		}{{t0, 1}, {t0.Add(time.Hour), 0}} {
			out, err := engineScore(casefile.Input{Spec: composite(decay(c.ref)), Items: items})
			gomega.Expect(err).NotTo(gomega.HaveOccurred())
			gomega.Expect(float64(out.Scores[0].Score)).To(gomega.Equal(c.want), "reference time %s", c.ref)
		}
		two := casefile.Input{Spec: composite(decay(t0), decay(t0.Add(time.Hour))), Items: items}
		out, err := engineScore(two)
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		gomega.Expect(float64(out.Scores[0].Score)).To(gomega.Equal(0.5))
	})
})
