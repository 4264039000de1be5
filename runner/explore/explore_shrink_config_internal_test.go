package explore

import (
	"slices"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/policy"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// These pin what shrinking leaves of lists in the configuration and the
// items: exactly the entries the bug needs, wherever they stand.
var _ = ginkgo.Describe("explore's shrinker, on lists", func() {
	ginkgo.It("keeps only the kind weight and the metadata key the bug needs", func() {
		// The bug: with a kind weight for Document, an item with a "lang"
		// metadata key scores 0.01 more.
		impl := bugImpl{func(req protocol.Request, out *protocol.Output) {
			sc := req.Case.Scorers[0]
			if req.Stage != casefile.StageScoring || sc.Type != "kind" ||
				!slices.ContainsFunc(sc.Weights, func(w policy.KindWeightSpec) bool { return w.Kind == "Document" }) {
				return
			}
			out.Scores = slices.Clone(out.Scores)
			for k, s := range out.Scores {
				if _, ok := req.Case.Items[s.Index].Metadata["lang"]; ok {
					out.Scores[k].Score += 0.01
				}
			}
		}}
		d := shrunk(impl, &casefile.Case{ID: "kinds", Tier: casefile.TierOptional, Stage: casefile.StageScoring, Input: casefile.Input{
			Spec:  policy.Spec{Scorers: []policy.ScorerSpec{{Type: "kind", Weights: []policy.KindWeightSpec{{Kind: "Memory", Weight: 1}, {Kind: "Document", Weight: 2}, {Kind: "Note", Weight: 0.5}}}}},
			Items: richItems(3, -1)}})
		gomega.Expect(asJSON(d.Case.Input.Scorers)).To(gomega.Equal(asJSON([]policy.ScorerSpec{{Type: "kind", UseDefaultWeights: cupel.Ptr(false), Weights: []policy.KindWeightSpec{{Kind: "Document", Weight: 2}}}})))
		gomega.Expect(asJSON(d.Case.Input.Items)).To(gomega.Equal(asJSON([]casefile.Item{
			{Index: 0, Content: "a", Tokens: 1, Kind: "Message", Source: "Chat", Metadata: map[string]any{"lang": "go"}}})))
	})

	ginkgo.It("keeps only the quota the bug needs, removing those before it too", func() {
		// The bug: with a quota for Memory, nothing is selected.
		impl := bugImpl{func(req protocol.Request, out *protocol.Output) {
			if req.Stage == casefile.StageSlicing && slices.ContainsFunc(req.Case.Quotas, func(q policy.QuotaSpec) bool { return q.Kind == "Memory" }) {
				out.Selected = nil
			}
		}}
		items := richItems(3, -1)
		for i := range items {
			items[i].Score = casefile.FloatPtr(0.9 - float64(i)/10)
		}
		d := shrunk(impl, &casefile.Case{ID: "quotas", Tier: casefile.TierOptional, Stage: casefile.StageSlicing, Input: casefile.Input{
			Spec: policy.Spec{Slicer: "quota", InnerSlicer: "greedy", Quotas: []policy.QuotaSpec{
				{Kind: "Document", Require: casefile.FloatPtr(10), Cap: casefile.FloatPtr(60)}, {Kind: "Note", Require: casefile.FloatPtr(0), Cap: casefile.FloatPtr(100)},
				{Kind: "Memory", Require: casefile.FloatPtr(10), Cap: casefile.FloatPtr(50)}}},
			Budget: &casefile.Budget{TargetTokens: 300, MaxTokens: 300},
			Items:  items}})
		var kinds []string
		for _, q := range d.Case.Input.Quotas {
			kinds = append(kinds, string(q.Kind))
		}
		gomega.Expect(kinds).To(gomega.Equal([]string{"Memory"}))
	})

	ginkgo.It("keeps only the count entry the bug needs, removing those before it too", func() {
		// The bug: with a count entry for Memory, no shortfall is reported.
		impl := bugImpl{func(req protocol.Request, out *protocol.Output) {
			if req.Stage == casefile.StageSlicing && slices.ContainsFunc(req.Case.Entries, func(e policy.CountEntrySpec) bool { return e.Kind == "Memory" }) {
				out.Shortfalls = nil
			}
		}}
		items := richItems(3, -1)
		for i := range items {
			items[i].Score = casefile.FloatPtr(0.9 - float64(i)/10)
		}
		d := shrunk(impl, &casefile.Case{ID: "entries", Tier: casefile.TierOptional, Stage: casefile.StageSlicing, Input: casefile.Input{
			Spec: policy.Spec{Slicer: "count_quota", InnerSlicer: "greedy", ScarcityBehavior: "degrade",
				Entries: []policy.CountEntrySpec{{Kind: "Document", RequireCount: 1, CapCount: 4}, {Kind: "Memory", RequireCount: 2, CapCount: 3}}},
			Budget: &casefile.Budget{TargetTokens: 300, MaxTokens: 300},
			Items:  items}})
		var kinds []string
		for _, e := range d.Case.Input.Entries {
			kinds = append(kinds, string(e.Kind))
		}
		gomega.Expect(kinds).To(gomega.Equal([]string{"Memory"}))
	})

	ginkgo.It("hoists a composite child that is itself a composite, and goes on with the next index safely", func() {
		// The bug: any composite scorer adds 0.01 to every score.
		impl := bugImpl{func(req protocol.Request, out *protocol.Output) {
			if req.Stage == casefile.StageScoring && req.Case.Scorers[0].Type == "composite" {
				out.Scores = slices.Clone(out.Scores)
				for k := range out.Scores {
					out.Scores[k].Score += 0.01
				}
			}
		}}
		inner := policy.ScorerSpec{Weight: casefile.FloatPtr(1), Type: "composite", Children: []policy.ScorerSpec{{Weight: casefile.FloatPtr(1), Type: "priority"}}}
		d := shrunk(impl, &casefile.Case{ID: "nested", Tier: casefile.TierOptional, Stage: casefile.StageScoring, Input: casefile.Input{
			Spec: policy.Spec{Scorers: []policy.ScorerSpec{{Type: "composite", Children: []policy.ScorerSpec{
				inner, {Weight: casefile.FloatPtr(2), Type: "tag"}}}}},
			Items: richItems(2, -1)}})
		gomega.Expect(d.Case.Input.Scorers[0].Type).To(gomega.Equal("composite"))
		gomega.Expect(d.Case.Input.Scorers[0].Children).To(gomega.HaveLen(1))
	})

	ginkgo.It("keeps one window of a two-window step curve", func() {
		// The bug: a step curve adds 0.01 to every score.
		impl := bugImpl{func(req protocol.Request, out *protocol.Output) {
			if sc := req.Case.Scorers[0]; req.Stage == casefile.StageScoring && sc.Type == "decay" && sc.Curve.Type == "step" {
				out.Scores = slices.Clone(out.Scores)
				for k := range out.Scores {
					out.Scores[k].Score += 0.01
				}
			}
		}}
		ref := genBase.Add(1000 * time.Hour)
		d := shrunk(impl, &casefile.Case{ID: "windows", Tier: casefile.TierOptional, Stage: casefile.StageScoring, Input: casefile.Input{
			Spec: policy.Spec{Scorers: []policy.ScorerSpec{{Type: "decay", ReferenceTime: &ref, NullTimestampScore: casefile.FloatPtr(0.4),
				Curve: &policy.CurveSpec{Type: "step", Windows: []policy.WindowSpec{{MaxAgeSecs: 3600, Score: 0.9}, {MaxAgeSecs: 7200, Score: 0.5}}}}}},
			Items: richItems(2, -1)}})
		gomega.Expect(d.Case.Input.Scorers[0].Curve.Windows).To(gomega.Equal([]policy.WindowSpec{{MaxAgeSecs: 3600, Score: 0.9}}))
	})
})

// These pin the three shrinking steps that a mutation sample of
// explore_shrink.go left unguarded (runner/explore/EXPLORE.md).
var _ = ginkgo.Describe("explore's shrinker, on composites, inner slicers and the plain kind scorer", func() {
	ginkgo.It("removes the children a composite's bug does not need and keeps the two it does", func() {
		// The bug: a composite of two or more children, one of them
		// priority, adds 0.01 to every score. Hoisting priority out of the
		// composite loses the bug, so a composite of priority and one
		// other child must remain.
		impl := bugImpl{func(req protocol.Request, out *protocol.Output) {
			sc := req.Case.Scorers[0]
			if req.Stage != casefile.StageScoring || sc.Type != "composite" || len(sc.Children) < 2 ||
				!slices.ContainsFunc(sc.Children, func(c policy.ScorerSpec) bool { return c.Type == "priority" }) {
				return
			}
			out.Scores = slices.Clone(out.Scores)
			for k := range out.Scores {
				out.Scores[k].Score += 0.01
			}
		}}
		d := shrunk(impl, &casefile.Case{ID: "children", Tier: casefile.TierOptional, Stage: casefile.StageScoring, Input: casefile.Input{
			Spec: policy.Spec{Scorers: []policy.ScorerSpec{{Type: "composite", Children: []policy.ScorerSpec{
				{Weight: casefile.FloatPtr(1), Type: "tag", TagWeights: []policy.TagWeightSpec{{Tag: "a", Weight: 1}}},
				{Weight: casefile.FloatPtr(2), Type: "recency"},
				{Weight: casefile.FloatPtr(3), Type: "priority"},
				{Weight: casefile.FloatPtr(4), Type: "reflexive"}}}}},
			Items: richItems(2, -1)}})
		sc := d.Case.Input.Scorers[0]
		gomega.Expect(sc.Type).To(gomega.Equal("composite"))
		gomega.Expect(sc.Children).To(gomega.HaveLen(2))
		gomega.Expect(slices.ContainsFunc(sc.Children, func(c policy.ScorerSpec) bool { return c.Type == "priority" })).To(gomega.BeTrue())
	})

	ginkgo.It("hoists an inner knapsack out of a quota slicer, keeping its bucket size", func() {
		// The bug: any knapsack, inner or not, selects nothing.
		impl := bugImpl{func(req protocol.Request, out *protocol.Output) {
			if req.Stage == casefile.StageSlicing && (req.Case.Slicer == "knapsack" || req.Case.InnerSlicer == "knapsack") {
				out.Selected = nil
			}
		}}
		items := richItems(3, -1)
		for i := range items {
			items[i].Score = casefile.FloatPtr(0.9 - float64(i)/10)
		}
		d := shrunk(impl, &casefile.Case{ID: "hoist", Tier: casefile.TierOptional, Stage: casefile.StageSlicing, Input: casefile.Input{
			Spec: policy.Spec{Slicer: "quota", InnerSlicer: "knapsack", BucketSize: ptr(7), Quotas: []policy.QuotaSpec{
				{Kind: "Document", Require: casefile.FloatPtr(10), Cap: casefile.FloatPtr(60)}}},
			Budget: &casefile.Budget{TargetTokens: 300, MaxTokens: 300},
			Items:  items}})
		in := d.Case.Input
		gomega.Expect(in.Slicer).To(gomega.Equal("knapsack"))
		gomega.Expect(in.InnerSlicer).To(gomega.BeEmpty())
		gomega.Expect(in.Quotas).To(gomega.BeEmpty())
		gomega.Expect(in.BucketSize).To(gomega.Equal(ptr(7)))
	})

	ginkgo.It("moves a bug that any kind or tag scorer shows to the kind scorer with its default weights", func() {
		// The bug: a kind or tag scorer, however weighted, adds 0.01 to
		// every score. The shrinker moves a scorer toward the first
		// declared leaf that still shows the bug (recency, priority, kind,
		// ...), in its default configuration: the kind scorer's default
		// weights.
		impl := bugImpl{func(req protocol.Request, out *protocol.Output) {
			if t := req.Case.Scorers[0].Type; req.Stage == casefile.StageScoring && (t == "kind" || t == "tag") {
				out.Scores = slices.Clone(out.Scores)
				for k := range out.Scores {
					out.Scores[k].Score += 0.01
				}
			}
		}}
		d := shrunk(impl, &casefile.Case{ID: "kind", Tier: casefile.TierOptional, Stage: casefile.StageScoring, Input: casefile.Input{
			Spec: policy.Spec{Scorers: []policy.ScorerSpec{{Type: "tag",
				TagWeights: []policy.TagWeightSpec{{Tag: "a", Weight: 1}, {Tag: "b", Weight: 2}}}}},
			Items: richItems(2, -1)}})
		gomega.Expect(asJSON(d.Case.Input.Scorers)).To(gomega.Equal(asJSON([]policy.ScorerSpec{{Type: "kind", UseDefaultWeights: cupel.Ptr(true)}})))
	})
})

var _ = ginkgo.Describe("explore's vector header", func() {
	ginkgo.It("names seed and index for index 0 too, and the fuzz target only for a fuzzed case (index -1)", func() {
		d := &Divergence{Class: "placing / chronological / order", Seed: 4, Index: 0, OriginalItems: 3, ShrinkRuns: 5,
			Case: &casefile.Case{Stage: casefile.StagePlacing, Input: casefile.Input{Spec: policy.Spec{Placer: "chronological"}, Items: []casefile.Item{}}}}
		data, err := d.VectorTOML(nil)
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		gomega.Expect(string(data)).To(gomega.ContainSubstring("# Found by cupel-conform explore: seed 4, index 0 (regenerate with --seed 4; the case\n"))
		d.Index = -1
		data, err = d.VectorTOML(nil)
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		gomega.Expect(string(data)).To(gomega.ContainSubstring("# Found by explore's fuzz target under go test -fuzz"))
	})
})
