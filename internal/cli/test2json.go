package cli

import (
	"flag"
	"fmt"
	"regexp"
	"strings"

	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
)

// goTestFlags are what run takes so that gotestsum can drive it as it
// drives `go test -json`: --test2json, and for --rerun-fails the
// -test.run PATTERN and the package name gotestsum appends.
type goTestFlags struct {
	run string
	// pkg is the package argument gotestsum appends on a rerun ("" when
	// none was given); it must name the run's package.
	pkg string
}

func (g *goTestFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&g.run, "test.run", "", "with --test2json, run only the cases (tests) `PATTERN` selects as go test -run would: one regexp per /-separated level of the id (gotestsum --rerun-fails passes it)")
}

// apply checks the go test arguments of a run and narrows opts to the
// cases -test.run selects. pos are run's positional arguments: only
// gotestsum's package argument is allowed, with --test2json.
func (g *goTestFlags) apply(o outputs, pos []string, suite *casefile.Suite, opts *runner.Options) error {
	if !o.test2json {
		if len(pos) > 0 {
			return usagef("unexpected arguments: %s", strings.Join(pos, " "))
		}
		if g.run != "" {
			return usagef("-test.run needs --test2json")
		}
		return nil
	}
	if len(pos) > 1 {
		return usagef("unexpected arguments: %s (with --test2json, only the package name gotestsum passes)", strings.Join(pos, " "))
	}
	if len(pos) == 1 {
		g.pkg = pos[0]
	}
	if g.run == "" {
		return nil
	}
	levels := strings.Split(g.run, "/")
	res := make([]*regexp.Regexp, len(levels))
	for i, l := range levels {
		re, err := regexp.Compile(l)
		if err != nil {
			return usagef("-test.run %s: %v", g.run, err)
		}
		res[i] = re
	}
	matches := func(name string) bool {
		parts := strings.Split(name, "/")
		if len(parts) < len(res) {
			return false
		}
		for i, re := range res {
			if !re.MatchString(parts[i]) {
				return false
			}
		}
		return true
	}
	if matches(report.InfrastructureTestName) {
		return nil // the run stopped without a verdict: run it all again
	}
	if opts.RequireLevel != runner.LevelNone && opts.RequireLevel != "" && matches(report.LevelTestName) {
		return nil // the level test is the whole run's: run it all again
	}
	cases, err := runner.Select(suite, *opts)
	if err != nil {
		return err
	}
	var ids []string
	for _, c := range cases {
		if matches(c.ID) {
			ids = append(ids, regexp.QuoteMeta(c.ID))
		}
	}
	if len(ids) == 0 {
		return usagef("-test.run %s: no case matches", g.run)
	}
	opts.Run = "^(?:" + strings.Join(ids, "|") + ")$"
	opts.RequireLevel = "" // a filtered run accepts no target: judged strictly on the cases it ran
	return nil
}

// check refuses a package argument that does not name the run's package.
func (g *goTestFlags) check(rep *runner.Report) error {
	if g.pkg != "" && g.pkg != report.Test2JSONPackage(rep) {
		return usagef("package %s: this run's tests are in %s", g.pkg, report.Test2JSONPackage(rep))
	}
	return nil
}

// writeTest2JSON writes the run's test2json stream to stdout.
func (e *env) writeTest2JSON(rep *runner.Report, suite *casefile.Suite) error {
	if err := report.WriteTest2JSON(e.stdout, rep, suite); err != nil {
		return fmt.Errorf("--test2json: %w", err)
	}
	return nil
}
