// Command faultadapter is internal/faultadapter as a program, built by the
// runner's tests.
package main

import (
	"os"

	"github.com/cupel-go/go-cupel/internal/faultadapter"
)

func main() { os.Exit(faultadapter.Main()) }
