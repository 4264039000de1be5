// Package cli implements the cupel-conform command.
package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/cupel-go/go-cupel/internal/offline"
	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/protocol"
	"github.com/cupel-go/go-cupel/runner/vector"
)

const usage = `usage: cupel-conform <command> [flags]

commands:
  run        run the suite (default: the embedded suite against go-cupel in-process)
  adapter    serve go-cupel over the cupel-conform/1 protocol on stdin/stdout
  export     write DIR/cases.jsonl and DIR/manifest.json for an offline run
  verify     judge DIR/results.jsonl against the suite
  diff       compare two JSON reports: cupel-conform diff OLD NEW
  report     render JSON reports side by side (text, --markdown, --json, --html)
  show       print a case as sent and its expected result: cupel-conform show ID
  list       list the cases
  lint       check the vector files (errors with file and line, unknown keys)
  smoke      check an adapter's framing: cupel-conform smoke --impl-cmd CMD
  explore    generate cases, compare with go-cupel, shrink and save divergences
  version    print the runner, protocol and spec versions and the suite digest (also --version)

exit codes: 0 the run passed its gate, 1 it failed (a gated outcome, or
            the level misses --require-level), 2 usage error,
            3 no verdict (infrastructure or protocol error)

Run "cupel-conform <command> -h" for the flags of a command.
`

// Exit codes of cupel-conform.
const (
	exitOK             = 0
	exitFail           = 1
	exitUsage          = 2
	exitInfrastructure = 3
)

// ExitCode renders the run's verdict (runner.Report.Verdict) as the exit
// code: 0 when it passed, 3 when it has no verdict (an infrastructure
// error, or vector files could not be loaded), 1 otherwise.
func ExitCode(rep *runner.Report) int {
	switch v := rep.Verdict(); {
	case v.Passed:
		return exitOK
	case v.Infrastructure:
		return exitInfrastructure
	}
	return exitFail
}

// runGate is what "run -h" says of the verdict and the exit code, after
// the flags: it matches docs/verdicts.md.
const runGate = `
the verdict (docs/verdicts.md in the go-cupel repository,
https://github.com/cupel-go/go-cupel/blob/main/docs/verdicts.md):
  outcomes: pass, fail (fail, error, crash, timeout), unsupported,
            xfail (pinned and failed as pinned), xpass (pinned but passed),
            not run (filtered, or skipped by --failfast)
  no --require-level (strict): fail or unsupported not pinned, in either
            tier, or any xpass, fails the run
  --require-level conformant: a required case that fails or is
            unsupported, pinned or not, or any xpass, fails the run; an
            optional one is a warning and the run still passes
  --require-level fully-conformant: any fail, unsupported or xpass, pinned
            or not, fails the run
  with a target, the run also fails when its level misses the target;
  the level comes from outcomes only (an expectations file never changes it)
  a filtered run claims no level and is judged strictly on the cases it
  ran; a --failfast run that stopped early claims no level and fails

exit codes: 0 the run passed its gate, 1 it failed, 2 usage error,
            3 no verdict (infrastructure or protocol error, or vector files
            that could not be loaded)
`

// verdictCode maps the verdict of a run or an exploration
// (runner.Report.Err, explore.Report.Err) to an exit code.
func verdictCode(err error) int {
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, protocol.ErrInfrastructure):
		return exitInfrastructure
	}
	return exitFail
}

// usageError marks errors that exit with code 2.
type usageError struct{ msg string }

// Error implements error.
func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// env is the process environment of one invocation.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// Main runs cupel-conform with args and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	cmds := map[string]func([]string) (int, error){
		"run": e.run, "adapter": e.adapter, "export": e.export, "verify": e.verify,
		"diff": e.diff, "show": e.show, "list": e.list, "lint": e.lint,
		"smoke": e.smoke, "version": e.version, "explore": e.explore, "report": e.report,
	}
	name := args[0]
	if name == "-h" || name == "--help" || name == "help" {
		fmt.Fprint(stdout, usage)
		return 0
	}
	if name == "--version" || name == "-version" {
		name = "version"
	}
	cmd, ok := cmds[name]
	if !ok && strings.HasPrefix(name, "-") {
		fmt.Fprintf(stderr, "cupel-conform: flag %s before a command\n\n%s", name, usage)
		return exitUsage
	}
	if !ok {
		fmt.Fprintf(stderr, "cupel-conform: unknown command %q\n\n%s", name, usage)
		return exitUsage
	}
	code, err := cmd(args[1:])
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "cupel-conform %s: %v\n", name, err)
		var ue usageError
		switch {
		case errors.As(err, &ue), errors.Is(err, runner.ErrUsage):
			return exitUsage
		case code != 0:
			return code
		default:
			return exitInfrastructure
		}
	}
	return code
}

