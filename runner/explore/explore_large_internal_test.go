package explore

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel/policy"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// engineExplorer is an explorer of go-cupel against itself.
func engineExplorer() *explorer {
	ginkgo.GinkgoHelper()
	info, err := runner.Engine().Hello(context.Background())
	gomega.Expect(err).NotTo(gomega.HaveOccurred())
	caps := newExploreCaps(info.Capabilities, info.Capabilities, nil)
	return &explorer{impl: runner.Engine(), oracle: runner.Engine(), caps: caps, gen: newExploreGen(caps), rep: &Report{},
		opts: Options{Seed: 1, Timeout: time.Minute}}
}

var _ = ginkgo.Describe("explore's large cases", func() {
	ginkgo.It("go beyond 1,024 and 4,096 items now and then, with duplicate content and shared tags, and are answered", func() {
		x := engineExplorer()
		var radix, table, wide int
		stages := map[string]bool{}
		for i := range 20000 {
			c := x.gen.generate(1, i)
			n := len(c.Input.Items)
			if n < exploreRadixItems {
				continue
			}
			radix++
			if n > exploreTableItems {
				table++
			}
			gomega.Expect(n).To(gomega.BeNumerically("<=", exploreMaxItems))
			gomega.Expect(c.Stage).NotTo(gomega.Equal(casefile.StageScoring), "index %d: scoring cases stay small", i)
			stages[c.Stage] = true
			contents := map[string]int{}
			tags := map[string]int{}
			for _, it := range c.Input.Items {
				contents[it.Content]++
				for _, t := range slices.Compact(slices.Sorted(slices.Values(it.Tags))) {
					tags[t]++
				}
			}
			gomega.Expect(len(contents)).To(gomega.BeNumerically("<", n*85/100), "index %d: duplicate content", i)
			gomega.Expect(slices.Max(slices.Collect(maps.Values(tags)))).To(gomega.BeNumerically(">=", 10), "index %d: a tag shared by many items", i)
			if len(tags) > 64 {
				wide++
			}
			o := x.check(context.Background(), c)
			gomega.Expect(o.kind).To(gomega.BeEmpty(), "index %d: go-cupel against itself", i)
			gomega.Expect(o.oracle()).NotTo(gomega.BeNil())
			gomega.Expect(o.oracle().Kind).To(gomega.Or(gomega.Equal(protocol.ResultOK), gomega.Equal(protocol.ResultRejected)), "index %d", i)
		}
		// About 1 case in 1,800 has 1,024 items or more, 1 in 4,000 more
		// than 4,096 (largeSize).
		gomega.Expect(radix).To(gomega.BeNumerically(">=", 5))
		gomega.Expect(table).To(gomega.BeNumerically(">=", 1))
		// Half of them have more than 64 distinct tags, half at most 64.
		gomega.Expect(wide).To(gomega.BeNumerically(">", 0))
		gomega.Expect(wide).To(gomega.BeNumerically("<", radix))
		gomega.Expect(len(stages)).To(gomega.BeNumerically(">=", 2))
	})

	ginkgo.It("shrink to a small case: a divergence at 5,000 items ends in the two items that show it", func() {
		d := shrunk(dupBug, largeDupCase())
		gomega.Expect(d.OriginalItems).To(gomega.Equal(5000))
		gomega.Expect(asJSON(d.Case.Input.Items)).To(gomega.Equal(asJSON([]casefile.Item{
			{Index: 0, Content: "a", Tokens: 1, Kind: "Message", Source: "Chat"},
			{Index: 1, Content: "a", Tokens: 1, Kind: "Message", Source: "Chat"}})))
		// Delta debugging halves the items: tens of runs, not thousands.
		gomega.Expect(d.ShrinkRuns).To(gomega.BeNumerically("<", 300))
	})
})

// dupBug is go-cupel but that an item whose content an earlier item has
// scores 0.01 more.
var dupBug = bugImpl{func(req protocol.Request, out *protocol.Output) {
	if req.Stage != casefile.StageScoring {
		return
	}
	seen := map[string]bool{}
	out.Scores = slices.Clone(out.Scores)
	for k, s := range out.Scores {
		if c := req.Case.Items[s.Index].Content; seen[c] {
			out.Scores[k].Score += 0.01
		} else {
			seen[c] = true
		}
	}
}}

// largeDupCase is a scoring case of 5,000 generated items, many with
// duplicate content.
func largeDupCase() *casefile.Case {
	g := engineExplorer().gen
	g.pcg.Seed(1, 0)
	return &casefile.Case{ID: "large", Tier: casefile.TierOptional, Stage: casefile.StageScoring, Input: casefile.Input{
		Spec: policy.Spec{Scorers: []policy.ScorerSpec{{Type: "frequency"}}}, Items: g.items(5000, itemGen{})}}
}

var _ = ginkgo.Describe("explore's shrinker budget", func() {
	ginkgo.It("stops at its budget of runs, keeping the smallest case so far", func() {
		x := engineExplorer()
		x.impl = dupBug
		x.opts.ShrinkRuns, x.opts.ShrinkTime = 12, time.Hour
		c := largeDupCase()
		o := x.check(context.Background(), c)
		d, _ := x.shrink(context.Background(), c, 0, o)
		gomega.Expect(d.ShrinkRuns).To(gomega.Equal(12))
		gomega.Expect(len(d.Case.Input.Items)).To(gomega.BeNumerically("<", 5000))
		gomega.Expect(len(d.Case.Input.Items)).To(gomega.BeNumerically(">", 2), "12 runs cannot reach the 2 items")
	})

	ginkgo.It("does not shrink once its context is done", func() {
		x := engineExplorer()
		x.impl = dupBug
		x.opts.ShrinkRuns, x.opts.ShrinkTime = 100, time.Hour
		c := largeDupCase()
		o := x.check(context.Background(), c)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		d, _ := x.shrink(ctx, c, 0, o)
		gomega.Expect(d).NotTo(gomega.BeNil())
		gomega.Expect(d.ShrinkRuns).To(gomega.Equal(0))
		gomega.Expect(d.Case.Input.Items).To(gomega.HaveLen(5000))
	})
})
