package main

import (
	"os"
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
	testscript.Main(m, map[string]func(){
		"cupel-conform": func() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"faultadapter":  func() { os.Exit(faultadapter.Main()) },
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script"})
}
