// Package gate is an example of a Go implementation of the Cupel
// specification that gates itself on conformance from go test.
//
// An implementation becomes testable by the conformance runner by
// implementing runner.Implementation: Hello says who it is, Run runs one
// case (its inputs only, never its expectations) and returns the raw
// outputs keyed by item index. gate_test.go then needs one call:
//
//	func TestConformance(t *testing.T) {
//		conformtest.Test(t, gate.Full(), runner.Options{RequireLevel: runner.LevelFullyConformant})
//	}
//
// The package offers two implementations built on go-cupel's engine:
//
//   - Full is the engine as it is: it reaches Cupel Fully Conformant.
//   - Core is deliberately partial, like an implementation of the
//     specification as it stood at 1.0: it answers "unsupported" for the
//     scorers and slicers added later (decay, metadata_trust, metadata_key,
//     count_quota, count_constrained_knapsack). It reaches Cupel Conformant,
//     and its test gates at that level with an expected failures file listing
//     the optional cases it cannot run yet.
package gate

import (
	"context"
	"slices"

	"github.com/cupel-go/go-cupel/cupel/policy"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// Full returns go-cupel's engine under this example's name.
func Full() runner.Implementation { return full{runner.Engine()} }

type full struct{ engine runner.Implementation }

// Hello identifies the implementation, keeping the engine's capabilities.
func (f full) Hello(ctx context.Context) (protocol.Identity, error) {
	info, err := f.engine.Hello(ctx)
	info.Name, info.Version = "gate-example", "0.1.0"
	return info, err
}

// Run runs one case with the engine.
func (f full) Run(ctx context.Context, req protocol.Request) (protocol.Result, error) {
	return f.engine.Run(ctx, req)
}

// Later additions to the specification that Core does not implement.
var (
	laterScorers = []string{"decay", "metadata_trust", "metadata_key"}
	laterSlicers = []string{"count_quota", "count_constrained_knapsack"}
)

// Core returns a deliberately partial implementation: go-cupel's engine
// without the scorers and slicers added after spec 1.0.
func Core() runner.Implementation { return core{runner.Engine()} }

type core struct{ engine runner.Implementation }

// Hello identifies the implementation and lists only what it supports.
func (c core) Hello(ctx context.Context) (protocol.Identity, error) {
	info, err := c.engine.Hello(ctx)
	info.Name, info.Version = "gate-example-core", "0.1.0"
	caps := &info.Capabilities
	caps.Scorers = slices.DeleteFunc(slices.Clone(caps.Scorers), func(s string) bool { return slices.Contains(laterScorers, s) })
	caps.Slicers = slices.DeleteFunc(slices.Clone(caps.Slicers), func(s string) bool { return slices.Contains(laterSlicers, s) })
	return info, err
}

// Run answers unsupported, with the reason, for a case that needs a later
// scorer or slicer anywhere in its configuration, and runs every other
// case with the engine.
func (c core) Run(ctx context.Context, req protocol.Request) (protocol.Result, error) {
	if what := laterFeature(req.Case); what != "" {
		return protocol.Result{Kind: protocol.ResultUnsupported, Reason: what + " is not implemented (added after spec 1.0)"}, nil
	}
	return c.engine.Run(ctx, req)
}

// laterFeature names the first later scorer or slicer that in needs, or
// returns "".
func laterFeature(in casefile.Input) string {
	for i := range in.Scorers {
		if s := laterScorer(&in.Scorers[i]); s != "" {
			return "scorer " + s
		}
	}
	for _, sl := range []string{in.Slicer, in.InnerSlicer} {
		if slices.Contains(laterSlicers, sl) {
			return "slicer " + sl
		}
	}
	return ""
}

// laterScorer walks a scorer configuration, composite children and scaled
// inner scorers included.
func laterScorer(sc *policy.ScorerSpec) string {
	if slices.Contains(laterScorers, sc.Type) {
		return sc.Type
	}
	for i := range sc.Children {
		if s := laterScorer(&sc.Children[i]); s != "" {
			return s
		}
	}
	if sc.Inner != nil {
		return laterScorer(sc.Inner)
	}
	return ""
}
