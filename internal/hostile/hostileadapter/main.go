// Command hostileadapter is internal/hostile as a program, built by the
// tests that run the runner against hostile implementations.
package main

import (
	"os"

	"github.com/cupel-go/go-cupel/internal/hostile"
)

func main() { os.Exit(hostile.Main()) }
