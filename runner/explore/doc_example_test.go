package explore_test

import (
	"context"
	"testing"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/explore"
)

// myImpl stands for a Go implementation of the Cupel specification.
type myImpl struct{ runner.Implementation }

// A Go implementation explores itself from go test (the package
// documentation's example; compiled, not run: t is the test's).
func ExampleRun_test() {
	var t *testing.T
	ctx := context.Background()
	rep, err := explore.Run(ctx, myImpl{}, explore.Options{Seed: 1, Cases: 10000, Out: t.TempDir()})
	if err == nil {
		err = rep.Err()
	}
	_ = err
}
