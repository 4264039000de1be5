// Command cupel-conform runs the Cupel conformance suite against go-cupel or
// any other implementation of the Cupel specification, and reports the
// conformance level reached.
//
// Usage:
//
//	cupel-conform run [flags]          run the suite (default: embedded suite, go-cupel in-process)
//	cupel-conform adapter              serve go-cupel over the cupel-conform/1 protocol on stdin/stdout
//	cupel-conform export DIR           write cases.jsonl and manifest.json for an offline run
//	cupel-conform verify DIR           judge DIR/results.jsonl against the suite
//	cupel-conform diff OLD NEW         compare two JSON reports (exit 1 when cases newly fail)
//	cupel-conform report REPORT.json…  render JSON reports side by side (text, Markdown, JSON, HTML)
//	cupel-conform show ID              print a case as sent and its expected result
//	cupel-conform list                 list the cases
//	cupel-conform lint                 check the vector files and their covers
//	cupel-conform requirements         print the spec's requirements and the vectors that cover them
//	cupel-conform smoke --impl-cmd CMD check an adapter's framing
//	cupel-conform version              print versions and the suite digest (also --version)
//
// Exit codes render the run's verdict (docs/verdicts.md): 0 the run passed
// its gate, 1 it failed (a gated outcome, or the level misses
// --require-level), 2 usage error (including filters that select nothing),
// 3 no verdict: infrastructure or protocol error, or broken vector files.
//
// While run works, stderr shows its progress: one live line on a terminal,
// a line per case with -v, nothing with --quiet (which prints only the
// summary). -parallel N runs N sessions, or N processes with
// --exec-per-case; --failfast stops at the first gated outcome;
// --color=auto|always|never (auto honours NO_COLOR).
package main

import (
	"os"

	"github.com/cupel-go/go-cupel/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
