package explore

import (
	"context"
	"strings"
	"testing/fstest"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/policy"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
	"github.com/cupel-go/go-cupel/runner/requirement"
)

var _ = ginkgo.Describe("a written vector's covers", func() {
	catalogue := func() *requirement.Catalogue {
		entry := func(id, kind, test, extra string) string {
			return "[[requirement]]\nid = \"" + id + "\"\nsection = \"Algorithm\"\nkind = \"" + kind + "\"\nstatement = \"Statement of " + id + ".\"\ntest = \"" + test + "\"\n" + extra + "\n"
		}
		cat, err := requirement.Load(fstest.MapFS{
			"32-chronologicalplacer.toml": {Data: []byte("chapter = 32\ntitle = \"ChronologicalPlacer\"\n\n" +
				entry("R32.1", "MUST", "protocol", "") + entry("R32.2", "MUST NOT", "api", `tests = ["cupel/placer_test.go"]`) + entry("R32.3", "step", "protocol", ""))},
			"33-ushapedplacer.toml": {Data: []byte("chapter = 33\ntitle = \"UShapedPlacer\"\n\n" + entry("R33.1", "MUST", "protocol", ""))},
		})
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		return cat
	}
	divergence := func(placer string) *Divergence {
		return &Divergence{Class: "placing / " + placer + " / order", Stage: casefile.StagePlacing, Component: placer, Kind: "order", Seed: 4, Index: 9,
			Case:       &casefile.Case{Stage: casefile.StagePlacing, Input: casefile.Input{Spec: policy.Spec{Placer: placer}, Items: []casefile.Item{{Content: "a", Kind: "Message", Source: "Chat"}}}, Expect: casefile.Expect{Ordered: []casefile.Ref{{Content: "a"}}}},
			Comparison: runner.Comparison{Outcome: protocol.OutcomeFail, Message: "m"}}
	}

	ginkgo.It("are left to a person, who picks from the protocol requirements of the component's chapter", func() {
		data, err := divergence("chronological").VectorTOML(&Report{requirements: catalogue()})
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		text := string(data)
		gomega.Expect(text).To(gomega.ContainSubstring("# COVERS: A PERSON MUST CHOOSE. A vector covers a requirement only if an\n"))
		gomega.Expect(text).To(gomega.ContainSubstring("# Candidates, the protocol requirements of spec chapter 32 (ChronologicalPlacer):\n" +
			"#   R32.1 (MUST) Statement of R32.1.\n#   R32.3 (step) Statement of R32.3.\n"))
		gomega.Expect(text).NotTo(gomega.ContainSubstring("R32.2"), "an api requirement is no vector's")
		gomega.Expect(text).NotTo(gomega.ContainSubstring("R33.1"), "another placer's chapter")
		gomega.Expect(text).NotTo(gomega.MatchRegexp(`(?m)^covers\s*=`))

		// The vector loads without covers, and lint's check refuses it in
		// a suite that must cover the catalogue.
		c, err := casefile.LoadCase("optional/placing/explore-chronological-order.toml", data)
		gomega.Expect(err).NotTo(gomega.HaveOccurred(), text)
		gomega.Expect(c.Covers).To(gomega.BeEmpty())
		problems := requirement.Cover(catalogue(), []*casefile.Case{c}).Problems(true)
		gomega.Expect(problems).NotTo(gomega.BeEmpty())
		gomega.Expect(problems[0].Kind).To(gomega.Equal(requirement.BareCase))
		gomega.Expect(problems[0].File).To(gomega.Equal("optional/placing/explore-chronological-order.toml"))
	})

	ginkgo.It("say so when the catalogue holds no candidate", func() {
		data, err := divergence("u-shaped").VectorTOML(&Report{requirements: catalogue()})
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		gomega.Expect(string(data)).To(gomega.ContainSubstring("# Candidates, the protocol requirements of spec chapter 33 (UShapedPlacer):\n#   R33.1 (MUST)"))
		empty, err := requirement.Load(fstest.MapFS{})
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		data, err = divergence("u-shaped").VectorTOML(&Report{requirements: empty})
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		gomega.Expect(string(data)).To(gomega.ContainSubstring("# The catalogue holds no protocol requirement of spec chapter 33:\n# pick from cupel-conform requirements.\n"))
	})

	ginkgo.It("name the pipeline's chapters, and the diagnostics' for a diagnostics divergence", func() {
		d := divergence("chronological")
		d.Case.Stage, d.Kind = casefile.StagePipeline, "diagnostics excluded"
		d.Case.Input.Scorers, d.Case.Input.Slicer, d.Case.Input.Budget = []policy.ScorerSpec{{Type: "reflexive"}}, "greedy", &casefile.Budget{TargetTokens: 5, MaxTokens: 5}
		d.Case.Input.Deduplication, d.Case.Input.OverflowStrategy = cupel.Ptr(true), "throw"
		data, err := d.VectorTOML(nil) // the embedded catalogue
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		gomega.Expect(string(data)).To(gomega.MatchRegexp(`spec chapters 06.*, 12.*, 34.*, 38`))
	})

	ginkgo.It("name no chapter for a component the spec does not define", func() {
		data, err := divergence("sideways").VectorTOML(&Report{requirements: catalogue()})
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		gomega.Expect(strings.Count(string(data), "No spec chapter defines sideways: pick from cupel-conform requirements.")).To(gomega.Equal(1))
	})

	ginkgo.It("come from Options.Requirements during a run", func() {
		cat := catalogue()
		rep, err := Run(context.Background(), runner.Engine(), Options{Seed: 1, Cases: 1, Requirements: cat})
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		gomega.Expect(rep.requirements).To(gomega.BeIdenticalTo(cat))
	})
})
