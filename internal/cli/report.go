package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/cupel-go/go-cupel/internal/matrix"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
)

// matrixOutputs are the destinations of a comparison of implementations
// (report, and run with -i or --html).
type matrixOutputs struct {
	json, markdown, html string
	// maxCases bounds each list of disagreeing cases in the text (0: all,
	// negative: none).
	maxCases int
}

// reportUsage is the synopsis of the report command.
const reportUsage = `report [flags] REPORT.json…

Renders saved JSON reports (cupel-conform run --json FILE) side by side:
the level of each implementation, passes per tier and stage, and the cases
on which they disagree. An argument NAME=FILE names the implementation;
otherwise the name is the one its hello gave. A file written by
"report --json" or "run -i … --json" can be read back.

cupel-conform report merge [flags] SHARD.json… merges the JSON reports of
the shards of one run (run --shard I/N --json FILE) into the report of the
unsharded run, with run's report flags and --require-level, or those of
one exploration: see "cupel-conform report merge -h".`

// report renders saved JSON reports: cupel-conform report REPORT.json…
func (e *env) report(args []string) (int, error) {
	if len(args) > 0 && args[0] == "merge" {
		return e.reportMerge(args[1:])
	}
	fs := newFlags("report", reportUsage, e)
	var out matrixOutputs
	fs.StringVar(&out.html, "html", "", "write a self-contained HTML page to `FILE` (- for stdout)")
	fs.StringVar(&out.markdown, "markdown", "", "write a Markdown summary to `FILE` (- for stdout)")
	fs.StringVar(&out.json, "json", "", "write the reports and the matrix as JSON (schema "+matrix.Schema+") to `FILE` (- for stdout)")
	fs.IntVar(&out.maxCases, "max-failures", 30, "list at most `N` cases per group of disagreements in the text (0: all)")
	suiteDir := fs.String("suite", "", "show the inputs and expected results of failing cases from the vectors of `DIR` (default: the embedded suite, when the reports ran it)")
	args, err := parse(fs, args)
	if err != nil {
		return 0, err
	}
	if len(args) == 0 {
		return 0, usagef("report needs at least one JSON report (written by cupel-conform run --json FILE)")
	}
	var entries []runner.NamedReport
	var sources []string
	for _, arg := range args {
		name, path := "", arg
		if i := strings.IndexByte(arg, '='); i > 0 {
			if _, err := os.Stat(arg); err != nil {
				name, path = arg[:i], arg[i+1:]
			}
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return exitInfrastructure, err
		}
		es, err := matrix.Decode(data, path)
		if err != nil {
			return exitInfrastructure, err
		}
		if name != "" {
			if len(es) != 1 {
				return 0, usagef("%s: NAME=FILE names one report, but the file holds %d", arg, len(es))
			}
			es[0].Name = name
		}
		for range es {
			sources = append(sources, path)
		}
		entries = append(entries, es...)
	}
	uniqueNames(entries, sources)
	lookup, err := suiteLookup(*suiteDir, entries, e.stderr)
	if err != nil {
		return 0, err
	}
	m, err := matrix.New(entries, matrix.Options{Case: lookup})
	if err != nil {
		return 0, usagef("%v", err)
	}
	if err := e.emitMatrix(m, out); err != nil {
		return exitInfrastructure, err
	}
	return 0, nil
}

// uniqueNames gives every entry a unique name: an unnamed report is
// "implementation", and repeated names get their file's base name.
func uniqueNames(entries []runner.NamedReport, sources []string) {
	count := map[string]int{}
	for i := range entries {
		if entries[i].Name == "" {
			entries[i].Name = "implementation"
		}
		count[entries[i].Name]++
	}
	used := map[string]bool{}
	for i := range entries {
		if count[entries[i].Name] > 1 {
			base := entries[i].Name + " (" + filepath.Base(sources[i]) + ")"
			name := base
			for k := 2; used[name]; k++ {
				name = fmt.Sprintf("%s #%d", base, k)
			}
			entries[i].Name = name
		}
		used[entries[i].Name] = true
	}
}

// suiteLookup returns the inputs and expected results of the cases of the
// suite in dir (the embedded suite when dir is ""), or nil when no report
// ran that suite: reports do not carry their inputs.
func suiteLookup(dir string, entries []runner.NamedReport, stderr io.Writer) (func(string) (matrix.CaseData, bool), error) {
	c := common{suite: dir}
	suite, _, err := c.load()
	if err != nil {
		return nil, err
	}
	for _, en := range entries {
		if en.Report.Suite.Digest == suite.Digest {
			return caseData(suite), nil
		}
	}
	if dir != "" {
		fmt.Fprintf(stderr, "warning: no report ran the suite in %s (sha256 %s): inputs and expected results are not shown\n", dir, suite.Digest)
	}
	return nil, nil
}

// caseData looks up the inputs and the expected results of a case of suite.
func caseData(suite *casefile.Suite) func(string) (matrix.CaseData, bool) {
	return func(id string) (matrix.CaseData, bool) {
		c := suite.Case(id)
		if c == nil {
			return matrix.CaseData{}, false
		}
		return matrix.CaseData{Input: c.Input, Expected: c.Expect}, true
	}
}

// emitMatrix writes the text comparison to stdout (stderr when a report
// goes to stdout) and every requested file.
func (e *env) emitMatrix(m *matrix.Matrix, o matrixOutputs) error {
	textOut := e.stdout
	for _, p := range []string{o.json, o.markdown, o.html} {
		if p == "-" {
			textOut = e.stderr
		}
	}
	if err := matrix.WriteText(textOut, m, matrix.TextOptions{MaxCases: o.maxCases}); err != nil {
		return err
	}
	writers := []struct {
		path string
		fn   func(io.Writer) error
	}{
		{o.json, func(w io.Writer) error { return matrix.WriteJSON(w, m) }},
		{o.markdown, func(w io.Writer) error { return matrix.WriteMarkdown(w, m) }},
		{o.html, func(w io.Writer) error { return matrix.WriteHTML(w, m, matrix.HTMLOptions{}) }},
	}
	for _, wr := range writers {
		if wr.path == "" {
			continue
		}
		if err := writeFile(wr.path, e.stdout, wr.fn); err != nil {
			return err
		}
	}
	return nil
}

// errNotWithImpls is the usage error of run flags that describe one
// implementation.
var errNotWithImpls = errors.New("is for one implementation: not available with -i")

// implFlag is the repeatable -i NAME=CMD flag of run.
type implFlag []string

// String implements flag.Value.
func (f *implFlag) String() string { return strings.Join(*f, " ") }

// Set implements flag.Value. Unlike listFlag it does not split at commas,
// which a command may contain.
func (f *implFlag) Set(s string) error {
	s = strings.TrimSpace(s)
	if s == "" {
		return errors.New("empty implementation")
	}
	*f = append(*f, s)
	return nil
}

// manyFlags are run's flags that compare implementations.
type manyFlags struct {
	impls implFlag
}

func (m *manyFlags) register(fs *flag.FlagSet) {
	fs.Var(&m.impls, "i", "run the suite against the implementation `NAME=CMD` (a shell command speaking cupel-conform/1), or go-cupel for the built-in engine; repeat to compare implementations side by side, run in parallel (--json then writes schema "+matrix.Schema+")")
}