// listFlag is a repeatable, comma-separated string flag.
type listFlag []string

// String implements flag.Value.
func (l *listFlag) String() string { return strings.Join(*l, ",") }

// Set implements flag.Value: it appends each comma-separated element.
func (l *listFlag) Set(s string) error {
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*l = append(*l, p)
		}
	}
	return nil
}

// patterns is a repeatable regular-expression flag: each use adds one
// (commas are part of a pattern, not separators).
type patterns []string

// String implements flag.Value.
func (p *patterns) String() string { return strings.Join(*p, " ") }

// Set implements flag.Value.
func (p *patterns) Set(s string) error {
	*p = append(*p, s)
	return nil
}

// regexp is the patterns as one regular expression that matches what any
// of them matches.
func (p patterns) regexp() string {
	if len(p) == 1 {
		return p[0]
	}
	parts := make([]string, len(p))
	for i, x := range p {
		parts[i] = "(?:" + x + ")"
	}
	return strings.Join(parts, "|")
}

// common holds the flags shared by the commands that select cases.
type common struct {
	suite         string
	run, skip     patterns
	tiers, stages listFlag
}

func (c *common) register(fs *flag.FlagSet) {
	fs.StringVar(&c.suite, "suite", "", "run the vectors of `DIR` instead of the embedded suite")
	fs.Var(&c.run, "run", "run only cases whose id matches `REGEXP` (repeatable: any of them)")
	fs.Var(&c.skip, "skip", "skip cases whose id matches `REGEXP` (repeatable: any of them)")
	fs.Var(&c.tiers, "tier", "run only this `TIER` (required, optional; repeatable)")
	fs.Var(&c.stages, "stage", "run only this `STAGE` (scoring, slicing, placing, pipeline; repeatable)")
}

func (c *common) options() runner.Options {
	o := runner.Options{Run: c.run.regexp(), Skip: c.skip.regexp(), Tiers: c.tiers, Stages: c.stages}
	if c.suite != "" {
		o.Suite = os.DirFS(c.suite)
		o.SuiteName = c.suite
	}
	return o
}

func (c *common) load() (*vector.Suite, runner.Options, error) {
	o := c.options()
	if c.suite != "" {
		st, err := os.Stat(c.suite)
		if err != nil {
			return nil, o, usagef("--suite: %v", err)
		}
		if !st.IsDir() {
			return nil, o, usagef("--suite: %s is not a directory", c.suite)
		}
	}
	s, err := vector.LoadSuite(o.Suite)
	return s, o, err
}

func newFlags(name, synopsis string, e *env) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	// The flag package would print a bad flag's error and the usage; Main
	// prints the error once, and the usage is for -h (see parse).
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: cupel-conform %s\n", synopsis)
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			fmt.Fprint(e.stderr, "\nflags:\n")
			fs.SetOutput(e.stderr)
			fs.PrintDefaults()
			fs.SetOutput(io.Discard)
		}
	}
	return fs
}

// parse parses flags anywhere among the arguments ("show ID --suite DIR"
// works) and returns the positional arguments; "--" ends the flags.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	usage := fs.Usage
	fs.Usage = func() {}
	defer func() { fs.Usage = usage }()
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				usage()
				return nil, err
			}
			return nil, usagef("%v (cupel-conform %s -h lists the flags)", err, fs.Name())
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// parseNoArgs parses the flags of a command that takes no positional
// arguments and refuses any.
func parseNoArgs(fs *flag.FlagSet, args []string) error {
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected arguments: %s", strings.Join(pos, " "))
	}
	return nil
}

