package explorefuzz_test

import (
	"testing"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/explore"
	"github.com/cupel-go/go-cupel/runner/explore/explorefuzz"
)

// myImpl stands for a Go implementation of the Cupel specification.
type myImpl struct{ runner.Implementation }

// A fuzz target of a Go implementation (Fuzz's example; compiled, not
// run).
func ExampleFuzz() {
	_ = func(f *testing.F) {
		explorefuzz.Fuzz(f, myImpl{}, explore.Options{Out: "testdata/explore-found"})
	}
}
