// Command faultyimpl is internal/faultyimpl as a program, built by the
// runner's tests.
package main

import (
	"os"

	"github.com/cupel-go/go-cupel/internal/faultyimpl"
)

func main() { os.Exit(faultyimpl.Main()) }
