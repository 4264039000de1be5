package policy_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/policy"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

var _ = Describe("adversarial input", func() {
	Describe("Of with typed nil components", func() {
		// Regression: Of (then cupel.PolicySpecOf) read the configuration of a typed nil
		// *CountQuotaSlice (and *QuotaSlice, *scorer.Composite, ...) and
		// panicked instead of returning an error.
		greedy, ushaped := slicer.NewGreedy(), placer.NewUShaped()
		scorers := map[string]cupel.Scorer{
			"composite": (*scorer.Composite)(nil), "scaled": (*scorer.Scaled)(nil), "kind": (*scorer.Kind)(nil),
			"tag": (*scorer.Tag)(nil), "decay": (*scorer.Decay)(nil), "metadata_trust": (*scorer.MetadataTrust)(nil),
			"metadata_key": (*scorer.MetadataKey)(nil), "recency": (*scorer.Recency)(nil), "nil": nil,
		}
		slicers := map[string]cupel.Slicer{
			"quota": (*slicer.Quota)(nil), "count_quota": (*slicer.CountQuota)(nil), "count_constrained_knapsack": (*slicer.CountConstrainedKnapsack)(nil),
			"knapsack": (*slicer.Knapsack)(nil), "greedy": (*slicer.Greedy)(nil), "nil": nil,
		}
		for name, sc := range scorers {
			It("returns an error for a nil "+name+" scorer", func() {
				_, err := policy.Of(cupel.Policy{Scorer: sc, Slicer: greedy, Placer: ushaped})
				Expect(err).To(MatchError(cupel.ErrInvalidConfig))
			})
		}
		for name, sl := range slicers {
			It("returns an error for a nil "+name+" slicer", func() {
				_, err := policy.Of(cupel.Policy{Scorer: scorer.NewRecency(), Slicer: sl, Placer: ushaped})
				Expect(err).To(MatchError(cupel.ErrInvalidConfig))
			})
		}
	})

	Describe("policy files with an empty kind weight list", func() {
		// Regression (FuzzPolicyDecode): "weights": [] built a KindScorer
		// scoring every item 0, whose spec was written back without the
		// empty list and read again as the default weights.
		It("weigh every kind 0 and are written back as use_default_weights = false", func() {
			const js = `{"scorers":[{"type":"kind","weights":[]}],"slicer":"greedy","placer":"u-shaped"}`
			const tm = "placer = \"u-shaped\"\nslicer = \"greedy\"\n[[scorers]]\ntype = \"kind\"\nweights = []\n"
			for _, f := range []struct{ name, src string }{{"p.json", js}, {"p.toml", tm}} {
				decoded, err := policy.Decode(f.name, []byte(f.src))
				Expect(err).NotTo(HaveOccurred(), f.name)
				pol, err := decoded.Build()
				Expect(err).NotTo(HaveOccurred(), f.name)
				Expect(pol.Scorer.(*scorer.Kind).Weights()).To(BeEmpty(), f.name)
				spec, err := policy.Of(pol)
				Expect(err).NotTo(HaveOccurred())
				Expect(spec.Scorers[0].UseDefaultWeights).To(Equal(cupel.Ptr(false)))
				back, err := json.Marshal(spec)
				Expect(err).NotTo(HaveOccurred())
				decoded, err = policy.Decode("back.json", back)
				Expect(err).NotTo(HaveOccurred())
				pol2, err := decoded.Build()
				Expect(err).NotTo(HaveOccurred())
				Expect(pol2.Scorer.(*scorer.Kind).Weights()).To(BeEmpty(), string(back))
			}
		})
	})

	It("describes a composite 1,000 levels deep, and builds its description again", func() {
		var s cupel.Scorer = scorer.NewReflexive()
		for range 1000 {
			c, err := scorer.NewComposite(scorer.Weighted{Scorer: s, Weight: 1}, scorer.Weighted{Scorer: scorer.NewReflexive(), Weight: 1e-300})
			Expect(err).NotTo(HaveOccurred())
			s = c
		}
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: s, Slicer: slicer.NewGreedy(), Placer: placer.NewUShaped()})
		Expect(err).NotTo(HaveOccurred())
		spec, err := policy.Of(p.Config())
		Expect(err).NotTo(HaveOccurred())
		js, err := json.Marshal(spec)
		Expect(err).NotTo(HaveOccurred())
		back, err := policy.Decode("deep.json", js)
		Expect(err).NotTo(HaveOccurred())
		_, err = back.Build()
		Expect(err).NotTo(HaveOccurred())
	})
})
