package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"strings"

	"github.com/cupel-go/go-cupel/internal/safetext"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/requirement"
)

// embeddedCatalogue is where the embedded catalogue lives in the
// repository, for the lines that name its files.
const embeddedCatalogue = "vectors/requirements"

// registerCatalogue registers --catalogue (lint, requirements).
func registerCatalogue(fs *flag.FlagSet, dir *string) {
	fs.StringVar(dir, "catalogue", "", "read the requirements catalogue of `DIR` instead of the embedded one (spec 1.3's)")
}

// loadCatalogue loads the catalogue of dir, or the embedded one when dir
// is "". It returns the directory its files are named under.
func loadCatalogue(dir string) (*requirement.Catalogue, string, error) {
	if dir == "" {
		cat, err := requirement.Embedded()
		return cat, embeddedCatalogue, err
	}
	st, err := os.Stat(dir)
	if err != nil {
		return nil, "", usagef("--catalogue: %v", err)
	}
	if !st.IsDir() {
		return nil, "", usagef("--catalogue: %s is not a directory", dir)
	}
	cat, err := requirement.Load(os.DirFS(dir))
	return cat, dir, err
}

// coverageFlag is lint's --coverage: when the suite must cover the
// catalogue.
type coverageFlag string

const (
	coverageAuto coverageFlag = "auto"
	coverageOn   coverageFlag = "on"
	coverageOff  coverageFlag = "off"
)

// String implements flag.Value.
func (c *coverageFlag) String() string { return string(*c) }

// Set implements flag.Value.
func (c *coverageFlag) Set(s string) error {
	switch v := coverageFlag(s); v {
	case coverageAuto, coverageOn, coverageOff:
		*c = v
		return nil
	}
	return fmt.Errorf("%q is not auto, on or off", s)
}

// coverageHelp is --coverage's help, and the rule lint follows.
const coverageHelp = "`WHEN` the suite must cover the catalogue: every vector covers a requirement and every protocol requirement has a vector " +
	"(auto: for the embedded suite, and for a --suite whose vectors use covers at all; on; off). An id the catalogue does not hold is an error whatever WHEN is"

// complete decides whether lint holds the suite to cover the catalogue.
func (c coverageFlag) complete(suiteDir string, suite *casefile.Suite) bool {
	switch c {
	case coverageOn:
		return true
	case coverageOff:
		return false
	}
	if suiteDir == "" {
		return true
	}
	for _, cs := range suite.Cases {
		if len(cs.Covers) > 0 {
			return true
		}
	}
	return false
}

// lintCoverage writes the coverage problems of suite against the catalogue
// of catDir, one line each, and returns how many there are and the line
// that sums them up.
func (e *env) lintCoverage(suite *casefile.Suite, suiteDir, catDir string, mode coverageFlag) (int, string, error) {
	cat, where, err := loadCatalogue(catDir)
	if err != nil {
		return 0, "", err
	}
	complete := mode.complete(suiteDir, suite)
	problems := requirement.Cover(cat, suite.Cases).Problems(complete)
	for _, p := range problems {
		if p.Kind == requirement.UncoveredRequirement {
			p.File = path.Join(where, p.File)
		}
		fmt.Fprintf(e.stdout, "%s\n", safetext.Line(p.String()))
	}
	if !complete {
		return len(problems), fmt.Sprintf("coverage not checked: no vector of %s declares covers (--coverage on checks it)", suiteDir), nil
	}
	n := map[requirement.ProblemKind]int{}
	for _, p := range problems {
		n[p.Kind]++
	}
	return len(problems), fmt.Sprintf("coverage of %d requirements: %d unknown ids, %d vectors that cover none, %d protocol requirements without a vector",
		cat.Len(), n[requirement.UnknownCover], n[requirement.BareCase], n[requirement.UncoveredRequirement]), nil
}

const requirementsUsage = `usage: cupel-conform requirements [--suite DIR] [--catalogue DIR] [--json | --markdown] [--uncovered]

Prints the requirements catalogue of the Cupel specification 1.3 (every
normative statement, in go-cupel's words, with how it is tested) and its
coverage by the suite: for each requirement, the vectors that cover it
with their tier; by chapter, the rulings last; then a summary. The format
is docs/requirements.md in the go-cupel repository.

--uncovered lists only the requirements tested by the protocol that no
vector covers.

exit codes: 0 printed (with --uncovered: every protocol requirement has a
            vector), 1 with --uncovered: some protocol requirement has no
            vector, 2 usage error, 3 the catalogue or a vector file could
            not be loaded (the listing is still printed for a vector file)

flags:
`

