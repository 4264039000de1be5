package runner

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// ExpectedFailure is one entry of an expected failures file: a known
// failure of one case, and the outcome it fails with.
type ExpectedFailure struct {
	// ID is the exact case id.
	ID string `toml:"id" json:"id"`
	// Outcome is the outcome the case fails with: fail, error, crash,
	// timeout or unsupported.
	Outcome protocol.Outcome `toml:"outcome" json:"outcome"`
	// Reason says why the case fails.
	Reason string `toml:"reason" json:"reason"`
	// Issue links the issue that tracks it.
	Issue string `toml:"issue,omitempty" json:"issue,omitempty"`
}

// ExpectedFailures is an expected failures file: the known failures of an
// implementation. It is strict: a listed case that passes is an xpass, a
// case that fails another way stays a failure, and an id the suite does
// not have is an error.
type ExpectedFailures struct {
	Entries []ExpectedFailure `toml:"expected_failure"`
	byID    map[string]*ExpectedFailure
}

var expectableOutcomes = []protocol.Outcome{protocol.OutcomeFail, protocol.OutcomeError, protocol.OutcomeCrash, protocol.OutcomeTimeout, protocol.OutcomeUnsupported}

// ParseExpectedFailures parses an expected failures file (TOML):
//
//	[[expected_failure]]
//	id = "optional/scoring/decay-future-dated"
//	outcome = "fail"
//	reason = "future-dated items are clamped to age 0"
//	issue = "https://example.com/issues/12"
//
// "status" is read as the old name of "outcome". Unknown keys, unknown
// outcomes and duplicate ids are errors.
func ParseExpectedFailures(name string, data []byte) (*ExpectedFailures, error) {
	var f struct {
		Entries []struct {
			ExpectedFailure
			Status protocol.Outcome `toml:"status"` // the old name of outcome
		} `toml:"expected_failure"`
	}
	md, err := toml.Decode(string(data), &f)
	if err != nil {
		return nil, fmt.Errorf("%w: expected failures %s: %v", ErrUsage, name, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, fmt.Errorf("%w: expected failures %s: unknown key %q", ErrUsage, name, und[0].String())
	}
	e := ExpectedFailures{byID: map[string]*ExpectedFailure{}}
	for i, x := range f.Entries {
		if x.ID == "" {
			return nil, fmt.Errorf("%w: expected failures %s: entry %d has no id", ErrUsage, name, i+1)
		}
		switch {
		case x.Status != "" && x.Outcome != "":
			return nil, fmt.Errorf("%w: expected failures %s: %s: both outcome and status (its old name) are given", ErrUsage, name, x.ID)
		case x.Status != "":
			x.Outcome = x.Status
		}
		if !slices.Contains(expectableOutcomes, x.Outcome) {
			return nil, fmt.Errorf("%w: expected failures %s: %s: outcome %q is not one of fail, error, crash, timeout, unsupported", ErrUsage, name, x.ID, x.Outcome)
		}
		if _, dup := e.byID[x.ID]; dup {
			return nil, fmt.Errorf("%w: expected failures %s: %s is listed twice", ErrUsage, name, x.ID)
		}
		e.Entries = append(e.Entries, x.ExpectedFailure)
		e.byID[x.ID] = nil
	}
	for i := range e.Entries {
		e.byID[e.Entries[i].ID] = &e.Entries[i]
	}
	return &e, nil
}

// ReadExpectedFailures reads and parses an expected failures file.
func ReadExpectedFailures(path string) (*ExpectedFailures, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUsage, err)
	}
	return ParseExpectedFailures(path, data)
}

// Check fails with ErrUsage when an entry names a case the suite does not
// have.
func (e *ExpectedFailures) Check(s *casefile.Suite) error {
	var unknown []string
	for _, x := range e.Entries {
		if s.Case(x.ID) == nil && !slices.ContainsFunc(s.Errors, func(se *casefile.SuiteError) bool { return se.ID() == x.ID }) {
			unknown = append(unknown, x.ID)
		}
	}
	if len(unknown) > 0 {
		return fmt.Errorf("%w: expected failures name cases the suite does not have: %s", ErrUsage, strings.Join(unknown, ", "))
	}
	return nil
}

// Marshal writes the expected failures file.
func (e *ExpectedFailures) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString("# cupel-conform expected failures: known failures, one entry per case.\n")
	buf.WriteString("# A listed case that passes fails the run; remove it then.\n")
	for _, x := range e.Entries {
		buf.WriteString("\n[[expected_failure]]\n")
		if err := toml.NewEncoder(&buf).Encode(x); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}
