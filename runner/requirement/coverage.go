package requirement

import (
	"fmt"
	"slices"

	"github.com/cupel-go/go-cupel/runner/casefile"
)

// Coverage is which cases of a suite cover each requirement of a
// catalogue, from the cases' [test] covers. It is the one place coverage
// is decided: lint, the requirements command and the reports read it.
type Coverage struct {
	// Catalogue is the catalogue the coverage is of.
	Catalogue *Catalogue
	// Cases maps a requirement id to the cases that cover it, in suite
	// order. Requirements no case covers are absent.
	Cases map[string][]*casefile.Case
	// Unknown are the (case, id) pairs whose id is not in the catalogue.
	Unknown []UnknownID
	// Bare are the cases that cover no requirement.
	Bare []*casefile.Case
	// Vectors counts the cases.
	Vectors int
}

// UnknownID is an id that a case's covers lists and the catalogue does
// not hold.
type UnknownID struct {
	// Case is the case's id; File its vector file and Line the line of
	// its covers (0 when unknown).
	Case, File string
	Line       int
	// ID is the unknown requirement id.
	ID string
}

// Cover computes the coverage of cat by cases.
func Cover(cat *Catalogue, cases []*casefile.Case) *Coverage {
	cv := &Coverage{Catalogue: cat, Cases: map[string][]*casefile.Case{}, Vectors: len(cases)}
	for _, c := range cases {
		if len(c.Covers) == 0 {
			cv.Bare = append(cv.Bare, c)
		}
		seen := map[string]bool{}
		for _, id := range c.Covers {
			if seen[id] {
				continue
			}
			seen[id] = true
			if _, ok := cat.Lookup(id); !ok {
				cv.Unknown = append(cv.Unknown, UnknownID{Case: c.ID, File: c.File, Line: c.CoversLine, ID: id})
				continue
			}
			cv.Cases[id] = append(cv.Cases[id], c)
		}
	}
	return cv
}

// Uncovered returns the requirements tested by the protocol that no case
// covers, in catalogue order.
func (cv *Coverage) Uncovered() []Requirement {
	var out []Requirement
	for _, r := range cv.Catalogue.reqs {
		if r.Test == Protocol && len(cv.Cases[r.ID]) == 0 {
			out = append(out, r)
		}
	}
	return out
}

// CoveredIn reports whether a case of the given tier covers the
// requirement.
func (cv *Coverage) CoveredIn(id, tier string) bool {
	return slices.ContainsFunc(cv.Cases[id], func(c *casefile.Case) bool { return c.Tier == tier })
}

// ProblemKind is a way a suite falls short of its catalogue.
type ProblemKind string

// The problems Coverage.Problems finds.
const (
	// UnknownCover: a case covers an id the catalogue does not hold.
	UnknownCover ProblemKind = "unknown id"
	// BareCase: a case covers no requirement.
	BareCase ProblemKind = "covers nothing"
	// UncoveredRequirement: a requirement tested by the protocol that no
	// case covers.
	UncoveredRequirement ProblemKind = "uncovered"
)

// Problem is one shortfall of a suite's coverage, located: a case's vector
// file (and the line of its covers), or a requirement's catalogue file.
type Problem struct {
	Kind ProblemKind
	// File is the vector file (UnknownCover, BareCase) or the catalogue
	// file (UncoveredRequirement); Line is 1-based, 0 when unknown.
	File string
	Line int
	// Case is the case's id ("" for UncoveredRequirement).
	Case string
	// Requirement is the unknown id or the uncovered requirement ("" for
	// BareCase); Statement the uncovered requirement's statement.
	Requirement, Statement string
}

