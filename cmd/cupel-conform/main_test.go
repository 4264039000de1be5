package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/cupel-go/go-cupel/internal/cli"
	"github.com/cupel-go/go-cupel/internal/faultadapter"
	"github.com/cupel-go/go-cupel/internal/testimpl"
)

func TestMain(m *testing.M) {
	if os.Getenv("TESTIMPL") != "" {
		// This binary is a test implementation's process (see implCmd).
		os.Exit(testimpl.Main(os.Args[1:]))
	}
	if os.Getenv("CUPEL_CONFORM_MAIN") != "" {
		// This binary is cupel-conform itself (see gotestsum_test.go).
		os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	testscript.Main(m, map[string]func(){
		"cupel-conform": func() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"faultadapter":  func() { os.Exit(faultadapter.Main()) },
		// testimpl is a test implementation's process: $TESTIMPL over the
		// suite in $TESTIMPL_SUITE (set them in --impl-cmd).
		"testimpl": func() { os.Exit(testimpl.Main(os.Args[1:])) },
	})
}

func TestScripts(t *testing.T) {
	fixtures, python, vectors := abs(t, fixtureSuite), abs(t, pythonImpl), abs(t, "../../vectors")
	testscript.Run(t, testscript.Params{Dir: "testdata/script", Setup: func(e *testscript.Env) error {
		// FIXTURES is the fixture suite the test implementations answer;
		// PYIMPL the partial Python example; VECTORS the embedded suite.
		e.Setenv("FIXTURES", fixtures)
		e.Setenv("PYIMPL", python)
		e.Setenv("VECTORS", vectors)
		return nil
	}})
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
