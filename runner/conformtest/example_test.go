package conformtest_test

import (
	"context"
	"testing"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/conformtest"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// myImpl stands for a Go implementation of the Cupel specification.
type myImpl struct{}

func (myImpl) Hello(context.Context) (protocol.Identity, error) {
	return protocol.Identity{Name: "my-cupel", Version: "0.1.0", Language: "go"}, nil
}

func (myImpl) Run(_ context.Context, req protocol.Request) (protocol.Result, error) {
	return protocol.Result{Kind: protocol.ResultUnsupported, Reason: "not yet: " + req.Stage}, nil
}

// A Go implementation gates itself from go test with one call, in a
// _test.go file of its own. Each case is a subtest named by its id:
// go test -run 'TestConformance/required/scoring' runs the scoring cases.
func ExampleTest() {
	_ = func(t *testing.T) {
		conformtest.Test(t, myImpl{}, runner.Options{RequireLevel: runner.LevelConformant})
	}
}
