package protocol

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cupel-go/go-cupel/runner/casefile"
)

// Implementation is an implementation of the Cupel specification under
// test. The in-process engine, the session and exec adapters, and an
// offline results file all implement it; so can any Go implementation.
//
// Run receives the inputs of one case only (never its expectations) and
// returns the raw outputs keyed by item index; the runner does every
// comparison. A Result of Kind "rejected" is the implementation
// refusing the input with an error kind; a non-nil error is a fault of
// the implementation's process or transport: return a *Fault to say which.
//
// An Implementation may also have the optional methods of
// [RestartCounter], [TimeoutGracer] and [StderrReporter]; one that is an
// io.Closer is closed when the run finishes.
type Implementation interface {
	// Hello identifies the implementation and its capabilities. It is
	// called once before the first Run.
	Hello(ctx context.Context) (Identity, error)
	// Run runs one case. ctx carries the per-case timeout.
	Run(ctx context.Context, req Request) (Result, error)
}

// Identity identifies an implementation: what its Hello says. Capabilities shape the report only;
// they never excuse a tier.
type Identity struct {
	Name         string       `json:"name"`
	Version      string       `json:"version,omitempty"`
	Language     string       `json:"language,omitempty"`
	Homepage     string       `json:"homepage,omitempty"`
	Capabilities Capabilities `json:"capabilities"`
}

// Capabilities lists what an implementation says it supports.
type Capabilities struct {
	Stages   []string `json:"stages,omitempty"`
	Scorers  []string `json:"scorers,omitempty"`
	Slicers  []string `json:"slicers,omitempty"`
	Placers  []string `json:"placers,omitempty"`
	Features []string `json:"features,omitempty"`
}

// CapabilityList is one named list of [Capabilities].
type CapabilityList struct {
	Name   string // "stages", "scorers", "slicers", "placers" or "features"
	Values []string
}

