package explore

import (
	"context"
	"strings"

	"github.com/cupel-go/go-cupel/cupel/policy"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

var _ = ginkgo.Describe("explore's generator coverage", func() {
	ginkgo.It("generates every component and feature of the configuration space in 20,000 cases", func() {
		rep, err := Run(context.Background(), runner.Engine(), Options{Seed: 1, Cases: 20000, Coverage: true})
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		gomega.Expect(rep.Divergences).To(gomega.BeEmpty())
		got := map[string]int{}
		for _, f := range rep.Coverage {
			got[f.Feature] = f.Cases
		}
		info, err := runner.Engine().Hello(context.Background())
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		want := []string{"nested composite", "decay exponential", "decay window", "decay step",
			"quota require", "quota cap", "count require", "count cap", "count scarcity throw",
			"zero tokens", "negative tokens", "pinned items", "overflow throw", "overflow truncate", "overflow proceed",
			"duplicate content", featureRadixItems, featureTableItems}
		for _, s := range info.Capabilities.Scorers {
			want = append(want, "scorer "+s)
		}
		for _, s := range info.Capabilities.Slicers {
			want = append(want, "slicer "+s)
		}
		for _, p := range info.Capabilities.Placers {
			want = append(want, "placer "+p)
		}
		for _, k := range genMetaKey {
			want = append(want, "item metadata key "+k, "metadata_key scorer key "+k)
		}
		gomega.Expect(got).To(gomega.HaveLen(len(want)), "no feature listed twice, none unlisted")
		for _, f := range want {
			gomega.Expect(got).To(gomega.HaveKey(f))
			gomega.Expect(got[f]).To(gomega.BeNumerically(">", 0), "never generated: %s", f)
		}
		var b strings.Builder
		gomega.Expect(rep.WriteCoverage(&b)).To(gomega.Succeed())
		gomega.Expect(b.String()).To(gomega.HavePrefix("generator coverage (20000 generated cases):\n"))
		gomega.Expect(b.String()).NotTo(gomega.ContainSubstring("never generated"))
	})

	ginkgo.It("counts each feature once a case, and lists what no case used", func() {
		caps := exploreCaps{stages: []string{casefile.StagePipeline}, scorers: []string{"composite", "kind"}, slicers: []string{"quota"}, placers: []string{"u-shaped"}}
		cv := newCoverage(caps)
		c := &casefile.Case{Stage: casefile.StagePipeline, Input: casefile.Input{
			Spec: policy.Spec{Scorers: []policy.ScorerSpec{{Type: "composite", Children: []policy.ScorerSpec{{Weight: ptr[casefile.Float](1), Type: "composite",
				Children: []policy.ScorerSpec{{Weight: ptr[casefile.Float](1), Type: "kind"}, {Weight: ptr[casefile.Float](1), Type: "kind"}}}}}},
				Slicer: "quota", Quotas: []policy.QuotaSpec{{Kind: "a", Require: ptr[casefile.Float](10), Cap: ptr[casefile.Float](100)}, {Kind: "b", Require: ptr[casefile.Float](5), Cap: ptr[casefile.Float](100)}},
				Placer: "u-shaped", OverflowStrategy: "truncate"},
			Items: []casefile.Item{{Content: "x", Tokens: 0}, {Content: "x", Tokens: -1, Pinned: true}, {Content: "y", Tokens: 0, Metadata: map[string]any{"lang": "go"}}},
		}}
		cv.count(c)
		cv.count(&casefile.Case{Stage: casefile.StagePipeline, Input: casefile.Input{Spec: policy.Spec{Placer: "u-shaped"}}})
		got := map[string]int{}
		for _, f := range cv.report() {
			got[f.Feature] = f.Cases
		}
		gomega.Expect(got).To(gomega.Equal(map[string]int{
			"scorer composite": 1, "scorer kind": 1, "slicer quota": 1, "placer u-shaped": 2, "nested composite": 1,
			"quota require": 1, "quota cap": 0, "item metadata key cupel:trust": 0, "item metadata key lang": 1,
			"item metadata key team": 0, "item metadata key score": 0, "zero tokens": 1, "duplicate content": 1,
			featureRadixItems: 0, featureTableItems: 0, "negative tokens": 1, "pinned items": 1,
			"overflow throw": 0, "overflow truncate": 1, "overflow proceed": 0,
		}))
		rep := &Report{Cases: 2, Coverage: cv.report()}
		var b strings.Builder
		gomega.Expect(rep.WriteCoverage(&b)).To(gomega.Succeed())
		gomega.Expect(b.String()).To(gomega.ContainSubstring("  placer u-shaped                                      2  100.0%\n"))
		gomega.Expect(b.String()).To(gomega.ContainSubstring("never generated: quota cap, item metadata key cupel:trust,"))
	})
})
