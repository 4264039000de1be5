package explore

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel/policy"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// bugImpl is go-cupel with the output of each run passed through bug.
type bugImpl struct {
	bug func(req protocol.Request, out *protocol.Output)
}

func (b bugImpl) Hello(ctx context.Context) (protocol.Identity, error) {
	return runner.Engine().Hello(ctx)
}

func (b bugImpl) Run(ctx context.Context, req protocol.Request) (protocol.Result, error) {
	r, err := runner.Engine().Run(ctx, req)
	if err != nil || r.Kind != protocol.ResultOK {
		return r, err
	}
	out := *r.Output
	b.bug(req, &out)
	r.Output = &out
	return r, nil
}

// shrunk shrinks the divergence impl shows on c, as Run does, and
// returns it.
func shrunk(impl protocol.Implementation, c *casefile.Case) *Divergence {
	ginkgo.GinkgoHelper()
	info, err := runner.Engine().Hello(context.Background())
	gomega.Expect(err).NotTo(gomega.HaveOccurred())
	caps := newExploreCaps(info.Capabilities, info.Capabilities, nil)
	x := &explorer{impl: impl, oracle: runner.Engine(), caps: caps, gen: newExploreGen(caps), rep: &Report{},
		opts: Options{Seed: 3, Timeout: time.Minute, ShrinkRuns: 5000, ShrinkTime: time.Hour}}
	o := x.check(context.Background(), c)
	gomega.Expect(o.kind).NotTo(gomega.BeEmpty(), "the case must diverge before shrinking")
	d, _ := x.shrink(context.Background(), c, 7, o)
	gomega.Expect(d).NotTo(gomega.BeNil())
	gomega.Expect(d.ShrinkRuns).To(gomega.BeNumerically("<", 5000), "shrinking must end before its budget")
	return d
}

func asJSON(v any) string {
	b, err := json.Marshal(v)
	gomega.Expect(err).NotTo(gomega.HaveOccurred())
	return string(b)
}

func ptr[T any](v T) *T { return &v }

// richItems are n items with every field set; item urgent (if in range)
// alone carries the tag "urgent".
func richItems(n, urgent int) []casefile.Item {
	items := make([]casefile.Item, n)
	for i := range items {
		ts := genBase.Add(time.Duration(i*37) * time.Hour)
		items[i] = casefile.Item{Index: i, Content: fmt.Sprintf("item number %d", i), Tokens: int64(20 + 7*i),
			Kind: []string{"Document", "ToolOutput", "Memory"}[i%3], Source: "Rag", Priority: ptr(int64(8 + i)),
			Tags: []string{"a", "b"}, Timestamp: &ts, FutureRelevanceHint: casefile.FloatPtr(0.3),
			Metadata: map[string]any{"lang": "go", "team": "x"}, Pinned: i == 4}
		if i == urgent {
			items[i].Tags = []string{"a", "urgent", "b"}
		}
	}
	return items
}

