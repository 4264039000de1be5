package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cupel-go/go-cupel/internal/offline"
	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

func (e *env) adapter(args []string) (int, error) {
	fs := newFlags("adapter", "adapter", e)
	if err := parseNoArgs(fs, args); err != nil {
		return 0, err
	}
	if err := protocol.Serve(e.ctx, runner.Engine(), e.stdin, e.stdout); err != nil {
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
	o.registerProgress(fs)
	results := fs.String("results", "", "read results from `FILE` (default DIR/results.jsonl)")
	var g gate
	g.register(fs)
	args, err := parse(fs, args)
	if err != nil {
		return 0, err
	}
	if err := o.check(); err != nil {
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
	rep, err := e.runWithProgress(e.ctx, res, suite, opts, o)
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
		"and is now reported as a failure (no longer an expected failure), or back, is\n"+
		"not a change.\n\n"+
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
	fs := newFlags("lint", "lint [--suite DIR] [--unknown-keys] [--strict] [--coverage WHEN] [--catalogue DIR]\n\n"+
		"Checks the vector files (errors with file and line, unknown keys) and their\n"+
		"[test] covers against the requirements catalogue (docs/requirements.md).\n\n"+
		"Exit codes: 0 no error, 1 an error (or an ignored key with --strict),\n"+
		"2 usage error, 3 the catalogue could not be loaded.", e)
	var c common
	fs.StringVar(&c.suite, "suite", "", "lint the vectors of `DIR`")
	unknown := fs.Bool("unknown-keys", false, "list the keys the loader ignores, with their lines and a likely spelling")
	strict := fs.Bool("strict", false, "a key the loader ignores is an error (exit 1), listed with its line and a likely spelling")
	coverage := coverageAuto
	fs.Var(&coverage, "coverage", coverageHelp)
	var catDir string
	registerCatalogue(fs, &catDir)
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
	nCoverage, coverageLine, err := e.lintCoverage(suite, c.suite, catDir, coverage)
	if err != nil {
		return exitInfrastructure, err
	}
	fmt.Fprintf(e.stderr, "%d files, %d errors, %d ignored keys\n%s\n", len(suite.Cases)+len(suite.Errors), len(suite.Errors)+nCoverage, nUnknown, coverageLine)
	if len(suite.Errors) > 0 || nCoverage > 0 || (*strict && nUnknown > 0) {
		return exitFail, nil
	}
	return 0, nil
}

func (e *env) version(args []string) (int, error) {
	fs := newFlags("version", "version", e)
	if err := parseNoArgs(fs, args); err != nil {
		return 0, err
	}
	suite, err := casefile.LoadSuite(nil)
	if err != nil {
		return exitInfrastructure, err
	}
	fmt.Fprintf(e.stdout, "%s %s\nprotocol %s\nspec %s\nembedded suite %d cases, sha256 %s\n",
		protocol.Name, protocol.Version, protocol.Protocol, casefile.SpecVersion, len(suite.Cases)+len(suite.Errors), suite.Digest)
	return 0, nil
}
