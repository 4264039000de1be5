package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/cupel-go/go-cupel/internal/matrix"
	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// builtinName is the -i name of the in-process engine.
const builtinName = "go-cupel"

// parseImpls turns the -i flags into named implementations: "go-cupel" is
// the built-in engine, NAME=CMD a process started with the options of
// popts and the command CMD.
func parseImpls(flags []string, popts protocol.ProcessOptions) ([]runner.NamedImpl, error) {
	var out []runner.NamedImpl
	seen := map[string]bool{}
	for _, f := range flags {
		var n runner.NamedImpl
		name, cmd, ok := strings.Cut(f, "=")
		name, cmd = strings.TrimSpace(name), strings.TrimSpace(cmd)
		switch {
		case !ok && name == builtinName:
			n = runner.NamedImpl{Name: builtinName, Impl: runner.Engine()}
		case !ok:
			return nil, usagef("-i %s: want NAME=CMD, or %s for the built-in engine", f, builtinName)
		case name == "" || cmd == "":
			return nil, usagef("-i %s: want NAME=CMD with a name and a command", f)
		default:
			po := popts
			po.Command = cmd
			n = runner.NamedImpl{Name: name, Impl: protocol.NewProcess(po)}
		}
		if seen[n.Name] {
			return nil, usagef("-i: two implementations are named %q", n.Name)
		}
		seen[n.Name] = true
		out = append(out, n)
	}
	return out, nil
}

// runMany is run with -i: the suite against every implementation in
// parallel, reported side by side. The exit code is the worst of the
// implementations' (3 over 1 over 0), so --require-level applies to each.
func (e *env) runMany(ctx context.Context, m *manyFlags, suite *casefile.Suite, opts runner.Options, o outputs, popts protocol.ProcessOptions, writeExp string) (int, error) {
	for _, f := range []struct{ name, val string }{
		{"--impl-cmd", popts.Command},
		{"--save-failed", o.saveFailed}, {"--write-expected-failures", writeExp},
	} {
		if f.val != "" {
			return 0, usagef("%s %v", f.name, errNotWithImpls)
		}
	}
	if opts.ExpectedFailures != nil {
		return 0, usagef("--expected-failures %v", errNotWithImpls)
	}
	if o.test2json {
		return 0, usagef("--test2json %v", errNotWithImpls)
	}
	impls, err := parseImpls(m.impls, popts)
	if err != nil {
		return 0, err
	}
	reports, err := runner.RunMany(ctx, impls, opts)
	if err != nil {
		return 0, err
	}
	entries := make([]runner.NamedReport, len(impls))
	code := exitOK
	for i, rep := range reports {
		entries[i] = runner.NamedReport{Name: impls[i].Name, Report: rep}
		code = worse(code, ExitCode(rep))
	}
	mx, err := matrix.New(entries, matrix.Options{Case: caseData(suite)})
	if err != nil {
		return exitInfrastructure, err
	}
	out := matrixOutputs{json: o.json, markdown: o.markdown, html: o.html, maxCases: o.maxFailures}
	if o.quiet {
		out.maxCases = -1
	}
	if err := e.emitMatrix(mx, out); err != nil {
		return exitInfrastructure, err
	}
	if err := e.emitPerImpl(entries, suite, o); err != nil {
		return exitInfrastructure, err
	}
	return code, nil
}

// emitPerImpl writes the reports of a comparison that render each
// implementation's own verdict: --junit FILE, one testsuite per
// implementation; --tap DIR and --badge DIR, a file per implementation
// (DIR/NAME.tap, DIR/NAME.json).
func (e *env) emitPerImpl(entries []runner.NamedReport, suite *casefile.Suite, o outputs) error {
	named := make([]runner.NamedReport, len(entries))
	files := map[string]string{}
	for i, en := range entries {
		named[i] = runner.NamedReport{Name: en.Name, Report: en.Report}
		f := report.FileName(en.Name)
		if other, ok := files[f]; ok {
			return usagef("-i: %q and %q would share the file name %s under --tap and --badge", other, en.Name, f)
		}
		files[f] = en.Name
	}
	if o.junit != "" {
		if err := writeFile(o.junit, e.stdout, func(w io.Writer) error { return report.WriteJUnitMany(w, named, suite) }); err != nil {
			return fmt.Errorf("--junit: %w", err)
		}
	}
	for _, d := range []struct {
		flag, dir, ext string
		write          func(io.Writer, *runner.Report) error
	}{
		{"--tap", o.tap, ".tap", func(w io.Writer, r *runner.Report) error { return report.WriteTAP(w, r, suite) }},
		{"--badge", o.badge, ".json", report.WriteBadge},
	} {
		if d.dir == "" {
			continue
		}
		if d.dir == "-" {
			return usagef("%s - with -i: give a directory (one file per implementation)", d.flag)
		}
		for _, n := range named {
			path := filepath.Join(d.dir, report.FileName(n.Name)+d.ext)
			if err := writeFile(path, e.stdout, func(w io.Writer) error { return d.write(w, n.Report) }); err != nil {
				return fmt.Errorf("%s: %w", d.flag, err)
			}
		}
	}
	return nil
}

// worse is the more severe of two exit codes: infrastructure, then fail.
func worse(a, b int) int {
	rank := func(c int) int {
		switch c {
		case exitInfrastructure:
			return 3
		case exitUsage:
			return 2
		case exitFail:
			return 1
		}
		return 0
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// writeHTML writes the HTML page of a run of one implementation.
func writeHTML(w io.Writer, rep *runner.Report, suite *casefile.Suite) error {
	name := rep.Implementation.Name
	if name == "" {
		name = "implementation"
	}
	mx, err := matrix.New([]runner.NamedReport{{Name: name, Report: rep}}, matrix.Options{Case: caseData(suite)})
	if err != nil {
		return fmt.Errorf("--html: %w", err)
	}
	return matrix.WriteHTML(w, mx, matrix.HTMLOptions{})
}
