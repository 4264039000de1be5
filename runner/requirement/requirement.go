package requirement

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind is what sort of normative statement a requirement is: an RFC 2119
// keyword, a step of an algorithm, a row of an edge-case table, or a
// ruling.
type Kind string

// The kinds of requirement. RECOMMENDED in the spec is catalogued as
// Should (RFC 2119 makes them synonyms).
const (
	Must      Kind = "MUST"
	MustNot   Kind = "MUST NOT"
	Should    Kind = "SHOULD"
	ShouldNot Kind = "SHOULD NOT"
	May       Kind = "MAY"
	Step      Kind = "step"
	EdgeCase  Kind = "edge-case"
	Ruling    Kind = "ruling"
)

// Kinds lists every kind, in the order reports group them.
var Kinds = []Kind{Must, MustNot, Should, ShouldNot, May, Step, EdgeCase, Ruling}

// Method is how a requirement is tested.
type Method string

// The ways a requirement is tested.
const (
	// Protocol: by conformance vectors, so by any implementation's run.
	Protocol Method = "protocol"
	// API: by go-cupel's own tests (library shape the protocol does not
	// reach); Requirement.Tests names them.
	API Method = "api"
	// None: nothing can test it; Requirement.Why says why.
	None Method = "none"
)

// Methods lists every method.
var Methods = []Method{Protocol, API, None}

// Requirement is one normative statement of the spec or one ruling.
type Requirement struct {
	// ID is stable: "R<chapter>.<n>" for a chapter's statement (n counts
	// from 1 in reading order), "RL<n>" for ruling n.
	ID string `json:"id"`
	// Chapter is the spec chapter (0-45) of an R id. A ruling's is -1;
	// Chapters lists the chapters it settles.
	Chapter int `json:"chapter"`
	// Title is the chapter's title ("GreedySlice"); empty for a ruling.
	Title string `json:"title,omitempty"`
	// Section is the heading the statement sits under, as the spec spells
	// it (for a ruling, its heading in docs/rulings.md).
	Section string `json:"section"`
	// Ruling is the ruling's number, 0 for a chapter's statement.
	Ruling int `json:"ruling,omitempty"`
	// Chapters are the spec chapters a ruling settles.
	Chapters []int `json:"chapters,omitempty"`
	// Kind is the statement's kind.
	Kind Kind `json:"kind"`
	// Statement says the requirement in the project's words.
	Statement string `json:"statement"`
	// Test is how the requirement is tested.
	Test Method `json:"test"`
	// Tests are the go-cupel test files that check an API requirement,
	// relative to the repository root.
	Tests []string `json:"tests,omitempty"`
	// Why says why nothing tests a requirement whose Test is None.
	Why string `json:"why,omitempty"`
	// File is the catalogue file it was read from, relative to
	// vectors/requirements.
	File string `json:"file"`
}

// SpecBase is the public specification: the spec book's sources in the
// wollax/cupel repository, which go-cupel implements at version 1.3.
const SpecBase = "https://github.com/wollax/cupel/tree/main/spec"

// RulingsURL is go-cupel's rulings page.
const RulingsURL = "https://github.com/cupel-go/go-cupel/blob/main/docs/rulings.md"

// URL links the requirement's source: for a ruling, its heading in
// docs/rulings.md; otherwise the spec, with the chapter and section
// (ChapterLabel) to look for there.
func (r Requirement) URL() string {
	if r.Ruling > 0 {
		return RulingsURL + "#" + slug(r.Section)
	}
	return SpecBase
}

// Source names where the requirement comes from, for people:
// "spec chapter 26 (GreedySlice), Algorithm" or "ruling 26".
func (r Requirement) Source() string {
	if r.Ruling > 0 {
		return "ruling " + strconv.Itoa(r.Ruling)
	}
	s := fmt.Sprintf("spec chapter %02d (%s)", r.Chapter, r.Title)
	if r.Section != "" {
		s += ", " + r.Section
	}
	return s
}

// slug is GitHub's anchor for a Markdown heading: lower case, spaces to
// hyphens, and every character other than letters, digits, hyphens and
// underscores dropped.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	return b.String()
}
