package requirement

import (
	"slices"

	"github.com/cupel-go/go-cupel/runner/casefile"
)

// Component is a scorer, slicer or placer of the spec, as the protocol
// names it, with the chapter that defines it.
type Component struct {
	// ID is the protocol's id: "recency", "count_quota", "u-shaped".
	ID string
	// Stage is the stage that runs it alone: scoring, slicing or placing.
	Stage string
	// Chapter is the spec chapter that defines it.
	Chapter int
	// Required is true for the algorithms chapter 42 (Conformance Levels)
	// lists as covered by the required tier: the eight original scorers,
	// GreedySlice, KnapsackSlice and QuotaSlice, and both placers.
	Required bool
}

// Components are the spec's scorers, slicers and placers: the one list
// of which chapter defines each, and of which chapter 42 requires.
var Components = []Component{
	{"recency", casefile.StageScoring, 14, true},
	{"priority", casefile.StageScoring, 15, true},
	{"kind", casefile.StageScoring, 16, true},
	{"tag", casefile.StageScoring, 17, true},
	{"frequency", casefile.StageScoring, 18, true},
	{"reflexive", casefile.StageScoring, 19, true},
	{"composite", casefile.StageScoring, 20, true},
	{"scaled", casefile.StageScoring, 21, true},
	{"metadata_trust", casefile.StageScoring, 22, false},
	{"decay", casefile.StageScoring, 23, false},
	{"metadata_key", casefile.StageScoring, 24, false},
	{"greedy", casefile.StageSlicing, 26, true},
	{"knapsack", casefile.StageSlicing, 27, true},
	{"quota", casefile.StageSlicing, 28, true},
	{"count_quota", casefile.StageSlicing, 29, false},
	{"count_constrained_knapsack", casefile.StageSlicing, 30, false},
	{"chronological", casefile.StagePlacing, 32, true},
	{"u-shaped", casefile.StagePlacing, 33, true},
}

// PipelineChapters are the chapters of the pipeline and its six stages
// (06 to 12): chapter 42's "end-to-end pipeline", which it requires.
var PipelineChapters = []int{6, 7, 8, 9, 10, 11, 12}

// DiagnosticsChapters are the chapters of the selection report a
// pipeline returns (34 to 38); chapter 42 does not require them.
var DiagnosticsChapters = []int{34, 35, 36, 37, 38}

// RequiredChapter reports whether chapter 42 lists the algorithm of
// chapter ch as covered by the required tier: the pipeline's chapters and
// those of the Required components.
func RequiredChapter(ch int) bool {
	return slices.Contains(PipelineChapters, ch) ||
		slices.ContainsFunc(Components, func(c Component) bool { return c.Required && c.Chapter == ch })
}

// RequiredChapters lists the chapters RequiredChapter holds, in order.
func RequiredChapters() []int {
	var out []int
	for ch := 0; ch <= MaxChapter; ch++ {
		if RequiredChapter(ch) {
			out = append(out, ch)
		}
	}
	return out
}

// RequiredTier reports whether chapter 42 implies that r's vectors belong
// in the required tier: r is a MUST, MUST NOT or step of a chapter it
// requires (RequiredChapter). SHOULD, MAY, edge-case rows, the other
// chapters and the rulings go to the optional tier.
func RequiredTier(r Requirement) bool {
	return r.Ruling == 0 && RequiredChapter(r.Chapter) && (r.Kind == Must || r.Kind == MustNot || r.Kind == Step)
}

// component returns the component with the given stage and id.
func component(stage, id string) (Component, bool) {
	i := slices.IndexFunc(Components, func(c Component) bool { return c.Stage == stage && c.ID == id })
	if i < 0 {
		return Component{}, false
	}
	return Components[i], true
}

// CandidateChapters are the chapters whose requirements a case may check,
// from the stage and the component it exercises: the chapter of a scoring
// case's scorer, of a slicing case's slicer (and of a quota slicer's inner
// slicer), of a placing case's placer; for a pipeline case, the pipeline's
// chapters, and the diagnostics chapters too when diagnostics is set (the
// case is about the selection report). An unknown component has none.
// These are candidates: which of their requirements the case covers is a
// person's call (see Catalogue.Candidates).
func CandidateChapters(c *casefile.Case, diagnostics bool) []int {
	var out []int
	add := func(stage, id string) {
		if k, ok := component(stage, id); ok && !slices.Contains(out, k.Chapter) {
			out = append(out, k.Chapter)
		}
	}
	switch c.Stage {
	case casefile.StageScoring:
		if len(c.Input.Scorers) > 0 {
			add(c.Stage, c.Input.Scorers[0].Type)
		}
	case casefile.StageSlicing:
		add(c.Stage, c.Input.Slicer)
		add(c.Stage, c.Input.InnerSlicer)
	case casefile.StagePlacing:
		add(c.Stage, c.Input.Placer)
	case casefile.StagePipeline:
		out = slices.Clone(PipelineChapters)
		if diagnostics {
			out = append(out, DiagnosticsChapters...)
		}
	}
	slices.Sort(out)
	return out
}

// Candidates returns the requirements tested by the protocol of the given
// chapters, in catalogue order: what a person picks a case's covers from
// when a program cannot (explore's vectors).
func (c *Catalogue) Candidates(chapters []int) []Requirement {
	var out []Requirement
	for _, r := range c.reqs {
		if r.Ruling == 0 && r.Test == Protocol && slices.Contains(chapters, r.Chapter) {
			out = append(out, r)
		}
	}
	return out
}