// gate holds the flags that set the verdict's target: a level and known
// failures (run and verify).
type gate struct {
	require, expectations string
}

func (g *gate) register(fs *flag.FlagSet) {
	fs.StringVar(&g.require, "require-level", "", "judge the run against `LEVEL` (conformant or fully-conformant) instead of strictly: see the verdict below")
	fs.StringVar(&g.expectations, "expectations", "", "known failures from `FILE` (strict: an expected failure that passes fails the run)")
}

func (g *gate) apply(opts *runner.Options) error {
	if g.require != "" {
		lvl, err := runner.ParseLevel(g.require)
		if err != nil {
			return err
		}
		if opts.Filtered() {
			// runner.Start refuses it too; say it in the flags' words.
			return usagef("--require-level cannot be combined with --run, --skip, --tier or --stage: a filtered run claims no level")
		}
		opts.RequireLevel = lvl
	}
	if g.expectations != "" {
		x, err := runner.ReadExpectations(g.expectations)
		if err != nil {
			return err
		}
		opts.Expectations = x
	}
	return nil
}

// outputs holds the report destinations of run and verify.
type outputs struct {
	json, junit, tap, markdown, badge string
	saveFailed                        string
	maxFailures                       int
	quiet, verbose                    bool
	color                             colorMode
}

func (o *outputs) register(fs *flag.FlagSet) {
	fs.StringVar(&o.json, "json", "", "write the JSON report (schema "+runner.ReportSchema+") to `FILE` (- for stdout)")
	fs.StringVar(&o.junit, "junit", "", "write a JUnit XML report to `FILE`")
	fs.StringVar(&o.tap, "tap", "", "write a TAP report to `FILE`")
	fs.StringVar(&o.markdown, "markdown", "", "write a Markdown summary to `FILE`")
	fs.StringVar(&o.badge, "badge", "", "write a shields.io endpoint badge JSON to `FILE`")
	fs.StringVar(&o.saveFailed, "save-failed", "", "write request, response, expected result and stderr of each gated case and warning to `DIR`")
	fs.IntVar(&o.maxFailures, "max-failures", report.DefaultMaxFailures, "cap every list of the text report at `N` entries: failures in full, unsupported reasons, unexpected ids (0: no cap)")
	fs.BoolVar(&o.quiet, "quiet", false, "print only the summary (counts, unsupported reasons, unexpected ids, level): no progress, no failure in full")
	fs.BoolVar(&o.verbose, "v", false, "print a line per case on stderr as it finishes (status, time, id)")
	o.color = "auto"
	fs.Var(&o.color, "color", "colour the text: `WHEN` is auto (on a terminal, unless NO_COLOR is set), always or never")
}