// Lists returns the non-empty lists of c with their names, in the order
// stages, scorers, slicers, placers, features: the order reports show them.
func (c Capabilities) Lists() []CapabilityList {
	var out []CapabilityList
	for _, l := range [...]CapabilityList{{"stages", c.Stages}, {"scorers", c.Scorers}, {"slicers", c.Slicers}, {"placers", c.Placers}, {"features", c.Features}} {
		if len(l.Values) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// Request is one case as an implementation receives it: the body of a
// protocol "run" message.
type Request struct {
	Seq   int            `json:"seq"`
	ID    string         `json:"id"`
	Stage string         `json:"stage"`
	Case  casefile.Input `json:"case"`
}

// NewRequest builds the request for c.
func NewRequest(seq int, c *casefile.Case) Request {
	return Request{Seq: seq, ID: c.ID, Stage: c.Stage, Case: c.Input}
}

// Result kinds: what an implementation answers (the wire's "status").
const (
	ResultOK          = "ok"
	ResultRejected    = "rejected"
	ResultUnsupported = "unsupported"
	ResultError       = "error"
)

// Result is an implementation's answer to one Request.
type Result struct {
	// Kind is the answer: "ok", "rejected", "unsupported" or "error" (the
	// wire's "status" key).
	Kind string `json:"status"`
	// Output is set when Kind is "ok".
	Output *Output `json:"output,omitempty"`
	// Error is set when Kind is "rejected" or "error".
	Error *ErrorInfo `json:"error,omitempty"`
	// Reason says why a case is unsupported.
	Reason string `json:"reason,omitempty"`
}

// ErrorInfo is the error of a rejected or failed run. Kind is one of
// ErrorKinds for a rejection.
type ErrorInfo struct {
	Kind    string `json:"kind"`
	Message string `json:"message,omitempty"`
}

// Output is the raw output of a run, keyed by item index.
type Output struct {
	// Scores: scoring, the score of every item.
	Scores []IndexScore `json:"scores,omitempty"`
	// Selected: slicing, the selected items in the slicer's order.
	Selected []int `json:"selected,omitempty"`
	// Ordered: placing and pipeline, the output in order.
	Ordered []int `json:"ordered,omitempty"`
	// Shortfalls: count-slicer shortfalls (slicing and pipeline).
	Shortfalls []casefile.Shortfall `json:"shortfalls,omitempty"`
	// CapExcludedCount: slicing, items a count slicer dropped at a cap.
	CapExcludedCount *int `json:"cap_excluded_count,omitempty"`
	// Overflow: pipeline under Proceed, the OverflowEvent if one fired.
	Overflow *casefile.Overflow `json:"overflow,omitempty"`
	// Diagnostics: pipeline, the selection report.
	Diagnostics *Diagnostics `json:"diagnostics,omitempty"`
}

// IndexScore is the score of the item at Index.
type IndexScore struct {
	Index int            `json:"index"`
	Score casefile.Float `json:"score"`
}

// Diagnostics is a SelectionReport in the spec's wire format, with each
// item replaced by its index.
type Diagnostics struct {
	Included              []DiagnosticItem     `json:"included"`
	Excluded              []DiagnosticItem     `json:"excluded"`
	TotalCandidates       int64                `json:"total_candidates"`
	TotalTokensConsidered int64                `json:"total_tokens_considered"`
	Shortfalls            []casefile.Shortfall `json:"count_requirement_shortfalls,omitempty"`
}

// DiagnosticItem is an included or excluded item of a selection report. Reason is the
// spec's reason envelope: {"reason": "<Variant>", ...fields}.
type DiagnosticItem struct {
	Index  int            `json:"index"`
	Score  casefile.Float `json:"score"`
	Reason map[string]any `json:"reason"`
}

// Fault is an error of an implementation's process or transport. Outcome
// is the case outcome it maps to: crash, timeout or error (protocol).
type Fault struct {
	Outcome Outcome
	Message string
	// Stderr is the tail of the process's stderr, if any.
	Stderr string
	// Line is the line the implementation sent, when the fault is about
	// it (a line refused, of the wrong type or sequence), bounded by
	// bound.Line.
	Line string
	Err  error
}

// Error implements error.
func (f *Fault) Error() string {
	if f.Err != nil {
		return fmt.Sprintf("%s: %s: %v", f.Outcome, f.Message, f.Err)
	}
	return fmt.Sprintf("%s: %s", f.Outcome, f.Message)
}

// Unwrap returns the underlying error.
func (f *Fault) Unwrap() error { return f.Err }

// ErrInfrastructure is matched by errors that stop a run without a verdict:
// an implementation that dies at start, a restart budget exhausted, an
// offline results file that does not match the suite.
var ErrInfrastructure = errors.New("infrastructure error")

// The optional methods below let an Implementation tell the runner more
// than Hello and Run can. The runner looks for them with a type assertion;
// Process has all of them.

// RestartCounter is an Implementation that restarts itself after faults
// (a crash, a hang, a protocol error); the report records Restarts, the
// restarts of the whole run.
type RestartCounter interface {
	Restarts() int
}

// TimeoutGracer is an Implementation that needs more than the default
// second, after a case's context is done, to report the timeout itself
// (for example to collect a killed process's stderr). TimeoutGrace is how
// long the runner waits for Run to return before it abandons the call and
// records a timeout.
type TimeoutGracer interface {
	TimeoutGrace() time.Duration
}

// StderrReporter is an Implementation with a diagnostics stream of its
// own (a process's stderr). After a case that did not pass, CaseStderr
// returns what the implementation wrote during that case (its tail), which
// the report attaches to the failure.
type StderrReporter interface {
	CaseStderr() string
}

// LineReporter is an Implementation that reads its answers from lines
// (a process, an offline results file). After a case that did not pass,
// CaseLine returns the line of its result as the implementation sent it,
// bounded by bound.Line, which the report keeps next to the result it
// decoded.
type LineReporter interface {
	CaseLine() string
}

// Forker is an Implementation that can run cases in parallel through
// independent copies of itself (runner.Options.Parallel): Fork returns a new
// instance, not yet started, that gets its own Hello and runs one case at
// a time. A Process forks into another session (or, with ExecPerCase,
// another stream of processes).
type Forker interface {
	Fork() Implementation
}
