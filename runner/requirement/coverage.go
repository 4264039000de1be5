package requirement

import (
	"slices"

	"github.com/cupel-go/go-cupel/runner/vector"
)

// Coverage is which cases of a suite cover each requirement of a
// catalogue, from the cases' [test] covers. It is the one place coverage
// is decided: lint, the requirements command and the reports read it.
type Coverage struct {
	// Catalogue is the catalogue the coverage is of.
	Catalogue *Catalogue
	// Cases maps a requirement id to the cases that cover it, in suite
	// order. Requirements no case covers are absent.
	Cases map[string][]*vector.Case
	// Unknown are the (case, id) pairs whose id is not in the catalogue.
	Unknown []UnknownID
	// Bare are the cases that cover no requirement.
	Bare []*vector.Case
}

// UnknownID is an id that a case's covers lists and the catalogue does
// not hold.
type UnknownID struct {
	// Case is the case's id; File its vector file.
	Case, File string
	// ID is the unknown requirement id.
	ID string
}

// Cover computes the coverage of cat by cases.
func Cover(cat *Catalogue, cases []*vector.Case) *Coverage {
	cv := &Coverage{Catalogue: cat, Cases: map[string][]*vector.Case{}}
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
				cv.Unknown = append(cv.Unknown, UnknownID{Case: c.ID, File: c.File, ID: id})
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
	return slices.ContainsFunc(cv.Cases[id], func(c *vector.Case) bool { return c.Tier == tier })
}
