// Package oracleimpl is the oracle: a fake implementation that answers
// every case of a suite with its expected result, read from the suite
// itself (its hello names it "oracle"). It lets the
// runner's tests drive every path (comparison, protocol, faults) without
// an engine; a Mutate hook turns it into a deliberately wrong one.
package oracleimpl

import (
	"context"
	"fmt"
	"slices"

	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// Oracle answers from the suite's expected results.
type Oracle struct {
	Suite *casefile.Suite
	// Mutate, when set, may change a result before it is returned.
	Mutate func(c *casefile.Case, r *protocol.Result)
	// Info is returned by Hello.
	Info protocol.Identity
}

// New returns an answer key over suite (its Hello still names itself
// "oracle", as the reports of the tests show).
func New(suite *casefile.Suite) *Oracle {
	return &Oracle{Suite: suite, Info: protocol.Identity{Name: "oracle", Version: "1", Language: "go",
		Capabilities: protocol.Capabilities{Stages: casefile.Stages, Features: []string{"diagnostics"}}}}
}

// Hello returns o.Info.
func (o *Oracle) Hello(context.Context) (protocol.Identity, error) { return o.Info, nil }

// Run answers with the expected result of the case.
func (o *Oracle) Run(_ context.Context, req protocol.Request) (protocol.Result, error) {
	c := o.Suite.Case(req.ID)
	if c == nil {
		return protocol.Result{Kind: protocol.ResultError, Error: &protocol.ErrorInfo{Kind: "internal", Message: "unknown case " + req.ID}}, nil
	}
	r := Answer(c)
	if o.Mutate != nil {
		o.Mutate(c, &r)
	}
	return r, nil
}

// Answer is the result that passes c.
func Answer(c *casefile.Case) protocol.Result {
	e := &c.Expect
	if e.ConstructionError {
		return protocol.Result{Kind: protocol.ResultRejected, Error: &protocol.ErrorInfo{Kind: casefile.KindInvalidConfig, Message: "oracle"}}
	}
	if e.Error != "" {
		return protocol.Result{Kind: protocol.ResultRejected, Error: &protocol.ErrorInfo{Kind: e.Error, Message: "oracle"}}
	}
	out := &protocol.Output{}
	switch c.Stage {
	case casefile.StageScoring:
		for _, s := range e.Scores {
			out.Scores = append(out.Scores, protocol.IndexScore{Index: s.Resolved, Score: s.Score})
		}
	case casefile.StageSlicing:
		for _, r := range e.Selected {
			out.Selected = append(out.Selected, r.Resolved)
		}
	case casefile.StagePlacing, casefile.StagePipeline:
		for _, r := range e.Ordered {
			out.Ordered = append(out.Ordered, r.Resolved)
		}
	}
	out.Shortfalls = slices.Clone(e.Shortfalls)
	if out.Shortfalls == nil && e.ShortfallCount != nil {
		for i := 0; i < *e.ShortfallCount; i++ {
			out.Shortfalls = append(out.Shortfalls, casefile.Shortfall{Kind: fmt.Sprint("k", i)})
		}
	}
	if e.CapExcludedCount != nil {
		n := *e.CapExcludedCount
		out.CapExcludedCount = &n
	}
	if e.Overflow != nil {
		ov := *e.Overflow
		out.Overflow = &ov
	}
	if d := e.Diagnostics; d != nil {
		diag := &protocol.Diagnostics{}
		if d.TotalCandidates != nil {
			diag.TotalCandidates = *d.TotalCandidates
		}
		if d.TotalTokensConsidered != nil {
			diag.TotalTokensConsidered = *d.TotalTokensConsidered
		}
		diag.Included = entries(d.Included)
		diag.Excluded = entries(d.Excluded)
		out.Diagnostics = diag
	}
	if e.ReportShortfalls != nil {
		if out.Diagnostics == nil {
			out.Diagnostics = &protocol.Diagnostics{Included: []protocol.DiagnosticItem{}, Excluded: []protocol.DiagnosticItem{}}
		}
		out.Diagnostics.Shortfalls = slices.Clone(e.ReportShortfalls)
	}
	return protocol.Result{Kind: protocol.ResultOK, Output: out}
}

func entries(list []casefile.ExpectedDiagnosticItem) []protocol.DiagnosticItem {
	out := []protocol.DiagnosticItem{}
	for _, e := range list {
		re := protocol.DiagnosticItem{Index: e.Resolved, Reason: map[string]any{"reason": e.Reason}}
		if e.Score != nil {
			re.Score = *e.Score
		}
		for k, v := range e.Fields {
			re.Reason[k] = v
		}
		out = append(out, re)
	}
	return out
}
