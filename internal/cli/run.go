package cli

import (
	"context"
	"fmt"
	"regexp"
	"runtime"
	"time"

	"github.com/cupel-go/go-cupel/internal/atomicfile"
	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// failedIn returns the ids of the cases that the verdict of the JSON
// report at path gated or warned about: the cases that did not pass.
func failedIn(path string) ([]string, error) {
	rep, err := report.ReadReport(path)
	if err != nil {
		return nil, usagef("--rerun-failed: %v", err)
	}
	var ids []string
	for _, c := range rep.Verdict().Cases {
		if c.Class == runner.ClassGated || c.Class == runner.ClassWarning {
			ids = append(ids, c.ID)
		}
	}
	return ids, nil
}

func (e *env) run(args []string) (int, error) {
	fs := newFlags("run", "run [flags]", e)
	flagsUsage := fs.Usage
	fs.Usage = func() {
		flagsUsage()
		fmt.Fprint(e.stderr, runGate)
	}
	var c common
	c.register(fs)
	var o outputs
	o.register(fs)
	o.registerProgress(fs)
	implCmd := fs.String("impl-cmd", "", "run the implementation `CMD` (a shell command speaking cupel-conform/1) instead of go-cupel in-process")
	execPerCase := fs.Bool("exec-per-case", false, "start one process per case instead of one session")
	var g gate
	g.register(fs)
	writeExp := fs.String("write-expected-failures", "", "write the current failures to `FILE` as expected failures (the run then exits 0 unless it could not run)")
	fs.StringVar(writeExp, "write-expectations", "", "the old name of --write-expected-failures (deprecated)")
	timeout := fs.Duration("timeout", 10*time.Second, "per-case timeout")
	startup := fs.Duration("startup-timeout", 30*time.Second, "timeout for the implementation's hello")
	restarts := fs.Int("restarts", 3, "restarts in a row (without a case completing) allowed after crashes, hangs and protocol errors")
	maxStderr := fs.Int64("max-stderr", protocol.MaxLine, "`BYTES` of stderr one case may write before it is a fault (-1: no limit)")
	parallel := fs.Int("parallel", 0, "run `N` cases at once: N sessions, or N processes with --exec-per-case (default: the number of CPUs with --exec-per-case, else 1)")
	failfast := fs.Bool("failfast", false, "stop at the first gated outcome (the run then claims no level, and fails)")
	var shard shardFlag
	fs.Var(&shard, "shard", shardHelp)
	rerun := fs.String("rerun-failed", "", "run only the cases the verdict of the JSON report `REPORT.json` gated or warned about (as pytest --lf)")
	var many manyFlags
	many.register(fs)
	var gt goTestFlags
	gt.register(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return 0, err
	}
	if err := o.check(); err != nil {
		return 0, err
	}
	if *rerun != "" {
		ids, err := failedIn(*rerun)
		if err != nil {
			return 0, err
		}
		if len(c.run) > 0 {
			return 0, usagef("--rerun-failed selects the cases itself: drop --run")
		}
		if g.require != "" {
			return 0, usagef("--require-level cannot be combined with --rerun-failed: a run of some cases claims no level")
		}
		if len(ids) == 0 {
			fmt.Fprintf(e.stderr, "%s has no failed case: nothing to rerun\n", *rerun)
			return 0, nil
		}
		for _, id := range ids {
			c.run = append(c.run, "^"+regexp.QuoteMeta(id)+"$")
		}
	}
	if *execPerCase && *implCmd == "" && len(many.impls) == 0 {
		return 0, usagef("--exec-per-case needs --impl-cmd")
	}
	if *parallel < 0 {
		return 0, usagef("-parallel %d: want at least 1", *parallel)
	}
	suite, opts, err := c.load()
	if err != nil {
		return 0, err
	}
	if err := g.apply(&opts); err != nil {
		return 0, err
	}
	if err := gt.apply(o, pos, suite, &opts); err != nil {
		return 0, err
	}
	opts.Timeout, opts.StartupTimeout = *timeout, *startup
	opts.FailFast, opts.Parallel = *failfast, *parallel
	opts.Shard = runner.Shard(shard)
	if opts.Parallel == 0 {
		opts.Parallel = 1
		if *execPerCase {
			opts.Parallel = runtime.NumCPU()
		}
	}
	e.warnKeys(suite, opts)
	popts := protocol.ProcessOptions{
		Command: *implCmd, ExecPerCase: *execPerCase, Restarts: restartsOpt(*restarts), MaxStderr: *maxStderr,
		StartupTimeout: *startup, Suite: protocol.HelloSuite{SpecVersion: suite.SpecVersion, Digest: suite.Digest},
	}
	var impl protocol.Implementation = runner.Engine()
	if *implCmd != "" {
		impl = protocol.NewProcess(popts)
	}
	ctx := e.ctx
	if len(many.impls) > 0 {
		return e.runMany(ctx, &many, suite, opts, o, popts, *writeExp)
	}
	rep, err := e.runWithProgress(ctx, impl, suite, opts, o)
	if err != nil {
		return 0, err
	}
	if *rerun != "" {
		rep.Filters.RerunFailed, rep.Filters.RerunCases = *rerun, len(c.run)
	}
	if err := gt.check(rep); err != nil {
		return 0, err
	}
	if err := e.emit(rep, suite, o); err != nil {
		return exitInfrastructure, err
	}
	if *writeExp != "" {
		x := runner.ExpectedFailuresFromReport(rep, opts.ExpectedFailures)
		b, err := x.Marshal()
		if err != nil {
			return exitInfrastructure, err
		}
		if err := atomicfile.WriteBytes(*writeExp, b); err != nil {
			return exitInfrastructure, err
		}
		fmt.Fprintf(e.stderr, "wrote %d expected failures to %s\n", len(x.Entries), *writeExp)
		if code := ExitCode(rep); code == exitInfrastructure {
			return code, nil
		}
		return exitOK, nil
	}
	return ExitCode(rep), nil
}

// runWithProgress runs the suite with progress on stderr (see progress).
func (e *env) runWithProgress(ctx context.Context, impl protocol.Implementation, suite *casefile.Suite, opts runner.Options, o outputs) (*runner.Report, error) {
	total := 0
	if cases, err := runner.Select(suite, opts); err == nil {
		total = len(cases)
		if !opts.Filtered() {
			total += len(suite.Errors)
		}
	}
	p := newProgress(e.stderr, o, total)
	opts.OnResult = p.onResult
	rep, err := runner.RunSuite(ctx, impl, suite, opts)
	p.finish()
	return rep, err
}

// warnKeys warns on stderr about the keys of the selected vectors that
// the loader ignored: a misspelled key leaves a case testing something
// else than its author meant. Only for --suite: the embedded suite is
// linted by its own tests.
func (e *env) warnKeys(suite *casefile.Suite, opts runner.Options) {
	if opts.Suite == nil {
		return
	}
	cases, err := runner.Select(suite, opts)
	if err != nil {
		return
	}
	for _, cs := range cases {
		for _, w := range cs.Warnings {
			fmt.Fprintf(e.stderr, "warning: %s\n", w)
		}
	}
}

func restartsOpt(n int) int {
	if n <= 0 {
		return -1
	}
	return n
}
