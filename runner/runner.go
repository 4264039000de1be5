package runner

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"runtime/debug"
	"slices"
	"sort"
	"time"

	"github.com/cupel-go/go-cupel/vectors"
)

// Version is the runner's version, recorded in every report: the version of
// the go-cupel module it was built from, or "devel".
var Version = moduleVersion()

const modulePath = "github.com/cupel-go/go-cupel"

func moduleVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Path == modulePath && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			return bi.Main.Version
		}
		for _, d := range bi.Deps {
			if d.Path == modulePath {
				return d.Version
			}
		}
	}
	return "devel"
}

// Name is the runner's name in reports and hello messages.
const Name = "cupel-conform"

// ErrUsage is matched by errors in how the runner was asked to run: bad
// filters, a filter that selects nothing, unknown expectation ids.
var ErrUsage = errors.New("usage error")

// Level is a conformance level.
type Level string

// Conformance levels.
const (
	LevelNone            Level = "none"
	LevelConformant      Level = "conformant"
	LevelFullyConformant Level = "fully-conformant"
)

func (l Level) rank() int {
	switch l {
	case LevelConformant:
		return 1
	case LevelFullyConformant:
		return 2
	}
	return 0
}

// AtLeast reports whether l meets the target level.
func (l Level) AtLeast(target Level) bool { return l.rank() >= target.rank() }

// Title is the level as the spec names it.
func (l Level) Title() string {
	switch l {
	case LevelConformant:
		return "Cupel Conformant"
	case LevelFullyConformant:
		return "Cupel Fully Conformant"
	}
	return "not conformant"
}

// ParseLevel parses "conformant" or "fully-conformant" (and "none").
func ParseLevel(s string) (Level, error) {
	switch l := Level(s); l {
	case LevelNone, LevelConformant, LevelFullyConformant:
		return l, nil
	}
	return "", fmt.Errorf("%w: unknown level %q (want conformant or fully-conformant)", ErrUsage, s)
}

// Options configure a run. The zero value runs the embedded suite with
// the default timeout and no filters.
type Options struct {
	// Suite is the suite to run; nil means the embedded suite (vectors.FS).
	Suite fs.FS
	// SuiteName describes the suite in reports ("embedded" by default).
	SuiteName string
	// Run and Skip are regular expressions matched against case ids: only
	// cases matching Run (when set) and not matching Skip (when set) run.
	Run, Skip string
	// Tiers and Stages restrict the run to these tiers and stages.
	Tiers, Stages []string
	// Timeout bounds each case (default 10s).
	Timeout time.Duration
	// StartupTimeout bounds Hello (default 30s).
	StartupTimeout time.Duration
	// Expectations are the known failures; nil means none.
	Expectations *Expectations
	// RequireLevel is the level the run must reach (for Test and
	// Report.ExitCode); "" means only that no result be unexpected.
	RequireLevel Level
	// OnResult, when set, is called after each case (for progress).
	OnResult func(CaseResult)
}

// Filtered reports whether any filter is set.
func (o *Options) Filtered() bool {
	return o.Run != "" || o.Skip != "" || len(o.Tiers) > 0 || len(o.Stages) > 0
}

type selector struct {
	run, skip     *regexp.Regexp
	tiers, stages []string
}

func (o *Options) selector() (*selector, error) {
	s := &selector{tiers: o.Tiers, stages: o.Stages}
	var err error
	if o.Run != "" {
		if s.run, err = regexp.Compile(o.Run); err != nil {
			return nil, fmt.Errorf("%w: --run: %v", ErrUsage, err)
		}
	}
	if o.Skip != "" {
		if s.skip, err = regexp.Compile(o.Skip); err != nil {
			return nil, fmt.Errorf("%w: --skip: %v", ErrUsage, err)
		}
	}
	for _, t := range o.Tiers {
		if !slices.Contains(Tiers, t) {
			return nil, fmt.Errorf("%w: unknown tier %q (want required or optional)", ErrUsage, t)
		}
	}
	for _, st := range o.Stages {
		if !slices.Contains(Stages, st) {
			return nil, fmt.Errorf("%w: unknown stage %q (want scoring, slicing, placing or pipeline)", ErrUsage, st)
		}
	}
	return s, nil
}

