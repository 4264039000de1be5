package casefile

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// SpecVersion is the version of the Cupel specification the runner and its
// suite follow.
const SpecVersion = "1.3"

// DefaultEpsilon is the score tolerance of a vector without a
// [tolerance] table (score_epsilon).
const DefaultEpsilon = 1e-9

// ErrSuite is matched (errors.Is) by every *SuiteError.
var ErrSuite = errors.New("suite error")

// SuiteError reports a vector file that could not be turned into a case:
// malformed TOML, an unknown schema, a stage that disagrees with its path.
type SuiteError struct {
	// File is the path relative to the suite root.
	File string `json:"file"`
	// Line is the 1-based line of the problem, 0 when unknown.
	Line int `json:"line,omitempty"`
	// Reason says what is wrong.
	Reason string `json:"reason"`
	// Warnings are the file's unknown keys, when the loader read the whole
	// file before it failed (lint lists them).
	Warnings []KeyWarning `json:"-"`
}

// Error implements error as "file:line: reason".
func (e *SuiteError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Reason)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Reason)
}

// Unwrap returns ErrSuite.
func (e *SuiteError) Unwrap() error { return ErrSuite }

// ID is the case id the file would have had.
func (e *SuiteError) ID() string { return strings.TrimSuffix(e.File, ".toml") }

// Tier is the tier read from the file's path ("" when not derivable).
func (e *SuiteError) Tier() string { t, _ := pathTierStage(e.File); return t }

// Stage is the stage read from the file's path ("" when not derivable).
func (e *SuiteError) Stage() string { _, s := pathTierStage(e.File); return s }

func pathTierStage(file string) (string, string) {
	parts := strings.Split(file, "/")
	tier, stage := "", ""
	if len(parts) > 1 {
		tier = parts[0]
	}
	if len(parts) > 2 {
		stage = parts[1]
	}
	return tier, stage
}

// Suite is a loaded conformance suite.
type Suite struct {
	// Cases are the loaded cases sorted by id.
	Cases []*Case
	// Errors are the files that could not be loaded, sorted by file.
	Errors []*SuiteError
	// Digest is the hex sha256 over the sorted lines
	// "path NUL hex(sha256(file))\n" of every .toml file.
	Digest string
	// SpecVersion is the specification version the suite targets.
	SpecVersion string
}

// Case returns the case with the given id, or nil.
func (s *Suite) Case(id string) *Case {
	i, ok := slices.BinarySearchFunc(s.Cases, id, func(c *Case, id string) int { return strings.Compare(c.ID, id) })
	if !ok {
		return nil
	}
	return s.Cases[i]
}
