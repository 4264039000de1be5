package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/cupel-go/go-cupel/internal/bound"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// SuiteFile is one file of a suite as a run sees it: a loaded case or a file
// that could not be loaded, and whether the options select it.
type SuiteFile struct {
	// ID, Tier and Stage identify the file (for a suite error, from its
	// path).
	ID, Tier, Stage string
	// Case is the loaded case; nil for a suite error.
	Case *casefile.Case
	// SuiteError is the file's load error; nil for a case.
	SuiteError *casefile.SuiteError
	// Selected is false when the options' filters leave the file out.
	Selected bool

	index int
}

// plan lists the files of suite in run order (required first, then
// optional, each by id) with the options' selection. It is the one place
// that applies filters: it fails with ErrUsage for an invalid filter or one
// that selects nothing.
func plan(suite *casefile.Suite, opts Options) ([]SuiteFile, error) {
	sel, err := opts.selector()
	if err != nil {
		return nil, err
	}
	var files []SuiteFile
	for _, c := range suite.Cases {
		files = append(files, SuiteFile{ID: c.ID, Tier: c.Tier, Stage: c.Stage, Case: c, Selected: sel.match(c.ID, c.Tier, c.Stage)})
	}
	for _, se := range suite.Errors {
		files = append(files, SuiteFile{ID: se.ID(), Tier: se.Tier(), Stage: se.Stage(), SuiteError: se, Selected: sel.match(se.ID(), se.Tier(), se.Stage())})
	}
	sort.SliceStable(files, func(i, j int) bool { return tierRank(files[i].Tier) < tierRank(files[j].Tier) })
	selected := 0
	for i := range files {
		files[i].index = i
		files[i].Selected = files[i].Selected && opts.Shard.Owns(i)
		if files[i].Selected {
			selected++
		}
	}
	if selected == 0 && opts.Filtered() {
		return nil, fmt.Errorf("%w: the filters select no case", ErrUsage)
	}
	return files, nil
}

// Select returns the loaded cases of suite that opts' filters select, in
// run order. It fails with ErrUsage for an invalid filter or one that
// selects nothing.
func Select(suite *casefile.Suite, opts Options) ([]*casefile.Case, error) {
	files, err := plan(suite, opts)
	if err != nil {
		return nil, err
	}
	var out []*casefile.Case
	for _, e := range files {
		if e.Selected && e.Case != nil {
			out = append(out, e.Case)
		}
	}
	return out, nil
}

// Run runs the suite of opts against impl and returns the report. The
// error is for usage errors (ErrUsage) and an unreadable suite; an
// implementation that cannot be run gives a report whose Infrastructure
// field says why. [Report.Err] is the verdict.
func Run(ctx context.Context, impl Implementation, opts Options) (*Report, error) {
	suite, err := casefile.LoadSuite(opts.Suite)
	if err != nil {
		return nil, err
	}
	return RunSuite(ctx, impl, suite, opts)
}

// RunSuite is Run over an already loaded suite (opts.Suite is then only
// used to name the suite in the report).
func RunSuite(ctx context.Context, impl Implementation, suite *casefile.Suite, opts Options) (*Report, error) {
	x, err := Start(ctx, impl, suite, opts)
	if err != nil {
		return nil, err
	}
	forker, ok := impl.(protocol.Forker)
	if opts.Parallel <= 1 || !ok || x.Infrastructure() != "" {
		for _, e := range x.Files() {
			x.RunFile(ctx, e)
		}
		return x.Finish(), nil
	}
	x.runParallel(ctx, forker, opts.Parallel)
	return x.Finish(), nil
}

// runParallel runs the files on n workers: the implementation itself and
// n-1 forks of it, each started with its own Hello.
func (x *Execution) runParallel(ctx context.Context, forker protocol.Forker, n int) {
	impls := []Implementation{x.impl}
	var wg sync.WaitGroup
	forks := make([]Implementation, n-1)
	errs := make([]error, n-1)
	for i := range forks {
		forks[i] = forker.Fork()
		wg.Add(1)
		go func() {
			defer wg.Done()
			hctx, cancel := context.WithTimeout(ctx, x.opts.StartupTimeout)
			defer cancel()
			_, errs[i] = protocol.CallHello(hctx, forks[i])
		}()
	}
	wg.Wait()
	for i, f := range forks {
		switch {
		case errs[i] != nil && ctx.Err() != nil:
			x.setInfrastructure(interrupted(ctx))
		case errs[i] != nil:
			x.setInfrastructure(bound.Text(fmt.Sprintf("parallel worker %d failed to start: %v", i+2, errs[i])))
		}
		impls = append(impls, f)
		x.extra = append(x.extra, f)
	}
	files := make(chan SuiteFile)
	for _, impl := range impls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			seq := 0
			for e := range files {
				x.runFile(ctx, impl, &seq, e)
			}
		}()
	}
	for _, e := range x.files {
		files <- e
	}
	close(files)
	wg.Wait()
}

