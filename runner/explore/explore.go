package explore

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cupel-go/go-cupel/internal/atomicfile"
	"github.com/cupel-go/go-cupel/internal/bound"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

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
		if !slices.Contains(casefile.Stages, st) {
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
	rep := &Report{Schema: ReportSchema, Seed: opts.Seed, Shard: opts.Shard, requirements: opts.Requirements}
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

// runCase runs generated case (seed, index) on both sides and counts it;
// a divergence of a new class is shrunk, written and added to the report.
// It returns the divergence the case fell in (nil when both sides agree).
// The error is an unwritable Out; x.infra is set when no verdict can be
// reached.
func (x *explorer) runCase(ctx context.Context, c *casefile.Case, index int) (*Divergence, error) {
	o, diverged := x.checkCounted(ctx, c)
	if !diverged {
		return nil, nil
	}
	class := x.class(c, o.kind)
	if d := x.byClass[class]; d != nil {
		d.Count++
		return d, nil
	}
	d, class0 := x.shrink(ctx, c, index, o)
	if old := x.known(d, class0); old != nil { // shrunk into a class already found
		return old, nil
	}
	return d, x.record(d)
}

// checkCounted runs c on both sides and counts it as run or skipped; it
// reports whether the two diverge. It counts nothing when no verdict can
// be reached (x.infra).
func (x *explorer) checkCounted(ctx context.Context, c *casefile.Case) (outcome, bool) {
	o := x.check(ctx, c)
	if x.infra != nil {
		return o, false
	}
	if o.skip {
		x.rep.Skipped++
	} else {
		x.rep.Cases++
	}
	return o, o.kind != ""
}

// shrink shrinks the divergence o of case c (generated at index, or -1
// for a fuzzer's input) and returns it, with the class c showed before
// shrinking.
func (x *explorer) shrink(ctx context.Context, c *casefile.Case, index int, o outcome) (*Divergence, string) {
	orig := len(c.Input.Items)
	class0 := x.class(c, o.kind)
	x.progress(class0)
	s := &shrinker{x: x, ctx: ctx, kind: o.kind, best: c, out: o, deadline: time.Now().Add(x.opts.ShrinkTime)}
	s.run()
	c, o = s.best, s.out
	// What a divergence keeps of the implementation's answer is cut as a
	// run's case result is (package bound).
	verdict := o.verdict
	verdict.Message, verdict.Details = bound.Text(verdict.Message), bound.Lines(verdict.Details)
	d := &Divergence{Class: x.class(c, o.kind), Stage: c.Stage, Component: component(c), Kind: o.kind,
		Seed: x.opts.Seed, Index: index, OriginalItems: orig, Count: 1, Case: c, Comparison: verdict,
		Actual: o.actual(), OracleResult: o.oracle(), Fault: bound.Text(o.fault), Stderr: bound.Text(o.stderr), OracleFault: o.oracleFault,
		ShrinkRuns: s.runs}
	if d.Actual != nil {
		kept, cut := d.Actual.Kept()
		d.Actual, d.ActualCut = &kept, cut
	}
	c.ID = exploreID(c.Stage, x.opts.Seed, index)
	if index < 0 {
		c.ID = "fuzz/" + c.Stage
	}
	return d, class0
}

// known returns the divergence already found in d's class, counting d in
// it, or nil when d's class is new. Either way, class0 (the class of d's
// case before shrinking) then finds the divergence of d's class.
func (x *explorer) known(d *Divergence, class0 string) *Divergence {
	if old := x.byClass[d.Class]; old != nil {
		old.Count++
		x.byClass[class0] = old
		return old
	}
	x.byClass[class0], x.byClass[d.Class] = d, d
	return nil
}

// record writes the vector of d, a divergence of a new class, and adds it
// to the report.
func (x *explorer) record(d *Divergence) error {
	if err := x.write(d); err != nil {
		return err
	}
	x.rep.Divergences = append(x.rep.Divergences, d)
	x.progress("")
	return nil
}

// write writes d's vector under Out.
func (x *explorer) write(d *Divergence) error {
	if x.opts.Out == "" || d.OracleFault {
		return nil
	}
	name := vectorName(d)
	rel := filepath.Join(casefile.TierOptional, d.Stage, name+".toml")
	path := filepath.Join(x.opts.Out, rel)
	data, err := d.VectorTOML(x.rep)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteBytes(path, data); err != nil {
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
		return strings.TrimRight(b.String(), "-") + "-fuzz-" + d.Input
	}
	return strings.TrimRight(b.String(), "-") + fmt.Sprintf("-s%d-i%d", d.Seed, d.Index)
}