func (s *selector) match(id, tier, stage string) bool {
	if s.run != nil && !s.run.MatchString(id) {
		return false
	}
	if s.skip != nil && s.skip.MatchString(id) {
		return false
	}
	if len(s.tiers) > 0 && !slices.Contains(s.tiers, tier) {
		return false
	}
	if len(s.stages) > 0 && !slices.Contains(s.stages, stage) {
		return false
	}
	return true
}

// Select returns the cases of suite that opts' filters select. It fails
// with ErrUsage for an invalid filter or one that selects nothing.
func Select(suite *Suite, opts Options) ([]*Case, error) {
	sel, err := opts.selector()
	if err != nil {
		return nil, err
	}
	var out []*Case
	for _, c := range suite.Cases {
		if sel.match(c.ID, c.Tier, c.Stage) {
			out = append(out, c)
		}
	}
	if len(out) == 0 && opts.Filtered() {
		return nil, fmt.Errorf("%w: the filters select no case", ErrUsage)
	}
	return out, nil
}

// OpenSuite loads opts.Suite, or the embedded suite.
func OpenSuite(opts Options) (*Suite, error) {
	fsys := opts.Suite
	if fsys == nil {
		fsys = vectors.FS
	}
	return LoadSuite(fsys)
}

// Run runs the suite of opts against impl and returns the report. The
// error is for usage errors (ErrUsage) and an unreadable suite; an
// implementation that cannot be run gives a report whose Infrastructure
// field says why (Report.ExitCode is then 3).
func Run(ctx context.Context, impl Implementation, opts Options) (*Report, error) {
	suite, err := OpenSuite(opts)
	if err != nil {
		return nil, err
	}
	return RunSuite(ctx, impl, suite, opts)
}

// RunSuite is Run over an already loaded suite.
func RunSuite(ctx context.Context, impl Implementation, suite *Suite, opts Options) (*Report, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	if opts.StartupTimeout <= 0 {
		opts.StartupTimeout = 30 * time.Second
	}
	sel, err := opts.selector()
	if err != nil {
		return nil, err
	}
	if opts.Expectations != nil {
		if err := opts.Expectations.Check(suite); err != nil {
			return nil, err
		}
	}
	rep := newReport(suite, opts)
	type entry struct {
		c   *Case
		se  *SuiteError
		run bool
	}
	var entries []entry
	for _, c := range suite.Cases {
		entries = append(entries, entry{c: c, run: sel.match(c.ID, c.Tier, c.Stage)})
	}
	for _, se := range suite.Errors {
		entries = append(entries, entry{se: se, run: sel.match(se.ID(), se.Tier(), se.Stage())})
	}
	// Required cases first, then optional, each by id.
	sort.SliceStable(entries, func(i, j int) bool {
		ti, tj := entryTier(entries[i].c, entries[i].se), entryTier(entries[j].c, entries[j].se)
		return tierRank(ti) < tierRank(tj)
	})
	selected := 0
	for _, e := range entries {
		if e.run {
			selected++
		}
	}
	if selected == 0 && opts.Filtered() {
		return nil, fmt.Errorf("%w: the filters select no case", ErrUsage)
	}
	start := time.Now()
	hctx, cancel := context.WithTimeout(ctx, opts.StartupTimeout)
	info, herr := impl.Hello(hctx)
	cancel()
	rep.Implementation = info
	if herr != nil {
		rep.Infrastructure = "implementation failed to start: " + herr.Error()
		var f *Fault
		if errors.As(herr, &f) {
			rep.Infrastructure = "implementation failed to start: " + f.Message
			rep.InfrastructureStderr = f.Stderr
		}
	}
	seq := 0
	for _, e := range entries {
		var cr CaseResult
		switch {
		case e.se != nil:
			cr = CaseResult{ID: e.se.ID(), Tier: e.se.Tier(), Stage: e.se.Stage(), File: e.se.File,
				Status: StatusError, Message: "suite error: " + e.se.Error(), SuiteError: e.se}
			if !e.run {
				cr.Status, cr.Message = StatusSkip, "filtered out"
			}
		case !e.run:
			cr = newCaseResult(e.c)
			cr.Status, cr.Message = StatusSkip, "filtered out"
		case rep.Infrastructure == "" && ctx.Err() != nil:
			rep.Infrastructure = "interrupted: " + ctx.Err().Error()
			cr = newCaseResult(e.c)
			cr.Status, cr.Message = StatusNotRun, "not run: "+rep.Infrastructure
		case rep.Infrastructure != "":
			cr = newCaseResult(e.c)
			cr.Status, cr.Message = StatusNotRun, "not run: "+rep.Infrastructure
		default:
			seq++
			cr = runCase(ctx, impl, e.c, seq, opts.Timeout)
			if cr.infra != nil {
				rep.Infrastructure = cr.infra.Error()
			}
			opts.Expectations.apply(&cr)
		}
		rep.Cases = append(rep.Cases, cr)
		if opts.OnResult != nil && e.run {
			opts.OnResult(cr)
		}
	}
	if r, ok := impl.(interface{ Restarts() int }); ok {
		rep.Restarts = r.Restarts()
	}
	if closer, ok := impl.(interface{ Close() error }); ok {
		_ = closer.Close()
	}
	rep.Duration = Duration(time.Since(start))
	rep.finish()
	return rep, nil
}

