package explore

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/cupel-go/go-cupel/cupel/policy"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// This file is one exploration's state and its judgement of one case:
// run it on both sides, compare, and classify the difference. explore.go
// drives it; the shrinker and the session reuse its check.

// explorer holds one exploration's state.
type explorer struct {
	impl, oracle protocol.Implementation
	opts         Options
	caps         exploreCaps
	gen          *exploreGen
	rep          *Report
	// implSeq and oracleSeq number each side's requests from 1.
	implSeq, oracleSeq int
	// lastGood is a case the implementation last answered without a
	// fault: it is run after each fault while shrinking, so that a session
	// restarted for a crash completes a case, and the restart budget (of
	// restarts in a row) measures crash loops, not shrinking.
	lastGood *casefile.Case
	infra    error
	start    time.Time
	// byClass finds a divergence by the class of a case that shows it.
	byClass map[string]*Divergence
	// byInput finds the divergence a fuzzer's input showed, by its name
	// (Divergence.Input).
	byInput map[string]*Divergence
}

// close closes both sides (when they have a Close method) and records the
// duration.
func (x *explorer) close() {
	for _, im := range []protocol.Implementation{x.impl, x.oracle} {
		if c, ok := im.(interface{ Close() error }); ok {
			_ = c.Close()
		}
	}
	x.rep.Duration = time.Since(x.start)
}

func stageList(stages []string) string {
	if len(stages) == 0 {
		return ""
	}
	return " among " + strings.Join(stages, ", ")
}

func (x *explorer) hello(ctx context.Context, impl protocol.Implementation) (protocol.Identity, error) {
	hctx, cancel := context.WithTimeout(ctx, x.opts.StartupTimeout)
	defer cancel()
	info, err := protocol.CallHello(hctx, impl)
	if err != nil {
		var f *protocol.Fault
		if errors.As(err, &f) && f.Stderr != "" {
			return info, fmt.Errorf("%s\nstderr:\n%s", f.Message, f.Stderr)
		}
	}
	return info, err
}

func (x *explorer) progress(shrinking string) {
	if x.opts.OnProgress == nil {
		return
	}
	x.opts.OnProgress(Progress{Cases: x.rep.Cases, Skipped: x.rep.Skipped, Divergences: len(x.rep.Divergences),
		Elapsed: time.Since(x.start), Shrinking: shrinking})
}

// outcome is one case run on both sides.
type outcome struct {
	// kind is the kind of difference ("" when both agree).
	kind string
	skip bool
	// oracleRes and actualRes are the two results, set when hasOracle
	// and hasActual are (not after a fault). They are held by value: most
	// outcomes are dropped, and a pointer would cost an allocation per
	// case; oracle and actual return them.
	oracleRes, actualRes protocol.Result
	hasOracle, hasActual bool
	verdict              runner.Comparison
	fault, stderr        string
	oracleFault          bool
}

// oracle returns a copy of the oracle's result, or nil after a fault.
func (o *outcome) oracle() *protocol.Result {
	if !o.hasOracle {
		return nil
	}
	r := o.oracleRes
	return &r
}

// actual returns a copy of the implementation's result, or nil after a
// fault or when it did not run.
func (o *outcome) actual() *protocol.Result {
	if !o.hasActual {
		return nil
	}
	r := o.actualRes
	return &r
}

// call runs one request with the timeout, turning panics into crashes. It
// returns the result, or the fault that replaced it.
func (x *explorer) call(ctx context.Context, impl protocol.Implementation, c *casefile.Case, seq *int) (protocol.Result, *protocol.Fault) {
	*seq++
	req := protocol.NewRequest(*seq, c)
	if impl == runner.Engine() { // go-cupel in process (engine is comparable)
		return x.callEngine(ctx, req)
	}
	r, err := protocol.Call(ctx, impl, req, x.opts.Timeout)
	if err == nil {
		return r, nil
	}
	var f *protocol.Fault
	switch {
	case errors.Is(err, protocol.ErrInfrastructure):
		x.infra = err
		if ctx.Err() != nil {
			x.infra = fmt.Errorf("interrupted: %w", ctx.Err())
		}
		return protocol.Result{}, &protocol.Fault{Outcome: protocol.OutcomeNotRun, Message: err.Error()}
	case errors.As(err, &f):
		return protocol.Result{}, f
	case errors.Is(err, context.DeadlineExceeded):
		return protocol.Result{}, &protocol.Fault{Outcome: protocol.OutcomeTimeout, Message: protocol.TimeoutMessage(x.opts.Timeout)}
	}
	return protocol.Result{}, &protocol.Fault{Outcome: protocol.OutcomeError, Message: err.Error()}
}

