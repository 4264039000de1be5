package cli

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/protocol"
	"github.com/cupel-go/go-cupel/runner/vector"
)

// outputs holds the report destinations of run and verify.
type outputs struct {
	json, junit, tap, markdown, badge string
	saveFailed                        string
	maxFailures                       int
	quiet, verbose                    bool
	color                             colorMode
	// test2json writes the go test -json stream to stdout instead of the
	// text (run only; see test2json.go).
	test2json bool
}

func (o *outputs) register(fs *flag.FlagSet) {
	fs.StringVar(&o.json, "json", "", "write the JSON report (schema "+runner.ReportSchema+") to `FILE` (- for stdout)")
	fs.StringVar(&o.junit, "junit", "", "write a JUnit XML report to `FILE` (with -i: one testsuite per implementation)")
	fs.StringVar(&o.tap, "tap", "", "write a TAP report to `FILE` (with -i: FILE is a directory, one NAME.tap per implementation)")
	fs.StringVar(&o.markdown, "markdown", "", "write a Markdown summary to `FILE`")
	fs.StringVar(&o.badge, "badge", "", "write a shields.io endpoint badge JSON to `FILE` (with -i: FILE is a directory, one NAME.json per implementation)")
	fs.StringVar(&o.saveFailed, "save-failed", "", "write request, response, expected result and stderr of each gated case and warning to `DIR`")
	fs.IntVar(&o.maxFailures, "max-failures", report.DefaultMaxFailures, "cap every list of the text report at `N` entries: failures in full, unsupported reasons, unexpected ids (0: no cap)")
	fs.BoolVar(&o.quiet, "quiet", false, "print only the summary (counts, unsupported reasons, unexpected ids, level): no progress, no failure in full")
	fs.BoolVar(&o.verbose, "v", false, "print a line per case on stderr as it finishes (status, time, id)")
	o.color = "auto"
	fs.Var(&o.color, "color", "colour the text: `WHEN` is auto (on a terminal, unless NO_COLOR is set), always or never")
}

// writeFile writes a report to path (- for stdout) through write, which
// streams it: a report is never held whole in memory.
func writeFile(path string, stdout io.Writer, write func(io.Writer) error) error {
	if path == "-" {
		return write(stdout)
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func (e *env) emit(rep *runner.Report, suite *vector.Suite, o outputs) error {
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
