package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/cupel-go/go-cupel/internal/atomicfile"
	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// outputs holds the report destinations of run, verify and report merge.
type outputs struct {
	json, junit, tap, markdown, badge, html string
	saveFailed                              string
	maxFailures                             int
	quiet, verbose                          bool
	color                                   colorMode
	// test2json writes the go test -json stream to stdout instead of the
	// text (see test2json.go).
	test2json bool
}

// register registers the flags that choose the reports of a run: run,
// verify and report merge share them, so a merged run is reported as an
// unsharded one.
func (o *outputs) register(fs *flag.FlagSet) {
	fs.StringVar(&o.json, "json", "", "write the JSON report (schema "+runner.ReportSchema+") to `FILE` (- for stdout)")
	fs.StringVar(&o.junit, "junit", "", "write a JUnit XML report to `FILE` (with -i: one testsuite per implementation)")
	fs.StringVar(&o.tap, "tap", "", "write a TAP report to `FILE` (with -i: FILE is a directory, one NAME.tap per implementation)")
	fs.StringVar(&o.markdown, "markdown", "", "write a Markdown summary to `FILE`")
	fs.StringVar(&o.badge, "badge", "", "write a shields.io endpoint badge JSON to `FILE` (with -i: FILE is a directory, one NAME.json per implementation)")
	fs.Func("html", "write a self-contained HTML report to `FILE`", func(s string) error {
		if s == "" || s == "-" {
			return errors.New("--html needs a file name")
		}
		o.html = s
		return nil
	})
	fs.StringVar(&o.saveFailed, "save-failed", "", "write request, response, expected result and stderr of each gated case and warning to `DIR`")
	fs.IntVar(&o.maxFailures, "max-failures", report.DefaultMaxFailures, "cap every list of the text report at `N` entries: failures in full, unsupported reasons, unexpected ids (0: no cap)")
	fs.BoolVar(&o.quiet, "quiet", false, "print only the summary (counts, unsupported reasons, unexpected ids, level): no progress, no failure in full")
	o.color = "auto"
	fs.Var(&o.color, "color", "colour the text: `WHEN` is auto (on a terminal, unless NO_COLOR is set), always or never")
	fs.BoolVar(&o.test2json, "test2json", false, "write the event stream of go test -json to stdout instead of the text report (for gotestsum --raw-command): one test per case, named by its id")
}

// registerProgress registers -v, for the commands that run cases.
func (o *outputs) registerProgress(fs *flag.FlagSet) {
	fs.BoolVar(&o.verbose, "v", false, "print a line per case on stderr as it finishes (outcome, time, id)")
}

// check refuses two reports on stdout. With --test2json stderr stays
// quiet: gotestsum counts what is written there as errors.
func (o *outputs) check() error {
	if !o.test2json {
		return nil
	}
	o.quiet, o.verbose = true, false
	for _, f := range []struct{ name, path string }{{"--json", o.json}, {"--junit", o.junit}, {"--tap", o.tap}, {"--markdown", o.markdown}, {"--badge", o.badge}} {
		if f.path == "-" {
			return usagef("%s - and --test2json both write to stdout", f.name)
		}
	}
	return nil
}

// writeFile writes a report to path through write, atomically (see
// atomicfile.Write), or to stdout when path is "-". write streams it: a
// report is never held whole in memory.
func writeFile(path string, stdout io.Writer, write func(io.Writer) error) error {
	if path == "-" {
		return write(stdout)
	}
	return atomicfile.Write(path, write)
}

func (e *env) emit(rep *runner.Report, suite *casefile.Suite, o outputs) error {
	textOut := e.stdout
	for _, p := range []string{o.json, o.junit, o.tap, o.markdown, o.badge} {
		if p == "-" {
			textOut = e.stderr
		}
	}
	topts := report.TextOptions{Color: o.color.on(textOut), Suite: suite, MaxFailures: o.maxFailures, Summary: o.quiet}
	if o.test2json {
		if err := e.writeTest2JSON(rep, suite); err != nil {
			return err
		}
	} else if err := report.WriteText(textOut, rep, topts); err != nil {
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
		{o.html, func(w io.Writer) error { return writeHTML(w, rep, suite) }},
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

// writeJSON writes v as indented JSON to path, atomically.
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return atomicfile.WriteBytes(path, append(b, '\n'))
}

func saveFailed(dir string, rep *runner.Report, suite *casefile.Suite) error {
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
			Outcome protocol.Outcome `json:"outcome"`
			Message string           `json:"message,omitempty"`
			Details []string         `json:"details,omitempty"`
			Actual  *protocol.Result `json:"actual,omitempty"`
		}{c.Outcome, c.Message, c.Details, c.Actual}
		if err := writeJSON(base+".response.json", resp); err != nil {
			return err
		}
		if c.Stderr != "" {
			if err := atomicfile.WriteBytes(base+".stderr.txt", []byte(c.Stderr)); err != nil {
				return err
			}
		}
	}
	return nil
}