// callEngine runs go-cupel in process: it cannot hang or be killed, so it
// runs without the timeout's goroutine, which dominates the cost of small
// cases; a panic is still a crash.
func (x *explorer) callEngine(ctx context.Context, req protocol.Request) (r protocol.Result, f *protocol.Fault) {
	defer func() {
		if p := recover(); p != nil {
			r, f = protocol.Result{}, &protocol.Fault{Outcome: protocol.OutcomeCrash, Message: fmt.Sprintf("panic: %v\n%s", p, debug.Stack())}
		}
	}()
	r, err := runner.Engine().Run(ctx, req)
	if err != nil {
		return protocol.Result{}, &protocol.Fault{Outcome: protocol.OutcomeError, Message: err.Error()}
	}
	return r, nil
}

func faultText(f *protocol.Fault) string {
	if f.Err != nil && !strings.Contains(f.Message, f.Err.Error()) {
		return f.Message + ": " + f.Err.Error()
	}
	return f.Message
}

// check runs c on the oracle, makes its outputs c's expectations, runs c
// on the implementation and compares.
func (x *explorer) check(ctx context.Context, c *casefile.Case) outcome {
	var o outcome
	or, f := x.call(ctx, x.oracle, c, &x.oracleSeq)
	if x.infra != nil {
		return o
	}
	if f != nil {
		o.kind, o.fault, o.stderr, o.oracleFault = "oracle "+string(f.Outcome), faultText(f), f.Stderr, true
		return o
	}
	o.oracleRes, o.hasOracle = or, true
	switch or.Kind {
	case protocol.ResultUnsupported:
		o.skip = true
		return o
	case protocol.ResultError:
		o.kind = "oracle error"
		o.oracleFault = true
		o.fault = "the oracle failed: " + or.Error.Text()
		return o
	}
	if !exploreExpect(c, or, x.caps.diagnostics) {
		o.skip = true
		return o
	}
	ar, f := x.call(ctx, x.impl, c, &x.implSeq)
	if x.infra != nil {
		return o
	}
	if f != nil {
		o.kind, o.fault, o.stderr = string(f.Outcome), faultText(f), f.Stderr
		o.verdict = runner.Comparison{Outcome: f.Outcome, Message: faultText(f)}
		if x.lastGood != nil {
			// Let a restarted session complete a case (see lastGood).
			x.call(ctx, x.impl, x.lastGood, &x.implSeq)
		}
		return o
	}
	x.lastGood = c
	o.actualRes, o.hasActual = ar, true
	o.verdict = runner.Compare(c, ar)
	switch o.verdict.Outcome {
	case protocol.OutcomePass:
	case protocol.OutcomeUnsupported:
		o.skip = true
	default:
		o.kind = diffKind(o.verdict)
	}
	return o
}

// diffKind classifies a verdict by the first problem the comparator
// names: the kind of difference that makes a divergence distinct.
func diffKind(v runner.Comparison) string {
	if v.Outcome != protocol.OutcomeFail {
		return string(v.Outcome)
	}
	m := v.Message
	prefixes := []struct{ prefix, kind string }{
		{"rejected unexpectedly", "rejected"},
		{"rejected with", "error kind"},
		{"expected ", "accepted"},
		{"score", "scores"},
		{"selection", "selection"},
		{"selected", "selection"},
		{"output", "order"},
		{"ordered", "order"},
		{"shortfalls", "shortfalls"},
		{"cap_excluded_count", "cap-excluded count"},
		{"overflow", "overflow"},
		{"diagnostics included", "diagnostics included"},
		{"diagnostics excluded", "diagnostics excluded"},
		{"diagnostics", "diagnostics"},
	}
	for _, p := range prefixes {
		if strings.HasPrefix(m, p.prefix) {
			return p.kind
		}
	}
	return "other"
}

// component names what a case exercises: its scorer, slicer or placer.
func component(c *casefile.Case) string {
	switch c.Stage {
	case casefile.StageScoring:
		return scorerName(c.Input.Scorers)
	case casefile.StageSlicing:
		return slicerName(&c.Input.Spec)
	case casefile.StagePlacing:
		return c.Input.Placer
	}
	return scorerName(c.Input.Scorers) + " + " + slicerName(&c.Input.Spec) + " + " + c.Input.Placer
}

func scorerName(scorers []policy.ScorerSpec) string {
	if len(scorers) == 0 {
		return "-"
	}
	return scorers[0].Type
}

func slicerName(s *policy.Spec) string {
	if s.Slicer == "" {
		return "-"
	}
	if s.InnerSlicer != "" {
		return s.Slicer + "(" + s.InnerSlicer + ")"
	}
	return s.Slicer
}

func (x *explorer) class(c *casefile.Case, kind string) string {
	return c.Stage + " / " + component(c) + " / " + kind
}