// String says the problem as a lint line: "file:line: what is wrong".
func (p Problem) String() string {
	loc := p.File
	if p.Line > 0 {
		loc = fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	switch p.Kind {
	case UnknownCover:
		return fmt.Sprintf("%s: test.covers: %q is no requirement of the catalogue", loc, p.Requirement)
	case BareCase:
		return fmt.Sprintf("%s: covers no requirement: [test] covers must name the requirements the case checks", loc)
	}
	return fmt.Sprintf("%s: %s: tested by the protocol, and no vector covers it (%s)", loc, p.Requirement, p.Statement)
}

// Problems returns what lint reports of the coverage, in this order: the
// ids cases cover that the catalogue does not hold (always), then, when
// complete is set (the suite claims to cover the catalogue, as the
// embedded suite does), the cases that cover no requirement and the
// requirements tested by the protocol that no case covers. This is the
// one check of coverage: cupel-conform lint and go test ./vectors both
// call it.
func (cv *Coverage) Problems(complete bool) []Problem {
	var out []Problem
	for _, u := range cv.Unknown {
		out = append(out, Problem{Kind: UnknownCover, File: u.File, Line: u.Line, Case: u.Case, Requirement: u.ID})
	}
	if !complete {
		return out
	}
	for _, c := range cv.Bare {
		out = append(out, Problem{Kind: BareCase, File: c.File, Line: c.CoversLine, Case: c.ID})
	}
	for _, r := range cv.Uncovered() {
		out = append(out, Problem{Kind: UncoveredRequirement, File: r.File, Requirement: r.ID, Statement: r.Statement})
	}
	return out
}

// Summary is the catalogue counted, with its coverage.
type Summary struct {
	// Requirements is the catalogue's size; ByKind and ByMethod split it.
	Requirements int            `json:"requirements"`
	ByKind       map[Kind]int   `json:"by_kind"`
	ByMethod     map[Method]int `json:"by_method"`
	// Protocol counts the requirements tested by the protocol, Covered
	// those of them some case covers.
	Protocol int `json:"protocol"`
	Covered  int `json:"protocol_covered"`
	// RequiredProtocol counts the requirements, tested by the protocol, of
	// the chapters chapter 42 requires (RequiredChapter; rulings are not
	// among them); RequiredCovered those of them a case of the required
	// tier covers.
	RequiredProtocol int `json:"required_chapters_protocol"`
	RequiredCovered  int `json:"required_chapters_required_tier"`
	// RequiredTierProtocol counts those of them whose vectors belong in
	// the required tier (RequiredTier: MUST, MUST NOT, steps), and
	// RequiredTierCovered those of these a case of the required tier
	// covers: the figure that should reach all.
	RequiredTierProtocol int `json:"required_tier_protocol"`
	RequiredTierCovered  int `json:"required_tier_covered"`
	// Vectors counts the suite's cases, Bare those that cover no
	// requirement, UnknownIDs the ids cases cover that the catalogue does
	// not hold.
	Vectors    int `json:"vectors"`
	Bare       int `json:"vectors_covering_none"`
	UnknownIDs int `json:"unknown_ids"`
}

// Summary counts the catalogue and its coverage.
func (cv *Coverage) Summary() Summary {
	s := Summary{ByKind: map[Kind]int{}, ByMethod: map[Method]int{}, Vectors: cv.Vectors, Bare: len(cv.Bare), UnknownIDs: len(cv.Unknown)}
	for _, r := range cv.Catalogue.reqs {
		s.Requirements++
		s.ByKind[r.Kind]++
		s.ByMethod[r.Test]++
		if r.Test != Protocol {
			continue
		}
		s.Protocol++
		if len(cv.Cases[r.ID]) > 0 {
			s.Covered++
		}
		if r.Ruling == 0 && RequiredChapter(r.Chapter) {
			inRequired := cv.CoveredIn(r.ID, casefile.TierRequired)
			s.RequiredProtocol++
			if inRequired {
				s.RequiredCovered++
			}
			if RequiredTier(r) {
				s.RequiredTierProtocol++
				if inRequired {
					s.RequiredTierCovered++
				}
			}
		}
	}
	return s
}
