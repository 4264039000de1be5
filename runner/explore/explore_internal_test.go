package explore

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel/policy"
	"github.com/cupel-go/go-cupel/internal/testtool"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// The generator and the vector writer, from inside: every generated case,
// with go-cupel's outputs as its expectations, is written as a vector and
// loaded back, and must come back with the same inputs and a verdict that
// go-cupel passes.
var _ = ginkgo.Describe("explore's generator and vector writer", func() {
	engineCaps := func() protocol.Capabilities {
		info, err := runner.Engine().Hello(context.Background())
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		return info.Capabilities
	}

	ginkgo.It("is deterministic per (seed, index) and differs across seeds", func() {
		caps := newExploreCaps(engineCaps(), engineCaps(), nil)
		a, b := newExploreGen(caps), newExploreGen(caps)
		differ := 0
		for i := range 300 {
			x, _ := json.Marshal(a.generate(7, i))
			y, _ := json.Marshal(b.generate(7, i))
			gomega.Expect(string(x)).To(gomega.Equal(string(y)), "case %d", i)
			z, _ := json.Marshal(b.generate(8, i))
			if string(z) != string(x) {
				differ++
			}
		}
		gomega.Expect(differ).To(gomega.BeNumerically(">", 290))
		// Out of order, too: case (7, 5) does not depend on what came before.
		x, _ := json.Marshal(a.generate(7, 5))
		a.generate(7, 200)
		y, _ := json.Marshal(a.generate(7, 5))
		gomega.Expect(string(y)).To(gomega.Equal(string(x)))
	})

	// Under the race detector the spec round-trips every third case (the
	// writer and the loader run in one goroutine); the plain and 386
	// passes round-trip every case, and both see all 3,000 generated.
	roundTripEvery := testtool.Iterations(1, 3)
	ginkgo.It("round-trips every generated case through the vector format", func() {
		caps := newExploreCaps(engineCaps(), engineCaps(), nil)
		g := newExploreGen(caps)
		seen := map[string]bool{}
		for i := range 3000 {
			c := g.generate(11, i)
			r, err := runner.Engine().Run(context.Background(), protocol.NewRequest(1, c))
			gomega.Expect(err).NotTo(gomega.HaveOccurred())
			if !exploreExpect(c, r, true) {
				continue
			}
			seen[c.Stage+" "+component(c)] = true
			seen["expect "+c.Expect.Error] = true
			if i%roundTripEvery != 0 {
				continue
			}
			var w tomlWriter
			gomega.Expect(writeCase(&w, c, "round trip")).To(gomega.Succeed())
			name := fmt.Sprintf("optional/%s/case-%d.toml", c.Stage, i)
			loaded, err := casefile.LoadCase(name, w.buf.Bytes())
			gomega.Expect(err).NotTo(gomega.HaveOccurred(), "case %d:\n%s", i, w.buf.String())
			gomega.Expect(loaded.UnknownKeys).To(gomega.BeEmpty(), "case %d:\n%s", i, w.buf.String())
			want, _ := json.Marshal(c.Input)
			got, _ := json.Marshal(loaded.Input)
			gomega.Expect(string(got)).To(gomega.Equal(string(want)), "case %d:\n%s", i, w.buf.String())
			v := runner.Compare(loaded, r)
			gomega.Expect(v.Outcome).To(gomega.Equal(protocol.OutcomePass), "case %d: %s\n%s", i, v.Message, w.buf.String())
			gomega.Expect(runner.Compare(c, r).Outcome).To(gomega.Equal(protocol.OutcomePass))
		}
		// Every component go-cupel declares was generated in its stage, and
		// some cases expect errors.
		for _, s := range policy.ScorerTypes() {
			gomega.Expect(seen).To(gomega.HaveKey("scoring "+s), "scorer %s", s)
		}
		for _, s := range policy.SlicerTypes() {
			gomega.Expect(seen).To(gomega.HaveKey(gomega.MatchRegexp("^slicing "+regexp.QuoteMeta(s)+"($|\\()")), "slicer %s", s)
		}
		for _, p := range policy.PlacerTypes() {
			gomega.Expect(seen).To(gomega.HaveKey("placing "+p), "placer %s", p)
		}
		gomega.Expect(seen).To(gomega.HaveKey("expect " + casefile.KindInvalidBudget))
		gomega.Expect(seen).To(gomega.HaveKey("expect " + casefile.KindOverflow))
	})

	ginkgo.It("generates nothing go-cupel answers unsupported (one reference time a case)", func() {
		caps := newExploreCaps(engineCaps(), engineCaps(), nil)
		g := newExploreGen(caps)
		decays := 0
		for i := range 20000 {
			c := g.generate(1, i)
			r, err := runner.Engine().Run(context.Background(), protocol.NewRequest(1, c))
			gomega.Expect(err).NotTo(gomega.HaveOccurred())
			gomega.Expect(r.Kind).NotTo(gomega.Equal(protocol.ResultUnsupported), "case %d: %s", i, r.Reason)
			gomega.Expect(exploreExpect(c, r, true)).To(gomega.BeTrue(), "case %d", i)
			var refs []time.Time
			var walk func(sc *policy.ScorerSpec)
			walk = func(sc *policy.ScorerSpec) {
				if sc.ReferenceTime != nil {
					refs = append(refs, *sc.ReferenceTime)
				}
				for j := range sc.Children {
					walk(&sc.Children[j])
				}
				if sc.Inner != nil {
					walk(sc.Inner)
				}
			}
			for j := range c.Input.Scorers {
				walk(&c.Input.Scorers[j])
			}
			if len(refs) > 1 {
				decays++
				for _, t := range refs[1:] {
					gomega.Expect(t.Equal(refs[0])).To(gomega.BeTrue(), "case %d: reference times %v", i, refs)
				}
			}
		}
		gomega.Expect(decays).To(gomega.BeNumerically(">", 0), "some cases have two decay scorers")
	})

	ginkgo.It("generates only what hello declares", func() {
		impl := protocol.Capabilities{Stages: []string{casefile.StageScoring, casefile.StagePlacing, casefile.StagePipeline},
			Scorers: []string{"priority", "composite"}, Slicers: []string{}, Placers: []string{"u-shaped"}}
		caps := newExploreCaps(impl, engineCaps(), nil)
		gomega.Expect(caps.stages).To(gomega.Equal([]string{casefile.StageScoring, casefile.StagePlacing}), "pipeline needs a slicer")
		g := newExploreGen(caps)
		var walk func(sc *policy.ScorerSpec)
		walk = func(sc *policy.ScorerSpec) {
			gomega.Expect([]string{"priority", "composite"}).To(gomega.ContainElement(sc.Type))
			for i := range sc.Children {
				walk(&sc.Children[i])
			}
		}
		for i := range 500 {
			c := g.generate(3, i)
			switch c.Stage {
			case casefile.StageScoring:
				walk(&c.Input.Scorers[0])
			case casefile.StagePlacing:
				gomega.Expect(c.Input.Placer).To(gomega.Equal("u-shaped"))
			default:
				ginkgo.Fail("stage " + c.Stage)
			}
		}
	})
})