var _ = ginkgo.Describe("explore's shrinker", func() {
	ginkgo.It("reaches the fewest items, then the simplest pipeline configuration, each field at its simplest value", func() {
		// The bug: a selected item tagged "urgent" is left out of the output.
		impl := bugImpl{func(req protocol.Request, out *protocol.Output) {
			if req.Stage != casefile.StagePipeline {
				return
			}
			out.Ordered = slices.DeleteFunc(slices.Clone(out.Ordered), func(i int) bool {
				return slices.Contains(req.Case.Items[i].Tags, "urgent")
			})
		}}
		c := &casefile.Case{ID: "rich", Tier: casefile.TierOptional, Stage: casefile.StagePipeline, Input: casefile.Input{
			Spec: policy.Spec{Scorers: []policy.ScorerSpec{{Type: "composite", Children: []policy.ScorerSpec{
				{Weight: ptr[casefile.Float](1.5), Type: "kind", Weights: []policy.KindWeightSpec{{Kind: "Document", Weight: 2}}},
				{Weight: ptr[casefile.Float](0.5), Type: "scaled", Inner: &policy.ScorerSpec{Type: "tag", TagWeights: []policy.TagWeightSpec{{Tag: "urgent", Weight: 1}}}},
			}}},
				Slicer: "quota", InnerSlicer: "greedy", Quotas: []policy.QuotaSpec{
					{Kind: "Document", Require: ptr[casefile.Float](10), Cap: ptr[casefile.Float](60)}, {Kind: "ToolOutput", Require: ptr[casefile.Float](0), Cap: ptr[casefile.Float](100)}},
				Placer: "u-shaped", Deduplication: ptr(false), OverflowStrategy: "proceed"},
			Budget: &casefile.Budget{TargetTokens: 400, MaxTokens: 500, OutputReserve: 50,
				ReservedSlots: map[string]int64{"Memory": 10}, EstimationSafetyMarginPercent: 10},
			Items: richItems(6, 3),
		}}
		d := shrunk(impl, c)
		want := casefile.Input{
			Spec: policy.Spec{Scorers: []policy.ScorerSpec{{Type: "recency"}}, Slicer: "greedy", Placer: "chronological",
				Deduplication: ptr(true), OverflowStrategy: "throw"},
			Budget: &casefile.Budget{TargetTokens: 1, MaxTokens: 1},
			Items:  []casefile.Item{{Index: 0, Content: "a", Tokens: 1, Kind: "Message", Source: "Chat", Tags: []string{"urgent"}}},
		}
		gomega.Expect(asJSON(d.Case.Input)).To(gomega.Equal(asJSON(want)))
		gomega.Expect(d.Class).To(gomega.Equal("pipeline / recency + greedy + chronological / " + d.Kind))
		gomega.Expect(d.OriginalItems).To(gomega.Equal(6))
		gomega.Expect(d.Index).To(gomega.Equal(7))
		gomega.Expect(d.Case.ID).To(gomega.Equal(exploreID(casefile.StagePipeline, 3, 7)))
	})

	ginkgo.It("hoists the scorer that shows it out of composites and scaled, and keeps one decay window", func() {
		// The bug: a decay scorer with a step curve anywhere in the tree
		// adds 0.01 to the first score.
		var hasStep func(sc *policy.ScorerSpec) bool
		hasStep = func(sc *policy.ScorerSpec) bool {
			if sc.Type == "decay" && sc.Curve != nil && sc.Curve.Type == "step" {
				return true
			}
			if sc.Inner != nil && hasStep(sc.Inner) {
				return true
			}
			return slices.ContainsFunc(sc.Children, func(ch policy.ScorerSpec) bool { return hasStep(&ch) })
		}
		impl := bugImpl{func(req protocol.Request, out *protocol.Output) {
			if req.Stage == casefile.StageScoring && hasStep(&req.Case.Scorers[0]) && len(out.Scores) > 0 {
				out.Scores = slices.Clone(out.Scores)
				out.Scores[0].Score += 0.01
			}
		}}
		ref := genBase.Add(1000 * time.Hour)
		decay := policy.ScorerSpec{Type: "decay", ReferenceTime: &ref, NullTimestampScore: casefile.FloatPtr(0.4),
			Curve: &policy.CurveSpec{Type: "step", Windows: []policy.WindowSpec{{MaxAgeSecs: 3600, Score: 0.9}, {MaxAgeSecs: 7200, Score: 0.5}, {MaxAgeSecs: 90000, Score: 0.2}}}}
		c := &casefile.Case{ID: "tree", Tier: casefile.TierOptional, Stage: casefile.StageScoring, Input: casefile.Input{
			Spec: policy.Spec{Scorers: []policy.ScorerSpec{{Type: "composite", Children: []policy.ScorerSpec{
				{Weight: ptr[casefile.Float](1), Type: "kind", UseDefaultWeights: ptr(true)},
				{Weight: ptr[casefile.Float](2), Type: "scaled", Inner: &decay},
				{Weight: ptr[casefile.Float](0.5), Type: "tag", TagWeights: []policy.TagWeightSpec{{Tag: "a", Weight: 1}, {Tag: "b", Weight: 0.5}}},
			}}}},
			Items: richItems(5, -1),
		}}
		d := shrunk(impl, c)
		want := decay
		want.Curve = &policy.CurveSpec{Type: "step", Windows: []policy.WindowSpec{{MaxAgeSecs: 3600, Score: 0.9}}}
		gomega.Expect(asJSON(d.Case.Input.Scorers[0])).To(gomega.Equal(asJSON(want)))
		gomega.Expect(asJSON(d.Case.Input.Items)).To(gomega.Equal(asJSON([]casefile.Item{
			{Index: 0, Content: "a", Tokens: 1, Kind: "Message", Source: "Chat"}})))
		gomega.Expect(d.Class).To(gomega.Equal("scoring / decay / scores"))
	})

	ginkgo.It("keeps the one count entry that shows it, at its lowest require and cap", func() {
		// The bug: shortfalls are not reported.
		impl := bugImpl{func(req protocol.Request, out *protocol.Output) {
			if req.Stage == casefile.StageSlicing {
				out.Shortfalls = nil
			}
		}}
		items := richItems(4, -1)
		for i := range items {
			items[i].Score = casefile.FloatPtr(0.9 - float64(i)/10)
			items[i].Kind = "Document"
		}
		c := &casefile.Case{ID: "counts", Tier: casefile.TierOptional, Stage: casefile.StageSlicing, Input: casefile.Input{
			Spec: policy.Spec{Slicer: "count_quota", InnerSlicer: "greedy", ScarcityBehavior: "degrade",
				Entries: []policy.CountEntrySpec{{Kind: "Memory", RequireCount: 2, CapCount: 3}, {Kind: "Document", RequireCount: 1, CapCount: 4}, {Kind: "Note", RequireCount: 3, CapCount: 5}}},
			Budget: &casefile.Budget{TargetTokens: 300, MaxTokens: 350},
			Items:  items,
		}}
		d := shrunk(impl, c)
		want := casefile.Input{
			Spec: policy.Spec{Slicer: "count_quota", InnerSlicer: "greedy", ScarcityBehavior: "degrade",
				Entries: []policy.CountEntrySpec{{Kind: "Memory", RequireCount: 1, CapCount: 1}}},
			Budget: &casefile.Budget{TargetTokens: 1, MaxTokens: 1},
			// One candidate is needed (the last that ddmin keeps); its
			// score stays, its other fields go.
			Items: []casefile.Item{{Index: 0, Content: "a", Tokens: 1, Kind: "Message", Source: "Chat", Score: casefile.FloatPtr(0.9 - float64(3)/10)}},
		}
		gomega.Expect(asJSON(d.Case.Input)).To(gomega.Equal(asJSON(want)), asJSON(d.Case.Input))
		gomega.Expect(d.Class).To(gomega.Equal("slicing / count_quota(greedy) / shortfalls"))
	})

	ginkgo.It("halves a priority the bug needs down to 1 and a timestamp to the base time", func() {
		// The bug: a positive priority and a timestamp add 0.01 to the score.
		impl := bugImpl{func(req protocol.Request, out *protocol.Output) {
			if req.Stage != casefile.StageScoring {
				return
			}
			for _, s := range out.Scores {
				if it := req.Case.Items[s.Index]; it.Priority != nil && *it.Priority > 0 && it.Timestamp != nil {
					out.Scores = slices.Clone(out.Scores)
					out.Scores[0].Score += 0.01
					return
				}
			}
		}}
		d := shrunk(impl, &casefile.Case{ID: "prio", Tier: casefile.TierOptional, Stage: casefile.StageScoring, Input: casefile.Input{
			Spec: policy.Spec{Scorers: []policy.ScorerSpec{{Type: "priority"}}}, Items: richItems(3, -1)}})
		base := genBase
		gomega.Expect(asJSON(d.Case.Input.Items)).To(gomega.Equal(asJSON([]casefile.Item{
			{Index: 0, Content: "a", Tokens: 1, Kind: "Message", Source: "Chat", Priority: ptr(int64(1)), Timestamp: &base}})))
		gomega.Expect(d.Case.Input.Scorers[0].Type).To(gomega.Equal("recency"))
	})

	ginkgo.It("names contents a, b, ... in order of first appearance, equal where they were equal", func() {
		gomega.Expect(shortName(0)).To(gomega.Equal("a"))
		gomega.Expect(shortName(25)).To(gomega.Equal("z"))
		gomega.Expect(shortName(26)).To(gomega.Equal("x26"))
		// Two items with the same content must stay equal: the bug needs
		// duplicates.
		impl := bugImpl{func(req protocol.Request, out *protocol.Output) {
			if req.Stage != casefile.StagePlacing || len(req.Case.Items) < 3 {
				return
			}
			seen := map[string]bool{}
			for _, it := range req.Case.Items {
				if seen[it.Content] {
					out.Ordered = slices.Clone(out.Ordered)
					slices.Reverse(out.Ordered)
					return
				}
				seen[it.Content] = true
			}
		}}
		items := richItems(6, -1)
		for i := range items {
			items[i].Score = casefile.FloatPtr(float64(i) / 10)
		}
		items[4].Content = items[1].Content
		d := shrunk(impl, &casefile.Case{ID: "dups", Tier: casefile.TierOptional, Stage: casefile.StagePlacing, Input: casefile.Input{Spec: policy.Spec{Placer: "chronological"}, Items: items}})
		var got []string
		for _, it := range d.Case.Input.Items {
			got = append(got, it.Content)
		}
		gomega.Expect(got).To(gomega.HaveLen(3))
		gomega.Expect(slices.Sorted(slices.Values(got))).To(gomega.Equal([]string{"a", "a", "b"}))
	})
})