func (e *env) requirements(args []string) (int, error) {
	fs := newFlags("requirements", "requirements", e)
	fs.Usage = func() {
		fmt.Fprint(e.stderr, requirementsUsage)
		fs.SetOutput(e.stderr)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	var c common
	fs.StringVar(&c.suite, "suite", "", "count the coverage of the vectors of `DIR` instead of the embedded suite")
	var catDir string
	registerCatalogue(fs, &catDir)
	asJSON := fs.Bool("json", false, "print JSON")
	asMarkdown := fs.Bool("markdown", false, "print Markdown")
	uncovered := fs.Bool("uncovered", false, "list only the protocol requirements no vector covers (exit 1 if there is one)")
	if err := parseNoArgs(fs, args); err != nil {
		return 0, err
	}
	if *asJSON && *asMarkdown {
		return 0, usagef("--json and --markdown: choose one format")
	}
	cat, where, err := loadCatalogue(catDir)
	if err != nil {
		return exitInfrastructure, err
	}
	suite, _, err := c.load()
	if err != nil {
		return 0, err
	}
	cv := requirement.Cover(cat, suite.Cases)
	l := newListing(cv, where, *uncovered)
	switch {
	case *asJSON:
		err = l.writeJSON(e.stdout)
	case *asMarkdown:
		err = l.writeMarkdown(e.stdout)
	default:
		err = l.writeText(e.stdout)
	}
	if err != nil {
		return exitInfrastructure, err
	}
	if len(suite.Errors) > 0 {
		fmt.Fprintf(e.stderr, "%d vector files could not be loaded, and what they cover is not counted (cupel-conform lint lists them)\n", len(suite.Errors))
		return exitInfrastructure, nil
	}
	if *uncovered && len(cv.Uncovered()) > 0 {
		return exitFail, nil
	}
	return 0, nil
}

// listing is the catalogue with its coverage, as the requirements
// command prints it.
type listing struct {
	cv *requirement.Coverage
	// where names the catalogue's directory.
	where string
	// uncovered: only the protocol requirements without a vector.
	uncovered bool
	reqs      []requirement.Requirement
	summary   requirement.Summary
}

func newListing(cv *requirement.Coverage, where string, uncovered bool) *listing {
	l := &listing{cv: cv, where: where, uncovered: uncovered, summary: cv.Summary()}
	if uncovered {
		l.reqs = cv.Uncovered()
	} else {
		l.reqs = cv.Catalogue.All()
	}
	return l
}

// group is the requirements of one chapter, or the rulings.
type group struct {
	heading string
	reqs    []requirement.Requirement
}

// groups splits the requirements by chapter, the rulings last (catalogue
// order already is).
func (l *listing) groups() []group {
	var gs []group
	for _, r := range l.reqs {
		h := "Rulings (docs/rulings.md)"
		if r.Ruling == 0 {
			h = fmt.Sprintf("Chapter %02d: %s", r.Chapter, r.Title)
		}
		if len(gs) == 0 || gs[len(gs)-1].heading != h {
			gs = append(gs, group{heading: h})
		}
		gs[len(gs)-1].reqs = append(gs[len(gs)-1].reqs, r)
	}
	return gs
}

// how says how a requirement is tested, for people: the vectors that
// cover it with their tier, its api tests, or why nothing tests it.
func (l *listing) how(r requirement.Requirement) string {
	switch r.Test {
	case requirement.API:
		return "go-cupel tests: " + strings.Join(r.Tests, ", ")
	case requirement.None:
		return "not testable: " + r.Why
	}
	cases := l.cv.Cases[r.ID]
	if len(cases) == 0 {
		return "vectors: NONE"
	}
	parts := make([]string, len(cases))
	for i, c := range cases {
		parts[i] = c.ID + " (" + c.Tier + ")"
	}
	return "vectors: " + strings.Join(parts, ", ")
}

// summaryLines are the summary, one fact a line.
func (l *listing) summaryLines() []string {
	s := l.summary
	var kinds, methods []string
	for _, k := range requirement.Kinds {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, s.ByKind[k]))
	}
	for _, m := range requirement.Methods {
		methods = append(methods, fmt.Sprintf("%s %d", m, s.ByMethod[m]))
	}
	return []string{
		fmt.Sprintf("requirements: %d (catalogue %s)", s.Requirements, l.where),
		"by kind: " + strings.Join(kinds, ", "),
		"by test method: " + strings.Join(methods, ", "),
		fmt.Sprintf("protocol requirements with a vector: %d of %d", s.Covered, s.Protocol),
		fmt.Sprintf("protocol requirements of the components chapter 42 lists as required that have a required-tier vector: %d of %d", s.RequiredCovered, s.RequiredProtocol),
		fmt.Sprintf("MUST, MUST NOT and steps of those components (whose vectors belong in the required tier) that have a required-tier vector: %d of %d", s.RequiredTierCovered, s.RequiredTierProtocol),
		fmt.Sprintf("vectors: %d, of which %d cover no requirement; %d covered ids are not in the catalogue (cupel-conform lint lists both)", s.Vectors, s.Bare, s.UnknownIDs),
	}
}

