package runner

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/cupel-go/go-cupel/runner/protocol"
	"github.com/cupel-go/go-cupel/runner/vector"
)

// Expectation pins a known failure of one case to its failure kind.
type Expectation struct {
	// ID is the exact case id.
	ID string `toml:"id" json:"id"`
	// Status is the failure kind: fail, error, crash, timeout or
	// unsupported.
	Status protocol.Status `toml:"status" json:"status"`
	// Reason says why the case fails.
	Reason string `toml:"reason" json:"reason"`
	// Issue links the issue that tracks it.
	Issue string `toml:"issue,omitempty" json:"issue,omitempty"`
}

// Expectations is an expectations file: the known failures of an
// implementation. It is strict: a pinned case that passes is an
// unexpected pass, a case that fails another way stays a failure, and an
// id the suite does not have is an error.
type Expectations struct {
	Entries []Expectation `toml:"expected_failure"`
	byID    map[string]*Expectation
}

var expectableStatuses = []protocol.Status{protocol.StatusFail, protocol.StatusError, protocol.StatusCrash, protocol.StatusTimeout, protocol.StatusUnsupported}

// ParseExpectations parses an expectations file (TOML):
//
//	[[expected_failure]]
//	id = "optional/scoring/decay-future-dated"
//	status = "fail"
//	reason = "future-dated items are clamped to age 0"
//	issue = "https://example.com/issues/12"
//
// Unknown keys, unknown statuses and duplicate ids are errors.
func ParseExpectations(name string, data []byte) (*Expectations, error) {
	var e Expectations
	md, err := toml.Decode(string(data), &e)
	if err != nil {
		return nil, fmt.Errorf("%w: expectations %s: %v", ErrUsage, name, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, fmt.Errorf("%w: expectations %s: unknown key %q", ErrUsage, name, und[0].String())
	}
	e.byID = map[string]*Expectation{}
	for i := range e.Entries {
		x := &e.Entries[i]
		if x.ID == "" {
			return nil, fmt.Errorf("%w: expectations %s: entry %d has no id", ErrUsage, name, i+1)
		}
		if !slices.Contains(expectableStatuses, x.Status) {
			return nil, fmt.Errorf("%w: expectations %s: %s: status %q is not one of fail, error, crash, timeout, unsupported", ErrUsage, name, x.ID, x.Status)
		}
		if _, dup := e.byID[x.ID]; dup {
			return nil, fmt.Errorf("%w: expectations %s: %s is listed twice", ErrUsage, name, x.ID)
		}
		e.byID[x.ID] = x
	}
	return &e, nil
}

// ReadExpectations reads and parses an expectations file.
func ReadExpectations(path string) (*Expectations, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUsage, err)
	}
	return ParseExpectations(path, data)
}

// Check fails with ErrUsage when an entry names a case the suite does not
// have.
func (e *Expectations) Check(s *vector.Suite) error {
	var unknown []string
	for _, x := range e.Entries {
		if s.Case(x.ID) == nil && !slices.ContainsFunc(s.Errors, func(se *vector.SuiteError) bool { return se.ID() == x.ID }) {
			unknown = append(unknown, x.ID)
		}
	}
	if len(unknown) > 0 {
		return fmt.Errorf("%w: expectations name cases the suite does not have: %s", ErrUsage, strings.Join(unknown, ", "))
	}
	return nil
}

// Marshal writes the expectations file.
func (e *Expectations) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString("# cupel-conform expectations: known failures, one entry per case.\n")
	buf.WriteString("# A listed case that passes fails the run; remove it then.\n")
	for _, x := range e.Entries {
		buf.WriteString("\n[[expected_failure]]\n")
		if err := toml.NewEncoder(&buf).Encode(x); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}