func entryTier(c *Case, se *SuiteError) string {
	if c != nil {
		return c.Tier
	}
	return se.Tier()
}

func tierRank(t string) int {
	switch t {
	case TierRequired:
		return 0
	case TierOptional:
		return 1
	}
	return 2
}

func newCaseResult(c *Case) CaseResult {
	return CaseResult{ID: c.ID, Tier: c.Tier, Stage: c.Stage, Name: c.Name, File: c.File}
}

func runCase(ctx context.Context, impl Implementation, c *Case, seq int, timeout time.Duration) (cr CaseResult) {
	cr = newCaseResult(c)
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type answer struct {
		r   Result
		err error
	}
	ch := make(chan answer, 1)
	start := time.Now()
	go func() {
		defer func() {
			if p := recover(); p != nil {
				ch <- answer{err: &Fault{Status: StatusCrash, Message: fmt.Sprintf("panic: %v\n%s", p, debug.Stack())}}
			}
		}()
		r, err := impl.Run(cctx, NewRequest(seq, c))
		ch <- answer{r, err}
	}()
	var a answer
	select {
	case a = <-ch:
	case <-cctx.Done():
		// Give the implementation a moment to report the timeout itself
		// (with its stderr); one that ignores ctx is abandoned.
		grace := time.Second
		if g, ok := impl.(interface{ TimeoutGrace() time.Duration }); ok {
			grace = g.TimeoutGrace()
		}
		select {
		case a = <-ch:
		case <-time.After(grace):
			a.err = &Fault{Status: StatusTimeout, Message: fmt.Sprintf("no result within %s", timeout)}
		}
	}
	cr.Duration = time.Since(start)
	if a.err != nil {
		var f *Fault
		switch {
		case errors.Is(a.err, ErrInfrastructure):
			cr.Status, cr.Message = StatusNotRun, a.err.Error()
			if errors.As(a.err, &f) {
				cr.Message, cr.Stderr = f.Message, f.Stderr
			}
			cr.infra = errors.New(cr.Message)
		case errors.As(a.err, &f):
			cr.Status, cr.Message, cr.Stderr = f.Status, f.Message, f.Stderr
			if f.Err != nil {
				cr.Message += ": " + f.Err.Error()
			}
		case errors.Is(a.err, context.DeadlineExceeded):
			cr.Status, cr.Message = StatusTimeout, fmt.Sprintf("no result within %s", timeout)
		default:
			cr.Status, cr.Message = StatusError, a.err.Error()
		}
		return cr
	}
	v := Compare(c, a.r)
	cr.Status, cr.Message, cr.Details = v.Status, v.Message, v.Details
	if cr.Status != StatusPass {
		if s, ok := impl.(interface{ CaseStderr() string }); ok {
			cr.Stderr = s.CaseStderr()
		}
	}
	r := a.r
	cr.Actual = &r
	return cr
}