func (l *listing) writeText(w io.Writer) error {
	var b strings.Builder
	if l.uncovered {
		fmt.Fprintf(&b, "Protocol requirements of the Cupel specification %s that no vector covers: %d\n", casefile.SpecVersion, len(l.reqs))
	} else {
		fmt.Fprintf(&b, "Requirements of the Cupel specification %s, with the vectors that cover them\n", casefile.SpecVersion)
	}
	for _, g := range l.groups() {
		fmt.Fprintf(&b, "\n%s\n", safetext.Line(g.heading))
		for _, r := range g.reqs {
			fmt.Fprintf(&b, "  %s  %s, %s", r.ID, r.Kind, r.Test)
			if r.Section != "" {
				fmt.Fprintf(&b, ", %s", safetext.Line(r.Section))
			}
			fmt.Fprintf(&b, "\n    %s\n    %s\n", safetext.Line(r.Statement), safetext.Line(l.how(r)))
		}
	}
	b.WriteString("\nsummary:\n")
	for _, s := range l.summaryLines() {
		fmt.Fprintf(&b, "  %s\n", safetext.Line(s))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (l *listing) writeMarkdown(w io.Writer) error {
	var b strings.Builder
	if l.uncovered {
		fmt.Fprintf(&b, "# Protocol requirements of the Cupel specification %s without a vector\n", casefile.SpecVersion)
	} else {
		fmt.Fprintf(&b, "# Requirements of the Cupel specification %s\n", casefile.SpecVersion)
	}
	for _, g := range l.groups() {
		fmt.Fprintf(&b, "\n## %s\n\n| id | kind | test | section | statement | how it is tested |\n|---|---|---|---|---|---|\n", safetext.Markdown(g.heading))
		for _, r := range g.reqs {
			fmt.Fprintf(&b, "| [%s](%s) | %s | %s | %s | %s | %s |\n", r.ID, r.URL(), r.Kind, r.Test,
				safetext.Markdown(r.Section), safetext.Markdown(r.Statement), safetext.Markdown(l.how(r)))
		}
	}
	b.WriteString("\n## Summary\n\n")
	for _, s := range l.summaryLines() {
		fmt.Fprintf(&b, "- %s\n", safetext.Markdown(s))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// RequirementsSchema names the JSON form of requirements --json.
const RequirementsSchema = "cupel-conform/requirements/1"

// jsonVector is a vector that covers a requirement.
type jsonVector struct {
	ID   string `json:"id"`
	Tier string `json:"tier"`
}

// jsonRequirement is a requirement with its source, link and vectors.
type jsonRequirement struct {
	requirement.Requirement
	Source  string       `json:"source"`
	URL     string       `json:"url"`
	Vectors []jsonVector `json:"vectors"`
}

func (l *listing) writeJSON(w io.Writer) error {
	out := struct {
		Schema       string              `json:"schema"`
		SpecVersion  string              `json:"spec_version"`
		Catalogue    string              `json:"catalogue"`
		Uncovered    bool                `json:"uncovered_only"`
		Summary      requirement.Summary `json:"summary"`
		Requirements []jsonRequirement   `json:"requirements"`
	}{Schema: RequirementsSchema, SpecVersion: casefile.SpecVersion, Catalogue: l.where, Uncovered: l.uncovered, Summary: l.summary, Requirements: []jsonRequirement{}}
	for _, r := range l.reqs {
		jr := jsonRequirement{Requirement: r, Source: r.Source(), URL: r.URL(), Vectors: []jsonVector{}}
		for _, c := range l.cv.Cases[r.ID] {
			jr.Vectors = append(jr.Vectors, jsonVector{ID: c.ID, Tier: c.Tier})
		}
		out.Requirements = append(out.Requirements, jr)
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
