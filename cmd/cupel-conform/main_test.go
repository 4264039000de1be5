package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/cupel-go/go-cupel/internal/cli"
	"github.com/cupel-go/go-cupel/internal/fakeimpl"
	"github.com/cupel-go/go-cupel/internal/faultyimpl"
	"github.com/cupel-go/go-cupel/internal/testtool"
)

func TestMain(m *testing.M) {
	if os.Getenv("TESTIMPL") != "" {
		// This binary is a test implementation's process (see implCmd).
		os.Exit(fakeimpl.Main(os.Args[1:]))
	}
	if os.Getenv("CUPEL_CONFORM_MAIN") != "" {
		// This binary is cupel-conform itself (see gotestsum_test.go).
		os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	testscript.Main(m, map[string]func(){
		"cupel-conform": func() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"faultyimpl":    func() { os.Exit(faultyimpl.Main()) },
		// fakeimpl is a test implementation's process: $TESTIMPL over the
		// suite in $TESTIMPL_SUITE (set them in --impl-cmd).
		"fakeimpl": func() { os.Exit(fakeimpl.Main(os.Args[1:])) },
	})
}

func TestScripts(t *testing.T) {
	fixtures, python, vectors := abs(t, fixtureSuite), abs(t, pythonImpl), abs(t, "../../vectors")
	testscript.Run(t, testscript.Params{Files: scripts(t), Setup: func(e *testscript.Env) error {
		// FIXTURES is the fixture suite the test implementations answer;
		// PYIMPL the partial Python example; VECTORS the embedded suite.
		e.Setenv("FIXTURES", fixtures)
		e.Setenv("PYIMPL", python)
		e.Setenv("VECTORS", vectors)
		return nil
	}})
}

// plainOnly are the scripts that run in the plain pass only, not under
// -race, with the reason. Under -race every command of a script is a
// process of this test binary, built with the race detector, and runs the
// whole suite 5 to 10 times slower. The race detector finds races between
// goroutines; these scripts check what is printed, written and exited
// with by code that runs in one goroutine (flag parsing, lint, diff,
// --rerun-failed's selection, export and verify, the verdict's
// rendering), and the runs they start are runs of one process, one case
// after another, as TestCLIFrontEnd and TestOfflineFrontEnd do in process
// under -race for every test implementation, with their verdicts in every
// report format. The scripts that start implementations side by side (-i,
// with --failfast too), in parallel (-parallel, --exec-per-case), that
// fault, time out, smoke-test or explore run in both passes.
var plainOnly = map[string]string{
	"usage":        "flag parsing and usage errors",
	"lint":         "the vector files' lint",
	"requirements": "the requirements listing and lint's coverage",
	"diff":         "the diff of two saved reports",
	"offline":      "export and verify (TestOfflineFrontEnd runs them in process)",
	"rerun":        "--rerun-failed's selection of cases",
	"gate":         "one verdict in every report format, run after run of one process",
	"summary":      "the level, summary, colour, version, filters and lint warnings of runs of go-cupel in process",
}

// scripts lists the scripts TestScripts runs: all of testdata/script,
// less plainOnly under -race.
func scripts(t *testing.T) []string {
	t.Helper()
	all, err := filepath.Glob("testdata/script/*.txtar")
	if err != nil || len(all) == 0 {
		t.Fatalf("no scripts in testdata/script: %v", err)
	}
	found := map[string]bool{}
	var run []string
	for _, f := range all {
		name := strings.TrimSuffix(filepath.Base(f), ".txtar")
		found[name] = true
		if testtool.Race && plainOnly[name] != "" {
			t.Logf("%s: plain pass only (%s)", name, plainOnly[name])
			continue
		}
		run = append(run, f)
	}
	for name := range plainOnly {
		if !found[name] {
			t.Errorf("plainOnly names %s, which is no script in testdata/script", name)
		}
	}
	return run
}

// The fixture suite the test implementations answer, and the partial
// Python example, relative to this package's directory.
const (
	fixtureSuite = "../../runner/testdata/suite"
	pythonImpl   = "../../examples/python-impl/cupel_impl.py"
)

// abs is path made absolute, for scripts and processes that run elsewhere.
func abs(t *testing.T, path string) string {
	t.Helper()
	a, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