var _ = ginkgo.Describe("explore's vector writer", func() {
	ginkgo.It("wraps the outputs in its header at the last comma within 100 columns, losing nothing", func() {
		var scores []protocol.IndexScore
		for i := range 60 {
			scores = append(scores, protocol.IndexScore{Index: i, Score: casefile.Float(float64(i) / 7)})
		}
		r := &protocol.Result{Kind: protocol.ResultOK, Output: &protocol.Output{Scores: scores}}
		var w tomlWriter
		w.commentResult(r, "")
		lines := strings.Split(strings.TrimSuffix(w.buf.String(), "\n"), "\n")
		gomega.Expect(len(lines)).To(gomega.BeNumerically(">", 10))
		var chunks []string
		for _, l := range lines {
			gomega.Expect(l).To(gomega.HavePrefix("#   "))
			chunks = append(chunks, strings.TrimPrefix(l, "#   "))
		}
		gomega.Expect(strings.Join(chunks, "")).To(gomega.Equal(asJSON(r)))
		for i, ch := range chunks[:len(chunks)-1] {
			gomega.Expect(len(ch)).To(gomega.BeNumerically("<=", 100), "line %d", i)
			gomega.Expect(ch).To(gomega.HaveSuffix(","), "line %d", i)
			// The cut is the last comma that fits: the next comma is past 100.
			next := strings.IndexByte(chunks[i+1], ',')
			gomega.Expect(next < 0 || len(ch)+next+1 > 100).To(gomega.BeTrue(), "line %d cut early: %q", i, ch)
		}
		// A line without a comma in its first 100 columns is cut at 100.
		w = tomlWriter{}
		w.commentResult(&protocol.Result{Kind: protocol.ResultError, Error: &protocol.ErrorInfo{Kind: "x", Message: strings.Repeat("m", 250)}}, "")
		lines = strings.Split(strings.TrimSuffix(w.buf.String(), "\n"), "\n")
		gomega.Expect(lines).To(gomega.HaveLen(4))
		gomega.Expect(lines[2]).To(gomega.Equal("#   " + strings.Repeat("m", 100)))
		w = tomlWriter{}
		w.commentResult(nil, "")
		gomega.Expect(w.buf.String()).To(gomega.Equal("#   (none)\n"))
		w = tomlWriter{}
		w.commentResult(r, "it crashed")
		gomega.Expect(w.buf.String()).To(gomega.Equal("#   it crashed\n"))
	})

	ginkgo.It("keeps 30 lines of the verdict and 15 of stderr in its header", func() {
		var details []string
		for i := range 40 {
			details = append(details, fmt.Sprintf("detail %d", i))
		}
		var stderr []string
		for i := range 20 {
			stderr = append(stderr, fmt.Sprintf("stderr %d", i))
		}
		d := &Divergence{Class: "placing / chronological / order", Seed: 4, Index: 9, OriginalItems: 12, ShrinkRuns: 33,
			Case:       &casefile.Case{Stage: casefile.StagePlacing, Input: casefile.Input{Spec: policy.Spec{Placer: "chronological"}, Items: []casefile.Item{}}},
			Comparison: runner.Comparison{Outcome: protocol.OutcomeFail, Message: "m", Details: details}, Stderr: strings.Join(stderr, "\n") + "\n"}
		data, err := d.VectorTOML(nil)
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		text := string(data)
		gomega.Expect(text).To(gomega.ContainSubstring("# detail 29\n#   ... (10 more lines)\n"))
		gomega.Expect(text).NotTo(gomega.ContainSubstring("detail 30"))
		gomega.Expect(text).To(gomega.ContainSubstring("#   stderr 5\n"))
		gomega.Expect(text).NotTo(gomega.ContainSubstring("stderr 4\n"))
		gomega.Expect(text).To(gomega.ContainSubstring("#   stderr 19\n"))
		gomega.Expect(text).To(gomega.ContainSubstring("# had 12 items before shrinking, 33 runs shrank it to 0)."))
		gomega.Expect(text).NotTo(gomega.ContainSubstring("Neither side is trusted"))
		gomega.Expect(text).To(gomega.ContainSubstring("outputs of go-cupel (in process)"))
		d.Comparison.Details = nil
		data, err = d.VectorTOML(&Report{Implementation: protocol.Identity{Name: "impl", Version: "1", Language: "rust"}, Oracle: protocol.Identity{Name: "other"}})
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		gomega.Expect(string(data)).To(gomega.ContainSubstring("# Outcome: fail\n# m\n"))
		gomega.Expect(string(data)).To(gomega.ContainSubstring("Neither side is trusted"))
		gomega.Expect(string(data)).To(gomega.ContainSubstring("# Implementation: impl 1 (rust)\n# Oracle:         other\n"))
	})

	ginkgo.It("writes strings, floats and budgets the loader reads back exactly", func() {
		odd := "q\"b\\s\nn\tt\x01\x1f\x7f é"
		item := casefile.Item{Index: 0, Content: odd, Tokens: -3, Kind: "Mes sage", Source: "", Tags: []string{odd, ""},
			Metadata: map[string]any{"k y": odd, "": 1.5, "n": -2.5, "b": false}, FutureRelevanceHint: casefile.FloatPtr(math.Copysign(0, -1))}
		for _, margin := range []float64{0, math.Copysign(0, -1), 12.5} {
			c := &casefile.Case{Stage: casefile.StagePipeline, Input: casefile.Input{Spec: policy.Spec{Scorers: []policy.ScorerSpec{{Type: "reflexive"}},
				Slicer: "greedy", Placer: "chronological", Deduplication: ptr(true), OverflowStrategy: "throw"},
				Budget: &casefile.Budget{TargetTokens: 5, MaxTokens: 9, OutputReserve: 2, ReservedSlots: map[string]int64{"a b": 1},
					EstimationSafetyMarginPercent: casefile.Float(margin)},
				Items: []casefile.Item{item}}, Expect: casefile.Expect{Error: casefile.KindInvalidBudget}}
			var w tomlWriter
			gomega.Expect(writeCase(&w, c, "odd")).To(gomega.Succeed())
			loaded, err := casefile.LoadCase("optional/pipeline/odd.toml", w.buf.Bytes())
			gomega.Expect(err).NotTo(gomega.HaveOccurred(), w.buf.String())
			gomega.Expect(asJSON(loaded.Input)).To(gomega.Equal(asJSON(c.Input)), "%s\n%s\n%s", w.buf.String(), asJSON(loaded.Input), asJSON(c.Input))
			gomega.Expect(loaded.Expect.Error).To(gomega.Equal(casefile.KindInvalidBudget))
			// JSON does not show the sign of zero.
			gomega.Expect(math.Signbit(float64(loaded.Input.Budget.EstimationSafetyMarginPercent))).To(gomega.Equal(math.Signbit(margin)))
			gomega.Expect(math.Signbit(float64(*loaded.Input.Items[0].FutureRelevanceHint))).To(gomega.BeTrue())
		}
	})

	ginkgo.It("writes vectors that load back as the same case and reproduce the divergence", func() {
		out := ginkgo.GinkgoT().TempDir()
		impl := bugImpl{func(req protocol.Request, out *protocol.Output) {
			switch req.Stage {
			case casefile.StageScoring:
				if len(out.Scores) > 1 {
					out.Scores = slices.Clone(out.Scores)
					out.Scores[1].Score += 0.5
				}
			case casefile.StageSlicing:
				if len(out.Selected) > 1 {
					out.Selected = out.Selected[1:]
				}
			case casefile.StagePlacing, casefile.StagePipeline:
				if len(out.Ordered) > 1 {
					out.Ordered = slices.Clone(out.Ordered)
					slices.Reverse(out.Ordered)
				}
			}
		}}
		rep, err := Run(context.Background(), impl, Options{Seed: 12, Cases: 400, Out: out})
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		gomega.Expect(len(rep.Divergences)).To(gomega.BeNumerically(">=", 4))
		suite, err := casefile.LoadSuite(os.DirFS(out))
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		gomega.Expect(suite.Errors).To(gomega.BeEmpty())
		byID := map[string]*casefile.Case{}
		for _, c := range suite.Cases {
			byID[c.ID] = c
		}
		for _, d := range rep.Divergences {
			loaded := byID[d.Case.ID]
			gomega.Expect(loaded).NotTo(gomega.BeNil(), d.Case.ID)
			gomega.Expect(loaded.Stage).To(gomega.Equal(d.Stage))
			gomega.Expect(asJSON(loaded.Input)).To(gomega.Equal(asJSON(d.Case.Input)), d.File)
			// The same divergence, of the same kind, from the file.
			r, err := impl.Run(context.Background(), protocol.NewRequest(1, loaded))
			gomega.Expect(err).NotTo(gomega.HaveOccurred())
			v := runner.Compare(loaded, r)
			gomega.Expect(v.Outcome).To(gomega.Equal(protocol.OutcomeFail), d.File)
			gomega.Expect(diffKind(v)).To(gomega.Equal(d.Kind), d.File)
			gr, err := runner.Engine().Run(context.Background(), protocol.NewRequest(1, loaded))
			gomega.Expect(err).NotTo(gomega.HaveOccurred())
			gomega.Expect(runner.Compare(loaded, gr).Outcome).To(gomega.Equal(protocol.OutcomePass), d.File)
		}
	})
})