func writeFile(path string, stdout io.Writer, write func(io.Writer) error) error {
	if path == "-" {
		return write(stdout)
	}
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return err
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

func (e *env) emit(rep *runner.Report, suite *vector.Suite, o outputs) error {
	textOut := e.stdout
	for _, p := range []string{o.json, o.junit, o.tap, o.markdown, o.badge} {
		if p == "-" {
			textOut = e.stderr
		}
	}
	topts := report.TextOptions{Color: o.color.on(textOut), Suite: suite, MaxFailures: o.maxFailures, Summary: o.quiet}
	if err := report.WriteText(textOut, rep, topts); err != nil {
		return err
	}
	writers := []struct {
		path string
		fn   func(io.Writer) error
	}{
		{o.json, rep.WriteJSON},
		{o.junit, func(w io.Writer) error { return report.WriteJUnit(w, rep, suite) }},
		{o.tap, func(w io.Writer) error { return report.WriteTAP(w, rep, suite) }},
		{o.markdown, func(w io.Writer) error { return report.WriteMarkdown(w, rep) }},
		{o.badge, func(w io.Writer) error { return report.WriteBadge(w, rep) }},
	}
	for _, wr := range writers {
		if wr.path == "" {
			continue
		}
		if err := writeFile(wr.path, e.stdout, wr.fn); err != nil {
			return err
		}
	}
	if o.saveFailed != "" {
		if err := saveFailed(o.saveFailed, rep, suite); err != nil {
			return err
		}
	}
	return nil
}

// writeJSON writes v as indented JSON to path.
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

func saveFailed(dir string, rep *runner.Report, suite *vector.Suite) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	class := rep.Verdict().Classes()
	for _, c := range rep.Cases {
		if k := class[c.ID]; k != runner.ClassGated && k != runner.ClassWarning {
			continue
		}
		base := filepath.Join(dir, strings.ReplaceAll(c.ID, "/", "__"))
		if cs := suite.Case(c.ID); cs != nil {
			if err := writeJSON(base+".request.json", protocol.RunMessage{Type: protocol.TypeRun, Request: protocol.NewRequest(1, cs)}); err != nil {
				return err
			}
			if err := writeJSON(base+".expected.json", cs.Expect); err != nil {
				return err
			}
		}
		resp := struct {
			Status  protocol.Status  `json:"status"`
			Message string           `json:"message,omitempty"`
			Details []string         `json:"details,omitempty"`
			Actual  *protocol.Result `json:"actual,omitempty"`
		}{c.Status, c.Message, c.Details, c.Actual}
		if err := writeJSON(base+".response.json", resp); err != nil {
			return err
		}
		if c.Stderr != "" {
			if err := os.WriteFile(base+".stderr.txt", []byte(c.Stderr), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

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
	implCmd := fs.String("impl-cmd", "", "run the implementation `CMD` (a shell command speaking cupel-conform/1) instead of go-cupel in-process")
	execPerCase := fs.Bool("exec-per-case", false, "start one process per case instead of one session")
	var g gate
	g.register(fs)
	writeExp := fs.String("write-expectations", "", "write the current failures to `FILE` as expectations (the run then exits 0 unless it could not run)")
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
	if err := parseNoArgs(fs, args); err != nil {
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
	ctx, cancel := signalContext()
	defer cancel()
	if len(many.impls) > 0 {
		return e.runMany(ctx, &many, suite, opts, o, popts, *writeExp)
	}
	rep, err := e.runWithProgress(ctx, impl, suite, opts, o)
	if err != nil {
		return 0, err
	}
	if err := e.emit(rep, suite, o); err != nil {
		return exitInfrastructure, err
	}
	if err := many.writeHTML(e, rep, suite); err != nil {
		return exitInfrastructure, err
	}
	if *writeExp != "" {
		x := runner.ExpectationsFromReport(rep, opts.Expectations)
		b, err := x.Marshal()
		if err != nil {
			return exitInfrastructure, err
		}
		if err := os.WriteFile(*writeExp, b, 0o644); err != nil {
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
func (e *env) runWithProgress(ctx context.Context, impl protocol.Implementation, suite *vector.Suite, opts runner.Options, o outputs) (*runner.Report, error) {
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
func (e *env) warnKeys(suite *vector.Suite, opts runner.Options) {
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

func (e *env) adapter(args []string) (int, error) {
	fs := newFlags("adapter", "adapter", e)
	if err := parseNoArgs(fs, args); err != nil {
		return 0, err
	}
	ctx, cancel := signalContext()
	defer cancel()
	if err := protocol.Serve(ctx, runner.Engine(), e.stdin, e.stdout); err != nil {
		return exitInfrastructure, err
	}
	return 0, nil
}

func (e *env) export(args []string) (int, error) {
	fs := newFlags("export", "export [flags] DIR", e)
	var c common
	c.register(fs)
	args, err := parse(fs, args)
	if err != nil {
		return 0, err
	}
	if len(args) != 1 {
		return 0, usagef("export needs one DIR")
	}
	suite, opts, err := c.load()
	if err != nil {
		return 0, err
	}
	cases, err := runner.Select(suite, opts)
	if err != nil {
		return 0, err
	}
	if err := offline.Export(suite, cases, args[0]); err != nil {
		return exitInfrastructure, err
	}
	fmt.Fprintf(e.stdout, "exported %d cases to %s (suite %s)\n", len(cases), args[0], suite.Digest)
	for _, se := range suite.Errors {
		fmt.Fprintf(e.stderr, "suite error (not exported): %v\n", se)
	}
	return 0, nil
}

func (e *env) verify(args []string) (int, error) {
	fs := newFlags("verify", "verify [flags] DIR", e)
	var c common
	c.register(fs)
	var o outputs
	o.register(fs)
	results := fs.String("results", "", "read results from `FILE` (default DIR/results.jsonl)")
	var g gate
	g.register(fs)
	args, err := parse(fs, args)
	if err != nil {
		return 0, err
	}
	if len(args) != 1 {
		return 0, usagef("verify needs one DIR (holding manifest.json and results.jsonl)")
	}
	dir := args[0]
	suite, opts, err := c.load()
	if err != nil {
		return 0, err
	}
	if err := g.apply(&opts); err != nil {
		return 0, err
	}
	m, err := offline.ReadManifest(dir)
	if err != nil {
		return exitInfrastructure, err
	}
	if m.Suite.Digest != suite.Digest {
		return exitInfrastructure, fmt.Errorf("the cases in %s were exported from suite %s, but this suite is %s", dir, m.Suite.Digest, suite.Digest)
	}
	rpath := *results
	if rpath == "" {
		rpath = filepath.Join(dir, offline.ResultsFile)
	}
	f, err := os.Open(rpath)
	if err != nil {
		return exitInfrastructure, err
	}
	defer f.Close()
	res, err := offline.ReadResults(f)
	if err != nil {
		return exitInfrastructure, err
	}
	cases, err := runner.Select(suite, opts)
	if err != nil {
		return 0, err
	}
	if err := res.Check(cases, suite.Digest); err != nil {
		return exitInfrastructure, err
	}
	rep, err := e.runWithProgress(context.Background(), res, suite, opts, o)
	if err != nil {
		return 0, err
	}
	if err := e.emit(rep, suite, o); err != nil {
		return exitInfrastructure, err
	}
	return ExitCode(rep), nil
}

func (e *env) diff(args []string) (int, error) {
	fs := newFlags("diff", "diff [--max-failures N] OLD.json NEW.json\n\n"+
		"Compares two JSON reports case by case. A case that failed as expected (xfail)\n"+
		"and is now reported without its expectation, or back, is not a change.\n\n"+
		"Exit codes: 1 when a case that passed in OLD does not pass in NEW, 0 otherwise\n"+
		"(also when cases newly pass, change or are added or removed), 2 usage error,\n"+
		"3 when a report cannot be read.", e)
	maxFailures := fs.Int("max-failures", 30, "cap every list at `N` entries (0: no cap)")
	args, err := parse(fs, args)
	if err != nil {
		return 0, err
	}
	if len(args) != 2 {
		return 0, usagef("diff needs OLD and NEW reports")
	}
	old, err := report.ReadReport(args[0])
	if err != nil {
		return exitInfrastructure, err
	}
	nw, err := report.ReadReport(args[1])
	if err != nil {
		return exitInfrastructure, err
	}
	d := report.Diff(old, nw)
	if err := report.WriteDiff(e.stdout, d, *maxFailures); err != nil {
		return exitInfrastructure, err
	}
	if len(d.NewlyFailing) > 0 {
		return exitFail, nil
	}
	return 0, nil
}

func (e *env) show(args []string) (int, error) {
	fs := newFlags("show", "show [--suite DIR] ID", e)
	var c common
	fs.StringVar(&c.suite, "suite", "", "read the vectors of `DIR`")
	args, err := parse(fs, args)
	if err != nil {
		return 0, err
	}
	if len(args) != 1 {
		return 0, usagef("show needs one case id")
	}
	suite, _, err := c.load()
	if err != nil {
		return 0, err
	}
	id := strings.TrimSuffix(args[0], ".toml")
	cs := suite.Case(id)
	if cs == nil {
		for _, se := range suite.Errors {
			if se.ID() == id {
				fmt.Fprintf(e.stdout, "%s\n", se)
				return exitInfrastructure, nil
			}
		}
		return 0, usagef("no case %q (see cupel-conform list)", id)
	}
	fmt.Fprintf(e.stdout, "# %s — %s\n# tier %s, stage %s, file %s\n\n## sent to the implementation\n", cs.ID, cs.Name, cs.Tier, cs.Stage, cs.File)
	req, err := json.MarshalIndent(protocol.RunMessage{Type: protocol.TypeRun, Request: protocol.NewRequest(1, cs)}, "", "  ")
	if err != nil {
		return exitInfrastructure, fmt.Errorf("%s: %w", cs.ID, err)
	}
	fmt.Fprintf(e.stdout, "%s\n\n## expected (never sent)\n", req)
	exp, err := json.MarshalIndent(cs.Expect, "", "  ")
	if err != nil {
		return exitInfrastructure, fmt.Errorf("%s: %w", cs.ID, err)
	}
	fmt.Fprintf(e.stdout, "%s\n", exp)
	if len(cs.UnknownKeys) > 0 {
		fmt.Fprintf(e.stdout, "\n## ignored keys\n%s\n", strings.Join(cs.UnknownKeys, "\n"))
	}
	return 0, nil
}

func (e *env) list(args []string) (int, error) {
	fs := newFlags("list", "list [flags]", e)
	var c common
	c.register(fs)
	asJSON := fs.Bool("json", false, "print JSON lines")
	if err := parseNoArgs(fs, args); err != nil {
		return 0, err
	}
	suite, opts, err := c.load()
	if err != nil {
		return 0, err
	}
	cases, err := runner.Select(suite, opts)
	if err != nil {
		return 0, err
	}
	for _, cs := range cases {
		if *asJSON {
			b, err := json.Marshal(map[string]string{"id": cs.ID, "tier": cs.Tier, "stage": cs.Stage, "name": cs.Name})
			if err != nil {
				return exitInfrastructure, err
			}
			fmt.Fprintf(e.stdout, "%s\n", b)
			continue
		}
		fmt.Fprintf(e.stdout, "%-60s %s\n", cs.ID, cs.Name)
	}
	if !*asJSON {
		fmt.Fprintf(e.stderr, "%d cases\n", len(cases))
	}
	return 0, nil
}

func (e *env) lint(args []string) (int, error) {
	fs := newFlags("lint", "lint [--suite DIR] [--unknown-keys] [--strict]", e)
	var c common
	fs.StringVar(&c.suite, "suite", "", "lint the vectors of `DIR`")
	unknown := fs.Bool("unknown-keys", false, "list the keys the loader ignores, with their lines and a likely spelling")
	strict := fs.Bool("strict", false, "a key the loader ignores is an error (exit 1), listed with its line and a likely spelling")
	if err := parseNoArgs(fs, args); err != nil {
		return 0, err
	}
	suite, _, err := c.load()
	if err != nil {
		return 0, err
	}
	nUnknown := 0
	for _, se := range suite.Errors {
		fmt.Fprintf(e.stdout, "%s\n", se)
		for _, w := range se.Warnings {
			nUnknown++
			if *unknown || *strict {
				fmt.Fprintf(e.stdout, "%s\n", w)
			}
		}
	}
	for _, cs := range suite.Cases {
		for _, w := range cs.Warnings {
			nUnknown++
			if *unknown || *strict {
				fmt.Fprintf(e.stdout, "%s\n", w)
			}
		}
	}
	fmt.Fprintf(e.stderr, "%d files, %d errors, %d ignored keys\n", len(suite.Cases)+len(suite.Errors), len(suite.Errors), nUnknown)
	if len(suite.Errors) > 0 || (*strict && nUnknown > 0) {
		return exitFail, nil
	}
	return 0, nil
}

func (e *env) version(args []string) (int, error) {
	fs := newFlags("version", "version", e)
	if err := parseNoArgs(fs, args); err != nil {
		return 0, err
	}
	suite, err := vector.LoadSuite(nil)
	if err != nil {
		return exitInfrastructure, err
	}
	fmt.Fprintf(e.stdout, "%s %s\nprotocol %s\nspec %s\nembedded suite %d cases, sha256 %s\n",
		protocol.Name, protocol.Version, protocol.Protocol, vector.SpecVersion, len(suite.Cases)+len(suite.Errors), suite.Digest)
	return 0, nil
}
