package explore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/protocol"
	"github.com/cupel-go/go-cupel/runner/vector"
)

// Options configure Run. The zero value explores 1,000 cases of
// seed 0 against go-cupel.
type Options struct {
	// Seed selects the cases: case (Seed, i) is the same on every run.
	Seed uint64
	// Cases is how many cases to generate. With Duration set, generation
	// stops at whichever comes first; with neither set, 1,000.
	Cases int
	// Duration bounds the generation (shrinking the last divergence found
	// may run past it).
	Duration time.Duration
	// Stages restricts generation to these stages (default: every stage
	// both sides declare in hello).
	Stages []string
	// Oracle produces the expected values. Nil means go-cupel in process
	// (Engine), which is trusted; any other oracle is not, and reports
	// name both outputs without taking sides.
	Oracle protocol.Implementation
	// Timeout bounds each run of a case (default 10s); StartupTimeout
	// bounds each Hello (default 30s).
	Timeout, StartupTimeout time.Duration
	// ShrinkRuns bounds the runs spent shrinking one divergence (default
	// 2,000); ShrinkTime bounds the time (default 60s).
	ShrinkRuns int
	ShrinkTime time.Duration
	// Out, when set, is the directory each distinct divergence is written
	// to as a vector file: Out/optional/<stage>/<name>.toml, which
	// `cupel-conform run --suite Out` runs.
	Out string
	// OnProgress, when set, is called every few hundred cases and at each
	// new divergence.
	OnProgress func(Progress)
	// Coverage, when set, counts the features of the configuration space
	// the generated cases use (Report.Coverage).
	Coverage bool
	// Shard, when set, runs only this shard's share of the indices below
	// Cases (see Shard); the shards' reports merge with MergeReports.
	Shard runner.Shard
}

// Progress is a snapshot of an exploration under way.
type Progress struct {
	Cases       int
	Skipped     int
	Divergences int
	Elapsed     time.Duration
	// Shrinking names the divergence being shrunk, if any.
	Shrinking string
}

// Report is the outcome of Run.
type Report struct {
	// Schema is ReportSchema in the JSON form.
	Schema         string `json:"schema"`
	Implementation protocol.Identity
	Oracle         protocol.Identity
	// OracleTrusted is true when the oracle is go-cupel in process: its
	// outputs are the expected values. With another oracle a divergence
	// says only that the two disagree.
	OracleTrusted bool
	Seed          uint64
	// Stages are the stages generated.
	Stages []string
	// Cases counts the generated cases run on both sides; Skipped the ones
	// either side answered unsupported (generation uses only what hello
	// declares, so these are capabilities that overstate).
	Cases, Skipped int
	Duration       time.Duration
	// Divergences are the distinct divergences, in the order found.
	Divergences []*Divergence
	// Infrastructure, when set, says why exploration stopped without a
	// verdict (an implementation that would not start, a crash loop).
	Infrastructure string
	// Interrupted is set when ctx ended the exploration early.
	Interrupted bool
	// Coverage counts, per feature of the configuration space, the
	// generated cases that use it (with Options.Coverage).
	Coverage []FeatureCount `json:",omitempty"`
	// Shard is the shard this report covers (zero: every index).
	Shard runner.Shard `json:",omitzero"`
}

// Divergence is one distinct disagreement: a stage, a component and a kind
// of difference, with the shrunk case that shows it.
type Divergence struct {
	// Class is "stage / component / kind", the key that makes it distinct.
	Class, Stage, Component, Kind string
	// Seed and Index regenerate the original case; OriginalItems is its
	// item count before shrinking.
	Seed          uint64
	Index         int
	OriginalItems int
	// Count is how many generated cases fell in this class.
	Count int
	// Case is the shrunk case; its Expect holds the oracle's outputs.
	Case *vector.Case
	// Verdict is the comparison of the implementation's result on Case.
	Verdict runner.Judgement
	// Actual and OracleResult are the two sides' results on Case; Fault
	// describes a crash, hang or protocol error of the implementation (or,
	// with OracleFault, of the oracle), and Stderr its stderr tail.
	Actual, OracleResult *protocol.Result
	Fault, Stderr        string
	OracleFault          bool
	// ShrinkRuns counts the runs spent shrinking.
	ShrinkRuns int
	// File is the vector written for it (under Options.Out).
	File string
}