// Check runs the suite of opts against impl, in the manner of
// testing/fstest.TestFS, and returns nil when the run meets its target
// (see [Report.Err]), or an error that lists what went wrong.
func Check(impl Implementation, opts Options) error {
	rep, err := Run(context.Background(), impl, opts)
	if err != nil {
		return err
	}
	return rep.Err()
}

// An Execution is a run in progress, stepped one file at a time: the
// go test front end (package conformtest) runs each file inside its own
// subtest with it. Run and RunSuite are Start, RunFile for every file,
// then Finish. An Execution is not safe for concurrent use.
type Execution struct {
	impl    Implementation
	extra   []Implementation // the forks of a parallel run
	opts    Options
	rep     *Report
	files   []SuiteFile
	results []*CaseResult
	seq     int
	start   time.Time

	mu      sync.Mutex // guards rep, results and stopped in a parallel run
	stopped bool       // FailFast met a gated outcome
}

// setInfrastructure records the first reason the run stopped.
func (x *Execution) setInfrastructure(why string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.rep.Infrastructure == "" {
		x.rep.Infrastructure = why
	}
}

// Start validates opts against suite, says hello to impl and returns the
// Execution. The error is for usage errors (ErrUsage): invalid filters, a
// filter that selects nothing, RequireLevel together with filters, and
// expected failures naming unknown cases. An implementation that fails to start
// is not an error: every case is then "not run" and the report's
// Infrastructure says why.
func Start(ctx context.Context, impl Implementation, suite *casefile.Suite, opts Options) (*Execution, error) {
	if impl == nil {
		return nil, fmt.Errorf("%w: the Implementation is nil", ErrUsage)
	}
	if suite == nil {
		return nil, fmt.Errorf("%w: the Suite is nil", ErrUsage)
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	if opts.StartupTimeout <= 0 {
		opts.StartupTimeout = 30 * time.Second
	}
	if err := opts.Shard.Validate(); err != nil {
		return nil, err
	}
	if err := checkTarget(opts.RequireLevel, opts.Filtered(), opts.Shard); err != nil {
		return nil, err
	}
	files, err := plan(suite, opts)
	if err != nil {
		return nil, err
	}
	if opts.ExpectedFailures != nil {
		if err := opts.ExpectedFailures.Check(suite); err != nil {
			return nil, err
		}
	}
	cat, err := catalogueOf(opts)
	if err != nil {
		return nil, err
	}
	x := &Execution{impl: impl, opts: opts, rep: newReport(suite, opts), files: files,
		results: make([]*CaseResult, len(files)), start: time.Now()}
	x.rep.catalogue = cat
	hctx, cancel := context.WithTimeout(ctx, opts.StartupTimeout)
	info, herr := protocol.CallHello(hctx, impl)
	cancel()
	x.rep.Implementation = info
	if herr != nil {
		x.rep.Infrastructure = bound.Text("implementation failed to start: " + herr.Error())
		var f *protocol.Fault
		if errors.As(herr, &f) {
			x.rep.Infrastructure = bound.Text("implementation failed to start: " + f.Message)
			x.rep.InfrastructureStderr = bound.Text(f.Stderr)
		}
	}
	if herr != nil && ctx.Err() != nil {
		// Stopped while it started (a signal): no failure to start.
		x.rep.Infrastructure, x.rep.InfrastructureStderr = interrupted(ctx), ""
	}
	return x, nil
}

// notRunMessage is the message of the cases not run after an
// infrastructure error: the report says why once (Report.Infrastructure),
// not once a case.
const notRunMessage = "the run stopped without a verdict (see the infrastructure error)"

// Infrastructure says why the run stopped without a verdict (the
// implementation failed to start, a restart budget ran out, ctx was done),
// or is "" while it goes on. Every file run after that is "not run".
func (x *Execution) Infrastructure() string {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.rep.Infrastructure
}

// InfrastructureStderr is the implementation's stderr tail when it failed
// to start (see Infrastructure), or "".
func (x *Execution) InfrastructureStderr() string {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.rep.InfrastructureStderr
}

// Files returns the files of the run, in run order.
func (x *Execution) Files() []SuiteFile { return slices.Clone(x.files) }

// RunFile runs e (one of Files) and records its result: a suite error
// is an error, a file the filters leave out is skipped, and after an
// infrastructure error or with ctx done the case is not run.
func (x *Execution) RunFile(ctx context.Context, e SuiteFile) CaseResult {
	return x.runFile(ctx, x.impl, &x.seq, e)
}

// runFile is RunFile on impl (the implementation or one of its forks),
// whose sequence numbers are counted in seq.
func (x *Execution) runFile(ctx context.Context, impl Implementation, seq *int, e SuiteFile) CaseResult {
	x.mu.Lock()
	var cr CaseResult
	run := false
	switch {
	case !x.owns(e):
		x.mu.Unlock()
		return foreign(e)
	case !e.Selected && !x.opts.Shard.Owns(e.index):
		x.mu.Unlock()
		return x.Skip(e, "in another shard than "+x.opts.Shard.String())
	case !e.Selected:
		x.mu.Unlock()
		return x.Skip(e, "filtered out")
	case x.stopped:
		x.mu.Unlock()
		return x.Skip(e, "not run: the run stopped at its first gated outcome (fail fast)")
	case e.SuiteError != nil:
		cr = CaseResult{ID: e.ID, Tier: e.Tier, Stage: e.Stage, File: e.SuiteError.File,
			Outcome: protocol.OutcomeError, Message: "suite error: " + e.SuiteError.Error(), SuiteError: e.SuiteError}
	case x.rep.Infrastructure == "" && ctx.Err() != nil:
		x.rep.Infrastructure = interrupted(ctx)
		cr = newCaseResult(e.Case)
		cr.Outcome, cr.Message = protocol.OutcomeNotRun, notRunMessage
	case x.rep.Infrastructure != "":
		cr = newCaseResult(e.Case)
		cr.Outcome, cr.Message = protocol.OutcomeNotRun, notRunMessage
	default:
		run = true
	}
	x.mu.Unlock()
	if run {
		*seq++
		cr = runCase(ctx, impl, e.Case, *seq, x.opts.Timeout)
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if run {
		if cr.infra != nil && x.rep.Infrastructure == "" {
			x.rep.Infrastructure = bound.Text(cr.infra.Error())
		}
		x.opts.ExpectedFailures.apply(&cr)
	}
	x.record(e, cr)
	if x.opts.FailFast && cr.SuiteError == nil && Classify(cr, x.opts.RequireLevel) == ClassGated {
		x.stopped = true
	}
	if x.opts.OnResult != nil {
		x.opts.OnResult(cr)
	}
	return cr
}

// Skip records e as skipped (not run) with the reason why. A run with a
// skipped file is filtered and claims no level.
func (x *Execution) Skip(e SuiteFile, why string) CaseResult {
	if !x.owns(e) {
		return foreign(e)
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.skip(e, why)
}

func (x *Execution) skip(e SuiteFile, why string) CaseResult {
	cr := CaseResult{ID: e.ID, Tier: e.Tier, Stage: e.Stage, Outcome: protocol.OutcomeSkip, Message: why}
	if e.Case != nil {
		cr = newCaseResult(e.Case)
		cr.Outcome, cr.Message = protocol.OutcomeSkip, why
	} else if e.SuiteError != nil {
		cr.File, cr.SuiteError = e.SuiteError.File, e.SuiteError
	}
	x.record(e, cr)
	return cr
}

// owns reports whether e is one of x's files.
func (x *Execution) owns(e SuiteFile) bool {
	return e.index >= 0 && e.index < len(x.files) && x.files[e.index].ID == e.ID
}

// foreign is the result of a file that is not one of the Execution's:
// an error, recorded nowhere.
func foreign(e SuiteFile) CaseResult {
	return CaseResult{ID: e.ID, Tier: e.Tier, Stage: e.Stage, Outcome: protocol.OutcomeError,
		Message: fmt.Sprintf("runner: %q is not a file of this Execution (take them from its Files)", e.ID)}
}

func (x *Execution) record(e SuiteFile, cr CaseResult) { x.results[e.index] = &cr }

// Finish ends the run: it closes the implementation if it is an
// [io.Closer], records files never run or skipped as skipped, and
// returns the report with its counts and level. Call it once, last.
func (x *Execution) Finish() *Report {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.rep.Restarts = 0
	for _, impl := range append([]Implementation{x.impl}, x.extra...) {
		if r, ok := impl.(protocol.RestartCounter); ok {
			x.rep.Restarts += r.Restarts()
		}
		if closer, ok := impl.(io.Closer); ok {
			_ = closer.Close()
		}
	}
	for i, e := range x.files {
		if x.results[i] == nil {
			x.skip(e, "not run")
		}
	}
	x.rep.Cases = x.rep.Cases[:0]
	for _, cr := range x.results {
		x.rep.Cases = append(x.rep.Cases, *cr)
	}
	x.rep.Duration = Seconds(time.Since(x.start))
	x.rep.StoppedEarly = x.stopped
	x.rep.finish()
	return x.rep
}

func tierRank(t string) int {
	switch t {
	case casefile.TierRequired:
		return 0
	case casefile.TierOptional:
		return 1
	}
	return 2
}

func newCaseResult(c *casefile.Case) CaseResult {
	return CaseResult{ID: c.ID, Tier: c.Tier, Stage: c.Stage, Name: c.Name, File: c.File, Requirements: bound.List(c.Covers)}
}

// runCase runs c on impl and judges the result. It is where a run first
// stores what the implementation said: every text of the case result is
// cut as package bound cuts it (see [protocol.Result.Kept]).
func runCase(ctx context.Context, impl Implementation, c *casefile.Case, seq int, timeout time.Duration) (cr CaseResult) {
	cr = newCaseResult(c)
	defer func() {
		cr.Message, cr.Stderr, cr.Details = bound.Text(cr.Message), bound.Text(cr.Stderr), bound.Lines(cr.Details)
	}()
	start := time.Now()
	r, err := protocol.Call(ctx, impl, protocol.NewRequest(seq, c), timeout)
	cr.Duration = Seconds(time.Since(start))
	if err != nil && ctx.Err() != nil {
		// The run was stopped (a signal), not the case: what the
		// implementation did after that is no outcome.
		why := interrupted(ctx)
		cr.Outcome, cr.Message, cr.infra = protocol.OutcomeNotRun, "not run: "+why, errors.New(why)
		return cr
	}
	if err != nil {
		var f *protocol.Fault
		switch {
		case errors.Is(err, protocol.ErrInfrastructure):
			cr.Outcome, cr.Message = protocol.OutcomeNotRun, err.Error()
			if errors.As(err, &f) {
				cr.Message, cr.Stderr = f.Message, f.Stderr
			}
			cr.infra = errors.New(cr.Message)
		case errors.As(err, &f):
			cr.Outcome, cr.Message, cr.Stderr, cr.Line = f.Outcome, f.Message, f.Stderr, f.Line
			if f.Err != nil {
				cr.Message += ": " + f.Err.Error()
			}
		case errors.Is(err, context.DeadlineExceeded):
			cr.Outcome, cr.Message = protocol.OutcomeTimeout, protocol.TimeoutMessage(timeout)
		default:
			cr.Outcome, cr.Message = protocol.OutcomeError, err.Error()
		}
		return cr
	}
	v := Compare(c, r)
	cr.Outcome, cr.Message, cr.Details = v.Outcome, v.Message, v.Details
	if cr.Outcome != protocol.OutcomePass {
		if s, ok := impl.(protocol.StderrReporter); ok {
			cr.Stderr = s.CaseStderr()
		}
		if l, ok := impl.(protocol.LineReporter); ok {
			cr.Line = l.CaseLine()
		}
	}
	kept, cut := r.Kept()
	cr.Actual, cr.ActualCut = &kept, cut
	return cr
}

// interrupted says why a run stopped when ctx is done: "interrupted: "
// and the cause (cupel-conform's is "received SIGTERM" and the like).
func interrupted(ctx context.Context) string {
	return "interrupted: " + context.Cause(ctx).Error()
}

func newReport(s *casefile.Suite, opts Options) *Report {
	src := opts.SuiteName
	if src == "" {
		src = "embedded"
		if opts.Suite != nil {
			src = "custom"
		}
	}
	return &Report{
		Schema:       ReportSchema,
		Runner:       protocol.RunnerIdentity{Name: protocol.Name, Version: protocol.Version},
		Suite:        SuiteIdentity{Source: src, SpecVersion: s.SpecVersion, Digest: s.Digest, Cases: len(s.Cases) + len(s.Errors)},
		Filters:      Filters{Run: opts.Run, Skip: opts.Skip, Tiers: opts.Tiers, Stages: opts.Stages},
		RequireLevel: opts.RequireLevel,
		Shard:        opts.Shard,
		Started:      time.Now().UTC(),
	}
}
