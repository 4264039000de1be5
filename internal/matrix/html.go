package matrix

import (
	"bufio"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/cupel-go/go-cupel/internal/bound"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

//go:embed report.html.tmpl
var pageSource string

var page = template.Must(template.New("report").Parse(pageSource))

// HTMLOptions configure WriteHTML.
type HTMLOptions struct {
	// Title is the page title ("Cupel conformance" by default).
	Title string
}

// WriteHTML writes the comparison as one self-contained HTML page: inline
// CSS and script, no network access, no external assets. It shows the
// level of each implementation, a tier/stage × implementation matrix of
// counts coloured by result, the cases on which the implementations
// disagree, and every case in a list that can be filtered by outcome,
// stage, tier and text; each failing case opens to its inputs and
// expected results (when the matrix has them), and each implementation's
// message, diff, actual result and stderr. Light and dark colour schemes
// follow the system setting. The markup is complete without the script,
// which only filters; its work is linear in the number of cases.
func WriteHTML(w io.Writer, m *Matrix, o HTMLOptions) error {
	p := buildPage(m, o)
	bw := bufio.NewWriter(w) // streamed: the page is never held whole
	if err := page.Execute(bw, p); err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	return bw.Flush()
}

type htmlPage struct {
	Title         string
	Meta          string
	Impls         []htmlImpl
	Multi         bool
	Tiers         []htmlTier
	Groups        []htmlGroup
	NDisagree     int
	NFailing      int
	Cases         []htmlCase
	Outcomes      []protocol.Outcome
	Stages        []string
	TierNames     []string
	Warnings      []string
	Columns       template.CSS
	Legend        []protocol.Outcome
	InputsMissing bool
}

type htmlImpl struct {
	Name, Describe, Caps string
	LevelClass, Level    string
	Reason               string
	Required, Optional   htmlBar
	Require              string
	Met                  bool
	VerdictLine          string
	Infrastructure       string
	InfraStderr          string
	// Requirements says how many testable requirements the run met, and
	// Unchecked which its level leaves unchecked; "" for none.
	Requirements, Unchecked string
}

type htmlBar struct {
	Pass, Total int
	Class       string
	Text        string
	Title       string
	// Rest lists the outcomes other than pass: "4 fail · 86 unsupported".
	Rest        string
	Segs        []htmlSeg
	Tier, Stage string
}

type htmlSeg struct {
	Outcome protocol.Outcome
	Style   template.CSS
}

type htmlTier struct {
	Tier   string
	Totals []htmlBar
	Rows   []htmlRow
}

type htmlRow struct {
	Stage string
	Cells []htmlBar
}

type htmlGroup struct {
	Signature []htmlSig
	Failing   bool
	Cases     []htmlRef
}

type htmlSig struct {
	Outcome protocol.Outcome
	Who     string
}

type htmlRef struct {
	ID, Hint string
	// Href is "#" and the case's element id; a fragment, so never a
	// scheme of its own.
	Href template.URL
}

type htmlCase struct {
	ID, Name, Tier, Stage, Anchor string
	Filter                        string
	Text                          string
	Cells                         []htmlChip
	Open                          bool
	Input, Expected               string
	Problems                      []htmlProblem
	// Requirements are the requirements the case covers, shown with a
	// failing case.
	Requirements []htmlRequirement
}

// htmlRequirement is a requirement a case covers: its id and, when the
// catalogue holds it, its kind, statement, source and link to the spec
// section (or ruling).
type htmlRequirement struct {
	ID, Kind, Statement, Source, URL string
}

type htmlChip struct {
	Outcome protocol.Outcome
	Label   string
	Title   string
}

type htmlProblem struct {
	Impl    string
	Outcome protocol.Outcome
	Message string
	Diff    []diffLine
	Actual  string
	Stderr  string
	// ExpectedFailure is the reason of the expected failure that listed the case.
	ExpectedFailure string
}

type diffLine struct {
	Class, Text string
}

func buildPage(m *Matrix, o HTMLOptions) htmlPage {
	p := htmlPage{Title: o.Title, Multi: len(m.Implementations) > 1, Warnings: m.Warnings}
	if p.Title == "" {
		p.Title = "Cupel conformance"
	}
	meta := []string{"spec " + m.Suite.SpecVersion, "suite " + m.Suite.Source, fmt.Sprintf("%d cases", m.Suite.Cases),
		"sha256 " + short(m.Suite.Digest), m.Runner.Name + " " + m.Runner.Version}
	var last time.Time
	for _, im := range m.Implementations {
		if im.Report.Started.After(last) {
			last = im.Report.Started
		}
	}
	if !last.IsZero() {
		meta = append(meta, "run "+last.UTC().Format("2006-01-02 15:04 UTC"))
	}
	p.Meta = strings.Join(meta, " · ")
	p.Columns = template.CSS(fmt.Sprintf("--impls:%d", len(m.Implementations)))

	for _, im := range m.Implementations {
		h := htmlImpl{Name: im.Name, Describe: describe(im.Info), Level: im.Verdict.LevelText, Reason: im.LevelReason,
			LevelClass: "lvl-none", Met: im.Met(), VerdictLine: im.Verdict.Line(), Infrastructure: im.Infrastructure, Caps: capabilities(im.Info.Capabilities),
			Required: bar(tally(im.Counts[casefile.TierRequired]), casefile.TierRequired, ""),
			Optional: bar(tally(im.Counts[casefile.TierOptional]), casefile.TierOptional, "")}
		switch im.Level {
		case runner.LevelFullyConformant:
			h.LevelClass = "lvl-full"
		case runner.LevelConformant:
			h.LevelClass = "lvl-conf"
		}
		if im.RequireLevel != "" && im.RequireLevel != runner.LevelNone {
			h.Require = im.RequireLevel.Title()
		}
		h.InfraStderr = im.Report.InfrastructureStderr
		if h.Requirements = requirementsOf(im); h.Requirements != "" {
			h.Unchecked = im.Report.Requirements.UncheckedSummary()
		}
		p.Impls = append(p.Impls, h)
	}

	for _, tier := range tiersOf(m) {
		t := htmlTier{Tier: tier}
		for _, im := range m.Implementations {
			t.Totals = append(t.Totals, bar(tally(im.Counts[tier]), tier, ""))
		}
		for _, g := range m.Groups {
			gt, st := splitGroup(g)
			if gt != tier {
				continue
			}
			r := htmlRow{Stage: st}
			for _, im := range m.Implementations {
				r.Cells = append(r.Cells, bar(tally(im.StageCounts[g]), tier, st))
			}
			t.Rows = append(t.Rows, r)
		}
		p.Tiers = append(p.Tiers, t)
		p.TierNames = append(p.TierNames, tier)
	}

	outcomes := map[protocol.Outcome]bool{}
	stages := map[string]bool{}
	for _, c := range m.Cases {
		hc := htmlCase{ID: c.ID, Name: c.Name, Tier: c.Tier, Stage: c.Stage, Anchor: anchor(c.ID)}
		var filter []string
		text := []string{c.ID, c.Name}
		stages[c.Stage] = true
		for i, r := range c.Results {
			s := c.Outcome(i)
			label := string(s)
			if s == "" {
				s, label = OutcomeAbsent, "—"
			}
			outcomes[s] = true
			if !slices.Contains(filter, string(s)) {
				filter = append(filter, string(s))
			}
			chip := htmlChip{Outcome: s, Label: label, Title: m.Implementations[i].Name + ": " + string(s)}
			if r != nil && r.Message != "" {
				// A tooltip and the text the filter searches: a message's
				// first characters (bound.Name), so that the page holds
				// each long message once, in the case's body.
				short := bound.Name(r.Message)
				chip.Title += " — " + short
				text = append(text, short)
			}
			hc.Cells = append(hc.Cells, chip)
			if r != nil && s != protocol.OutcomePass && s != protocol.OutcomeSkip {
				hc.Problems = append(hc.Problems, problem(m.Implementations[i].Name, r))
			}
			if failing(s) || s == protocol.OutcomeXFail {
				hc.Open = true
			}
		}
		if !c.AllPass() {
			filter = append(filter, "x-notpass")
		}
		if c.Disagree() {
			filter = append(filter, "x-disagree")
		}
		if c.Failing() {
			filter = append(filter, "x-failing")
		}
		hc.Filter = strings.Join(filter, " ")
		hc.Requirements = caseRequirements(m, c)
		for _, q := range hc.Requirements {
			text = append(text, q.ID)
		}
		hc.Text = strings.ToLower(strings.Join(text, " "))
		if !hc.Open {
			hc.Problems = nil
		} else if c.Data != nil {
			hc.Input, hc.Expected = readableJSON(c.Data.Input), readableJSON(c.Data.Expected)
		} else {
			p.InputsMissing = true
		}
		p.Cases = append(p.Cases, hc)
	}
	for _, s := range protocol.Outcomes {
		if outcomes[s] {
			p.Outcomes = append(p.Outcomes, s)
		}
	}
	if outcomes[OutcomeAbsent] {
		p.Outcomes = append(p.Outcomes, OutcomeAbsent)
	}
	p.Legend = p.Outcomes
	for _, st := range casefile.Stages {
		if stages[st] {
			p.Stages = append(p.Stages, st)
			delete(stages, st)
		}
	}
	p.Stages = append(p.Stages, sortedKeys(stages)...)

	p.NDisagree = len(m.Disagreements)
	for _, g := range groupDisagreements(m) {
		hg := htmlGroup{Failing: g.failing}
		d0 := g.cases[0]
		for _, s := range append(append([]protocol.Outcome{}, protocol.Outcomes...), OutcomeAbsent) {
			var who []string
			for _, im := range m.Implementations {
				if d0.Outcomes[im.Name] == s {
					who = append(who, im.Name)
				}
			}
			if len(who) > 0 {
				hg.Signature = append(hg.Signature, htmlSig{s, strings.Join(who, ", ")})
			}
		}
		for _, d := range g.cases {
			hg.Cases = append(hg.Cases, htmlRef{ID: d.ID, Href: template.URL("#" + anchor(d.ID)), Hint: firstProblem(m, d.Case)})
		}
		if g.failing {
			p.NFailing += len(g.cases)
		}
		p.Groups = append(p.Groups, hg)
	}
	return p
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// caseRequirements are the requirements case c covers (as the first
// report that has it lists them), looked up in that report's catalogue.
func caseRequirements(m *Matrix, c *Case) []htmlRequirement {
	for i, r := range c.Results {
		if r == nil {
			continue
		}
		var out []htmlRequirement
		for _, id := range r.Requirements {
			h := htmlRequirement{ID: id}
			if q, ok := m.Implementations[i].Report.Requirement(id); ok {
				h.Kind, h.Statement, h.Source, h.URL = string(q.Kind), q.Statement, q.Source(), q.URL()
			}
			out = append(out, h)
		}
		return out
	}
	return nil
}

// anchor is the element id of a case.
func anchor(id string) string { return "case:" + id }

// bar is a count cell: "pass/total" over a bar of one segment per outcome.
func bar(t Tally, tier, stage string) htmlBar {
	b := htmlBar{Pass: t.Pass, Total: t.Total, Class: t.Class(), Text: fraction(t), Tier: tier, Stage: stage}
	if t.Total == 0 {
		b.Title = "no case"
		return b
	}
	parts := []string{fmt.Sprintf("%d pass", t.Pass)}
	if t.Pass > 0 {
		b.Segs = append(b.Segs, seg(protocol.OutcomePass, t.Pass, t.Total))
	}
	var rest []string
	for _, o := range t.Other {
		rest = append(rest, fmt.Sprintf("%d %s", o.N, o.Outcome))
		b.Segs = append(b.Segs, seg(o.Outcome, o.N, t.Total))
	}
	b.Title = strings.Join(append(parts, rest...), ", ")
	b.Rest = strings.Join(rest, " · ")
	return b
}

func seg(s protocol.Outcome, n, total int) htmlSeg {
	return htmlSeg{Outcome: s, Style: template.CSS(fmt.Sprintf("width:%.2f%%", 100*float64(n)/float64(total)))}
}

func capabilities(c protocol.Capabilities) string {
	var parts []string
	for _, l := range c.Lists() {
		parts = append(parts, l.Name+": "+strings.Join(l.Values, ", "))
	}
	return strings.Join(parts, " · ")
}

func problem(impl string, r *runner.CaseResult) htmlProblem {
	p := htmlProblem{Impl: impl, Outcome: r.Outcome, Message: r.Message, Stderr: r.Stderr}
	if len(r.Details) > 0 && strings.HasPrefix(r.Details[0], r.Message) {
		p.Message = "" // the diff's first line says it
	}
	for _, d := range r.Details {
		for _, l := range strings.Split(d, "\n") {
			p.Diff = append(p.Diff, diffLine{Class: diffClass(l), Text: l})
		}
	}
	if r.Actual != nil {
		p.Actual = readableJSON(r.Actual)
	}
	if r.ExpectedFailure != nil {
		p.ExpectedFailure = r.ExpectedFailure.Reason
	}
	return p
}

// diffClass classifies a line of a comparator's diff for colouring.
func diffClass(l string) string {
	t := strings.TrimLeft(l, " ")
	switch {
	case strings.HasPrefix(t, "expected"):
		return "d-exp"
	case strings.HasPrefix(t, "actual"):
		return "d-act"
	case !strings.HasPrefix(l, " "):
		return "d-head"
	case strings.HasPrefix(t, "!"):
		return "d-bad"
	case strings.HasPrefix(t, "- "):
		return "d-del"
	case strings.HasPrefix(t, "+ "):
		return "d-add"
	}
	return "d-ctx"
}