// Err is the verdict of the exploration as an error, in the manner of
// [Report.Err]. It is nil when no divergence was found. Otherwise it wraps
// ErrInfrastructure when exploration stopped without a verdict (an
// implementation that would not start, a crash loop, an interruption
// before any divergence), or ErrFailed and names the divergences' classes.
// cupel-conform explore exits 3 for the first, 1 for the second.
func (r *Report) Err() error {
	switch {
	case r.Infrastructure != "":
		return fmt.Errorf("%w: %s", protocol.ErrInfrastructure, r.Infrastructure)
	case r.Interrupted && len(r.Divergences) == 0:
		return fmt.Errorf("%w: interrupted after %d cases, before any divergence", protocol.ErrInfrastructure, r.Cases)
	case len(r.Divergences) > 0:
		classes := make([]string, len(r.Divergences))
		for i, d := range r.Divergences {
			classes[i] = d.Class
		}
		return fmt.Errorf("%w: %d divergences in %d cases: %s", runner.ErrFailed, len(r.Divergences), r.Cases, strings.Join(classes, "; "))
	}
	return nil
}

// CasesPerSecond is the generation rate, shrinking included.
func (r *Report) CasesPerSecond() float64 {
	if r.Duration <= 0 {
		return 0
	}
	return float64(r.Cases) / r.Duration.Seconds()
}

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
	lastGood *vector.Case
	infra    error
	start    time.Time
	// byClass finds a divergence by the class of a case that shows it.
	byClass map[string]*Divergence
}

// Run generates cases from the stages and components impl declares in
// hello, runs each on impl and on the oracle (go-cupel unless
// opts.Oracle), compares them with Compare, and shrinks every distinct
// divergence to a minimal case, written as a vector when opts.Out is set.
// Case (seed, i) is the same on every run. The error is for usage errors
// (ErrUsage) and an unwritable Out; faults of the implementation are in
// the report. Like runner.Run, Run closes impl and the oracle when they have
// a Close method (a Process ends its session).
func Run(ctx context.Context, impl protocol.Implementation, opts Options) (*Report, error) {
	x, err := startExplore(ctx, impl, opts)
	if err != nil {
		return nil, err
	}
	defer x.close()
	rep := x.rep
	if rep.Infrastructure != "" {
		return rep, nil
	}
	opts = x.opts
	var cov *coverage
	if opts.Coverage {
		cov = newCoverage(x.caps)
		defer func() { rep.Coverage = cov.report() }()
	}
	var deadline time.Time
	if opts.Duration > 0 {
		deadline = x.start.Add(opts.Duration)
	}
	first, step := opts.Shard.Span()
	for i := first; opts.Cases == 0 || i < opts.Cases; i += step {
		if !deadline.IsZero() && (i-first)/step%64 == 0 && time.Now().After(deadline) {
			break
		}
		if ctx.Err() != nil {
			rep.Interrupted = true
			break
		}
		c := x.gen.generate(opts.Seed, i)
		if cov != nil {
			cov.count(c)
		}
		if _, err := x.runCase(ctx, c, i); err != nil {
			return rep, err
		}
		if x.infra != nil {
			rep.Infrastructure = x.infra.Error()
			break
		}
		if (i-first)/step%256 == 255 {
			x.progress("")
		}
	}
	if ctx.Err() != nil {
		rep.Interrupted = true
	}
	return rep, nil
}

