package requirement_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel/policy"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/requirement"
)

func vcase(id string, covers ...string) *casefile.Case {
	tier, _, _ := strings.Cut(id, "/")
	cs := &casefile.Case{ID: id, Tier: tier, Stage: casefile.StageSlicing, File: id + ".toml", Covers: covers}
	if len(covers) > 0 {
		cs.CoversLine = 4
	}
	return cs
}

func catalogue() *requirement.Catalogue {
	GinkgoHelper()
	cat, err := load(map[string]string{"26-greedyslice.toml": greedy, "rulings.toml": rulings, "00-introduction.toml": intro,
		"23-decayscorer.toml":   "chapter = 23\ntitle = \"DecayScorer\"\n\n[[requirement]]\n" + entry("R23.1"),
		"27-knapsackslice.toml": "chapter = 27\ntitle = \"KnapsackSlice\"\n\n[[requirement]]\n" + entry("R27.1", "kind", `"SHOULD"`)})
	Expect(err).NotTo(HaveOccurred())
	return cat
}

func ids(cases []*casefile.Case) []string {
	var out []string
	for _, c := range cases {
		out = append(out, c.ID)
	}
	return out
}

func reqIDs(rs []requirement.Requirement) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

var _ = Describe("Cover", func() {
	cases := func() []*casefile.Case {
		return []*casefile.Case{
			vcase("optional/slicing/a", "R26.1", "RL26", "R26.1"),
			vcase("required/slicing/b", "R26.1", "R99.9"),
			vcase("required/slicing/bare"),
			vcase("optional/slicing/c", "R26.2"),
		}
	}

	It("maps each requirement to its cases in suite order, once each", func() {
		cv := requirement.Cover(catalogue(), cases())
		Expect(ids(cv.Cases["R26.1"])).To(Equal([]string{"optional/slicing/a", "required/slicing/b"}))
		Expect(ids(cv.Cases["RL26"])).To(Equal([]string{"optional/slicing/a"}))
		Expect(ids(cv.Cases["R26.2"])).To(Equal([]string{"optional/slicing/c"}))
		Expect(cv.Cases).NotTo(HaveKey("R0.1"))
		Expect(cv.Cases).NotTo(HaveKey("R99.9"))
	})

	It("keeps the unknown ids with their file and line, and the bare cases", func() {
		cv := requirement.Cover(catalogue(), cases())
		Expect(cv.Unknown).To(Equal([]requirement.UnknownID{{Case: "required/slicing/b", File: "required/slicing/b.toml", Line: 4, ID: "R99.9"}}))
		Expect(ids(cv.Bare)).To(Equal([]string{"required/slicing/bare"}))
	})

	It("lists the protocol requirements no case covers, in catalogue order", func() {
		cv := requirement.Cover(catalogue(), cases())
		// R26.2 is api and R26.10 none: covered or not, they are not the protocol's.
		Expect(reqIDs(cv.Uncovered())).To(Equal([]string{"R0.1", "R23.1", "R27.1", "RL3"}))
	})

	It("tells whether a case of a tier covers a requirement", func() {
		cv := requirement.Cover(catalogue(), cases())
		Expect(cv.CoveredIn("R26.1", casefile.TierRequired)).To(BeTrue())
		Expect(cv.CoveredIn("R26.1", casefile.TierOptional)).To(BeTrue())
		Expect(cv.CoveredIn("RL26", casefile.TierRequired)).To(BeFalse())
		Expect(cv.CoveredIn("RL26", casefile.TierOptional)).To(BeTrue())
		Expect(cv.CoveredIn("R0.1", casefile.TierOptional)).To(BeFalse())
	})

	It("reads covers and its line from a vector file", func() {
		c, err := casefile.LoadCase("required/placing/p.toml", []byte("[test]\nname = \"p\"\nstage = \"placing\"\nplacer = \"chronological\"\ncovers = [\"R32.1\",\n  \"R32.2\"]\n\n[[items]]\ncontent = \"a\"\n\n[expected]\nordered_contents = [\"a\"]\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Covers).To(Equal([]string{"R32.1", "R32.2"}))
		Expect(c.CoversLine).To(Equal(5))
	})
})

var _ = Describe("Problems", func() {
	It("reports only unknown ids when the suite does not claim to be complete", func() {
		cv := requirement.Cover(catalogue(), []*casefile.Case{vcase("required/slicing/b", "R99.9"), vcase("required/slicing/bare")})
		ps := cv.Problems(false)
		Expect(ps).To(HaveLen(1))
		Expect(ps[0].Kind).To(Equal(requirement.UnknownCover))
		Expect(ps[0].String()).To(Equal(`required/slicing/b.toml:4: test.covers: "R99.9" is no requirement of the catalogue`))
	})

	It("reports unknown ids, bare cases and uncovered requirements, in that order, for a complete suite", func() {
		cv := requirement.Cover(catalogue(), []*casefile.Case{vcase("required/slicing/b", "R99.9", "R26.1"), vcase("required/slicing/bare")})
		var lines []string
		for _, p := range cv.Problems(true) {
			lines = append(lines, p.String())
		}
		Expect(lines).To(Equal([]string{
			`required/slicing/b.toml:4: test.covers: "R99.9" is no requirement of the catalogue`,
			`required/slicing/bare.toml: covers no requirement: [test] covers must name the requirements the case checks`,
			`00-introduction.toml: R0.1: tested by the protocol, and no vector covers it (Follow the spec.)`,
			`23-decayscorer.toml: R23.1: tested by the protocol, and no vector covers it (Do it.)`,
			`27-knapsackslice.toml: R27.1: tested by the protocol, and no vector covers it (Do it.)`,
			`rulings.toml: RL3: tested by the protocol, and no vector covers it (Scores are clamped.)`,
			`rulings.toml: RL26: tested by the protocol, and no vector covers it (Truncate walks the merged list.)`,
		}))
	})

	It("finds nothing in a suite that covers its catalogue", func() {
		cv := requirement.Cover(catalogue(), []*casefile.Case{vcase("optional/slicing/a", "R0.1", "R23.1", "R26.1", "R27.1", "RL3", "RL26")})
		Expect(cv.Problems(true)).To(BeEmpty())
	})
})

var _ = Describe("Summary", func() {
	It("counts by kind and method, the covered protocol requirements, and chapter 42's required chapters by the required tier", func() {
		cv := requirement.Cover(catalogue(), []*casefile.Case{
			vcase("optional/slicing/a", "R26.1", "R23.1", "RL3"), // R26.1 only in optional: not counted as required-tier
			vcase("required/slicing/b", "R0.1", "RL26"),          // chapter 0 and rulings are not chapter 42's
		})
		s := cv.Summary()
		Expect(s.Requirements).To(Equal(8))
		Expect(s.ByKind).To(Equal(map[requirement.Kind]int{requirement.Must: 2, requirement.MustNot: 1, requirement.Should: 1, requirement.May: 1, requirement.Step: 1, requirement.Ruling: 2}))
		Expect(s.ByMethod).To(Equal(map[requirement.Method]int{requirement.Protocol: 6, requirement.API: 1, requirement.None: 1}))
		Expect([]int{s.Protocol, s.Covered}).To(Equal([]int{6, 5}))
		Expect([]int{s.RequiredProtocol, s.RequiredCovered}).To(Equal([]int{2, 0}))         // R26.1, R27.1 (a SHOULD)
		Expect([]int{s.RequiredTierProtocol, s.RequiredTierCovered}).To(Equal([]int{1, 0})) // R26.1: the SHOULD's vectors are optional
		Expect([]int{s.Vectors, s.Bare, s.UnknownIDs}).To(Equal([]int{2, 0, 0}))
		cv = requirement.Cover(catalogue(), []*casefile.Case{vcase("required/slicing/b", "R26.1", "R27.1", "R9.9"), vcase("optional/slicing/bare")})
		s = cv.Summary()
		Expect(s.Covered).To(Equal(2))
		Expect([]int{s.RequiredProtocol, s.RequiredCovered}).To(Equal([]int{2, 2}))
		Expect([]int{s.RequiredTierProtocol, s.RequiredTierCovered}).To(Equal([]int{1, 1}))
		Expect([]int{s.Vectors, s.Bare, s.UnknownIDs}).To(Equal([]int{2, 1, 1}))
	})
})

var _ = Describe("chapter 42's required components", func() {
	It("are the 8 original scorers, greedy, knapsack and quota slicing, both placers and the pipeline", func() {
		Expect(requirement.RequiredChapters()).To(Equal([]int{6, 7, 8, 9, 10, 11, 12, 14, 15, 16, 17, 18, 19, 20, 21, 26, 27, 28, 32, 33}))
		Expect(requirement.RequiredChapter(23)).To(BeFalse())
		Expect(requirement.RequiredChapter(29)).To(BeFalse())
	})

	It("put the vectors of their MUST, MUST NOT and steps in the required tier, and nothing else", func() {
		r := func(ch int, kind requirement.Kind) requirement.Requirement {
			return requirement.Requirement{Chapter: ch, Kind: kind}
		}
		Expect(requirement.RequiredTier(r(26, requirement.Must))).To(BeTrue())
		Expect(requirement.RequiredTier(r(6, requirement.MustNot))).To(BeTrue())
		Expect(requirement.RequiredTier(r(33, requirement.Step))).To(BeTrue())
		Expect(requirement.RequiredTier(r(26, requirement.Should))).To(BeFalse())
		Expect(requirement.RequiredTier(r(26, requirement.EdgeCase))).To(BeFalse())
		Expect(requirement.RequiredTier(r(26, requirement.May))).To(BeFalse())
		Expect(requirement.RequiredTier(r(29, requirement.Must))).To(BeFalse())
		Expect(requirement.RequiredTier(requirement.Requirement{Chapter: -1, Ruling: 26, Chapters: []int{26}, Kind: requirement.Ruling})).To(BeFalse())
	})

	It("name every component the protocol runs, in its stage", func() {
		var got []string
		for _, c := range requirement.Components {
			got = append(got, c.Stage+"/"+c.ID)
		}
		var want []string
		for _, l := range []struct {
			stage string
			ids   []string
		}{{casefile.StageScoring, policy.ScorerTypes()}, {casefile.StageSlicing, policy.SlicerTypes()}, {casefile.StagePlacing, policy.PlacerTypes()}} {
			for _, id := range l.ids {
				want = append(want, l.stage+"/"+id)
			}
		}
		Expect(got).To(ConsistOf(want))
	})
})

var _ = Describe("Candidates", func() {
	slicing := func(slicer, inner string) *casefile.Case {
		return &casefile.Case{Stage: casefile.StageSlicing, Input: casefile.Input{Spec: policy.Spec{Slicer: slicer, InnerSlicer: inner}}}
	}

	It("are the chapters of the component a case exercises", func() {
		Expect(requirement.CandidateChapters(slicing("greedy", ""), false)).To(Equal([]int{26}))
		Expect(requirement.CandidateChapters(slicing("quota", "knapsack"), false)).To(Equal([]int{27, 28}))
		Expect(requirement.CandidateChapters(slicing("no-such", ""), false)).To(BeEmpty())
		Expect(requirement.CandidateChapters(&casefile.Case{Stage: casefile.StageScoring, Input: casefile.Input{Spec: policy.Spec{Scorers: []policy.ScorerSpec{{Type: "decay"}}}}}, false)).To(Equal([]int{23}))
		Expect(requirement.CandidateChapters(&casefile.Case{Stage: casefile.StagePlacing, Input: casefile.Input{Spec: policy.Spec{Placer: "u-shaped"}}}, false)).To(Equal([]int{33}))
		Expect(requirement.CandidateChapters(&casefile.Case{Stage: casefile.StagePipeline}, false)).To(Equal([]int{6, 7, 8, 9, 10, 11, 12}))
		Expect(requirement.CandidateChapters(&casefile.Case{Stage: casefile.StagePipeline}, true)).To(Equal([]int{6, 7, 8, 9, 10, 11, 12, 34, 35, 36, 37, 38}))
	})

	It("are the protocol requirements of those chapters, no rulings", func() {
		Expect(reqIDs(catalogue().Candidates([]int{26, 23, 4}))).To(Equal([]string{"R23.1", "R26.1"}))
	})
})
