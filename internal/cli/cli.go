// Package cli implements the cupel-conform command.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/cupel-go/go-cupel/internal/safetext"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

const usage = `usage: cupel-conform <command> [flags]

commands:
  run        run the suite (default: the embedded suite against go-cupel in-process)
  adapter    serve go-cupel over the cupel-conform/1 protocol on stdin/stdout
  export     write DIR/cases.jsonl and DIR/manifest.json for an offline run
  verify     judge DIR/results.jsonl against the suite
  diff       compare two JSON reports: cupel-conform diff OLD NEW
  report     render JSON reports side by side (text, --markdown, --json, --html);
             "report merge" joins the JSON reports of shards (--shard I/N)
             into the report of the whole run or exploration
  show       print a case as sent and its expected result: cupel-conform show ID
  list       list the cases
  lint       check the vector files (errors with file and line, unknown keys)
             and their covers against the requirements catalogue
  requirements
             print the spec's requirements with the vectors that cover them
             (text, --json, --markdown; --uncovered: those without a vector)
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
	// ctx is cancelled by the first stop signal (see signals).
	ctx context.Context
}

// Main runs cupel-conform with args and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	sig := trapSignals(stderr)
	defer sig.stop()
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, ctx: sig.ctx}
	code := e.main(args)
	if sig.received.Load() && code != exitUsage {
		// Stopped by a signal: no verdict, whatever was written.
		return exitInfrastructure
	}
	return code
}

// main is Main once the signals are handled.
func (e *env) main(args []string) int {
	stdout, stderr := e.stdout, e.stderr
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	cmds := map[string]func([]string) (int, error){
		"run": e.run, "adapter": e.adapter, "export": e.export, "verify": e.verify,
		"diff": e.diff, "show": e.show, "list": e.list, "lint": e.lint,
		"smoke": e.smoke, "version": e.version, "explore": e.explore, "report": e.report,
		"requirements": e.requirements,
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
	if name == "report" && len(args) > 1 && args[1] == "merge" {
		name = "report merge" // its errors name it
	}
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "cupel-conform %s: %s\n", name, safetext.Lines(err.Error(), "  ")) // it may quote what an implementation sent
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