// startExplore checks opts, fills in their defaults, and says hello to
// both sides. A usage error is returned (both sides closed); a side that
// does not start is the report's Infrastructure. The caller closes x.
func startExplore(ctx context.Context, impl protocol.Implementation, opts Options) (*explorer, error) {
	for _, st := range opts.Stages {
		if !slices.Contains(vector.Stages, st) {
			return nil, fmt.Errorf("%w: unknown stage %q (want scoring, slicing, placing or pipeline)", runner.ErrUsage, st)
		}
	}
	if opts.Cases < 0 || opts.Duration < 0 {
		return nil, fmt.Errorf("%w: the case count and duration must not be negative", runner.ErrUsage)
	}
	if err := opts.Shard.Validate(); err != nil {
		return nil, err
	}
	if opts.Cases == 0 && opts.Duration == 0 {
		opts.Cases = 1000
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	if opts.StartupTimeout <= 0 {
		opts.StartupTimeout = 30 * time.Second
	}
	if opts.ShrinkRuns <= 0 {
		opts.ShrinkRuns = 2000
	}
	if opts.ShrinkTime <= 0 {
		opts.ShrinkTime = time.Minute
	}
	rep := &Report{Schema: ReportSchema, Seed: opts.Seed, Shard: opts.Shard}
	x := &explorer{impl: impl, oracle: opts.Oracle, opts: opts, rep: rep, start: time.Now(), byClass: map[string]*Divergence{}}
	if x.oracle == nil {
		x.oracle = runner.Engine()
		rep.OracleTrusted = true
	}
	var err error
	if rep.Implementation, err = x.hello(ctx, impl); err != nil {
		rep.Infrastructure = "implementation failed to start: " + err.Error()
		return x, nil
	}
	if rep.Oracle, err = x.hello(ctx, x.oracle); err != nil {
		rep.Infrastructure = "oracle failed to start: " + err.Error()
		return x, nil
	}
	x.caps = newExploreCaps(rep.Implementation.Capabilities, rep.Oracle.Capabilities, opts.Stages)
	if len(x.caps.stages) == 0 {
		x.close()
		return nil, fmt.Errorf("%w: nothing to explore: %s declares stages %v, scorers %v, slicers %v, placers %v in hello, and no stage%s can be generated from them",
			runner.ErrUsage, rep.Implementation.Name, rep.Implementation.Capabilities.Stages, rep.Implementation.Capabilities.Scorers,
			rep.Implementation.Capabilities.Slicers, rep.Implementation.Capabilities.Placers, stageList(opts.Stages))
	}
	rep.Stages = x.caps.stages
	x.gen = newExploreGen(x.caps)
	return x, nil
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

// runCase runs generated case (seed, index) on both sides and counts it;
// a divergence of a new class is shrunk, written and added to the report.
// It returns the divergence the case fell in (nil when both sides agree).
// The error is an unwritable Out; x.infra is set when no verdict can be
// reached.
func (x *explorer) runCase(ctx context.Context, c *vector.Case, index int) (*Divergence, error) {
	rep := x.rep
	o := x.check(ctx, c)
	if x.infra != nil {
		return nil, nil
	}
	switch {
	case o.skip:
		rep.Skipped++
	default:
		rep.Cases++
	}
	if o.kind == "" {
		return nil, nil
	}
	class := x.class(c, o.kind)
	if d := x.byClass[class]; d != nil {
		d.Count++
		return d, nil
	}
	d := x.found(ctx, c, index, o, x.byClass)
	if d == nil { // shrunk into a class already found
		return x.byClass[class], nil
	}
	if err := x.write(d); err != nil {
		return d, err
	}
	rep.Divergences = append(rep.Divergences, d)
	x.progress("")
	return d, nil
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
	info, err := impl.Hello(hctx)
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
	// oracle and actual are the two results (nil after a fault).
	oracle, actual *protocol.Result
	verdict        runner.Judgement
	fault, stderr  string
	oracleFault    bool
}

// call runs one request with the timeout, turning panics into crashes. It
// returns the result, or the fault that replaced it.
func (x *explorer) call(ctx context.Context, impl protocol.Implementation, c *vector.Case, seq *int) (protocol.Result, *protocol.Fault) {
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
		return protocol.Result{}, &protocol.Fault{Status: protocol.StatusNotRun, Message: err.Error()}
	case errors.As(err, &f):
		return protocol.Result{}, f
	case errors.Is(err, context.DeadlineExceeded):
		return protocol.Result{}, &protocol.Fault{Status: protocol.StatusTimeout, Message: protocol.TimeoutMessage(x.opts.Timeout)}
	}
	return protocol.Result{}, &protocol.Fault{Status: protocol.StatusError, Message: err.Error()}
}

// callEngine runs go-cupel in process: it cannot hang or be killed, so it
// runs without the timeout's goroutine, which dominates the cost of small
// cases; a panic is still a crash.
func (x *explorer) callEngine(ctx context.Context, req protocol.Request) (r protocol.Result, f *protocol.Fault) {
	defer func() {
		if p := recover(); p != nil {
			r, f = protocol.Result{}, &protocol.Fault{Status: protocol.StatusCrash, Message: fmt.Sprintf("panic: %v\n%s", p, debug.Stack())}
		}
	}()
	r, err := runner.Engine().Run(ctx, req)
	if err != nil {
		return protocol.Result{}, &protocol.Fault{Status: protocol.StatusError, Message: err.Error()}
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
func (x *explorer) check(ctx context.Context, c *vector.Case) outcome {
	var o outcome
	or, f := x.call(ctx, x.oracle, c, &x.oracleSeq)
	if x.infra != nil {
		return o
	}
	if f != nil {
		o.kind, o.fault, o.stderr, o.oracleFault = "oracle "+string(f.Status), faultText(f), f.Stderr, true
		return o
	}
	o.oracle = &or
	switch or.Status {
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
		o.kind, o.fault, o.stderr = string(f.Status), faultText(f), f.Stderr
		o.verdict = runner.Judgement{Status: f.Status, Message: faultText(f)}
		if x.lastGood != nil {
			// Let a restarted session complete a case (see lastGood).
			x.call(ctx, x.impl, x.lastGood, &x.implSeq)
		}
		return o
	}
	x.lastGood = c
	o.actual = &ar
	o.verdict = runner.Compare(c, ar)
	switch o.verdict.Status {
	case protocol.StatusPass:
	case protocol.StatusUnsupported:
		o.skip = true
	default:
		o.kind = diffKind(o.verdict)
	}
	return o
}

// diffKind classifies a verdict by the first problem the comparator
// names: the kind of difference that makes a divergence distinct.
func diffKind(v runner.Judgement) string {
	if v.Status != protocol.StatusFail {
		return string(v.Status)
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
func component(c *vector.Case) string {
	switch c.Stage {
	case vector.StageScoring:
		return scorerName(c.Input.Scorer)
	case vector.StageSlicing:
		return slicerName(c.Input.Slicer)
	case vector.StagePlacing:
		return c.Input.Placer
	}
	return scorerName(c.Input.Scorer) + " + " + slicerName(c.Input.Slicer) + " + " + c.Input.Placer
}

func scorerName(sc *vector.ScorerConfig) string {
	if sc == nil {
		return "-"
	}
	return sc.Type
}

func slicerName(s *vector.SlicerConfig) string {
	if s == nil {
		return "-"
	}
	if s.Inner != nil {
		return s.Type + "(" + s.Inner.Type + ")"
	}
	return s.Type
}

func (x *explorer) class(c *vector.Case, kind string) string {
	return c.Stage + " / " + component(c) + " / " + kind
}

// found shrinks a new divergence and returns it, or nil when the shrunk
// case falls in a class already found.
func (x *explorer) found(ctx context.Context, c *vector.Case, index int, o outcome, byClass map[string]*Divergence) *Divergence {
	orig := len(c.Input.Items)
	class0 := x.class(c, o.kind)
	x.progress(class0)
	s := &shrinker{x: x, ctx: ctx, kind: o.kind, best: c, out: o, deadline: time.Now().Add(x.opts.ShrinkTime)}
	s.run()
	c, o = s.best, s.out
	class := x.class(c, o.kind)
	// Both the generated class and the shrunk one now point at it.
	if d := byClass[class]; d != nil {
		d.Count++
		byClass[class0] = d
		return nil
	}
	d := &Divergence{Class: class, Stage: c.Stage, Component: component(c), Kind: o.kind,
		Seed: x.opts.Seed, Index: index, OriginalItems: orig, Count: 1, Case: c, Verdict: o.verdict,
		Actual: o.actual, OracleResult: o.oracle, Fault: o.fault, Stderr: o.stderr, OracleFault: o.oracleFault,
		ShrinkRuns: s.runs}
	c.ID = exploreID(c.Stage, x.opts.Seed, index)
	if index < 0 {
		c.ID = "fuzz/" + c.Stage
	}
	byClass[class0], byClass[class] = d, d
	return d
}

// write writes d's vector under Out.
func (x *explorer) write(d *Divergence) error {
	if x.opts.Out == "" || d.OracleFault {
		return nil
	}
	name := vectorName(d)
	rel := filepath.Join(vector.TierOptional, d.Stage, name+".toml")
	path := filepath.Join(x.opts.Out, rel)
	data, err := d.VectorTOML(x.rep)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("explore: --out: %w", err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("explore: --out: %w", err)
	}
	d.File = path
	d.Case.File = filepath.ToSlash(rel)
	d.Case.ID = strings.TrimSuffix(d.Case.File, ".toml")
	return nil
}

// vectorName is the file name (without .toml) of d's vector.
func vectorName(d *Divergence) string {
	var b strings.Builder
	b.WriteString("explore-")
	dash := false
	for _, r := range strings.ToLower(d.Component + "-" + d.Kind) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	if d.Index < 0 {
		return strings.TrimRight(b.String(), "-") + "-fuzz"
	}
	return strings.TrimRight(b.String(), "-") + fmt.Sprintf("-s%d-i%d", d.Seed, d.Index)
}
