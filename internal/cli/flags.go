package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
)

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

func (c *common) load() (*casefile.Suite, runner.Options, error) {
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
	s, err := casefile.LoadSuite(o.Suite)
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
	require, expectedFailures string
}

// requireLevelHelp is the help of --require-level (run, verify, report
// merge).
const requireLevelHelp = "judge the run against `LEVEL` (conformant or fully-conformant) instead of strictly: see the verdict in run -h"

func (g *gate) register(fs *flag.FlagSet) {
	fs.StringVar(&g.require, "require-level", "", requireLevelHelp)
	fs.StringVar(&g.expectedFailures, "expected-failures", "", "the expected failures file: known failures from `FILE` (strict: an expected failure that passes fails the run)")
	fs.StringVar(&g.expectedFailures, "expectations", "", "the old name of --expected-failures (deprecated)")
}

// filterFlags names the flags that set opts' filters: "--tier",
// "--run and --stage", ...
func filterFlags(opts runner.Options) string {
	var given []string
	for _, f := range []struct {
		name string
		set  bool
	}{{"--run", opts.Run != ""}, {"--skip", opts.Skip != ""}, {"--tier", len(opts.Tiers) > 0}, {"--stage", len(opts.Stages) > 0}} {
		if f.set {
			given = append(given, f.name)
		}
	}
	if len(given) > 1 {
		return strings.Join(given[:len(given)-1], ", ") + " and " + given[len(given)-1]
	}
	return strings.Join(given, "")
}

func (g *gate) apply(opts *runner.Options) error {
	if g.require != "" {
		lvl, err := runner.ParseLevel(g.require)
		if err != nil {
			return err
		}
		if opts.Filtered() {
			// runner.Start refuses it too; say it in the flags' words.
			return usagef("--require-level cannot be combined with %s: a filtered run claims no level", filterFlags(*opts))
		}
		opts.RequireLevel = lvl
	}
	if g.expectedFailures != "" {
		x, err := runner.ReadExpectedFailures(g.expectedFailures)
		if err != nil {
			return err
		}
		opts.ExpectedFailures = x
	}
	return nil
}
