// Package gatesuite is the Ginkgo suite the tests of package conformginkgo
// run as a child: the gate over the test implementation $TESTIMPL and the
// suite in $TESTIMPL_SUITE, with the target $REQUIRE_LEVEL and the
// per-case timeout $CASE_TIMEOUT (default the runner's); or, with
// $IMPL_CMD set, over that command as a process. $HANG_AFTER_FIRST makes
// each process's implementation hang on every case after its first, until
// the case's context ends.
package gatesuite

import (
	"context"
	"os"
	"sync/atomic"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/fakeimpl"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/conformginkgo"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

func TestGate(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "conformginkgo gate")
}

var _ = Describe("Cupel conformance", func() {
	fsys := os.DirFS(os.Getenv("TESTIMPL_SUITE"))
	suite, err := casefile.LoadSuite(fsys)
	if err != nil {
		panic(err)
	}
	timeout, _ := time.ParseDuration(os.Getenv("CASE_TIMEOUT"))
	newImpl := func() runner.Implementation { return fakeimpl.New(os.Getenv("TESTIMPL"), suite) }
	if cmd := os.Getenv("IMPL_CMD"); cmd != "" {
		newImpl = func() runner.Implementation { return protocol.NewProcess(protocol.ProcessOptions{Command: cmd}) }
	}
	if os.Getenv("HANG_AFTER_FIRST") != "" {
		answer := newImpl
		newImpl = func() runner.Implementation { return &hanging{Implementation: answer()} }
	}
	conformginkgo.Gate(newImpl, runner.Options{Suite: fsys, RequireLevel: runner.Level(os.Getenv("REQUIRE_LEVEL")), Timeout: timeout}) // the gate's location
})

// hanging answers its first case, and hangs on every other until the
// case's context ends.
type hanging struct {
	runner.Implementation
	answered atomic.Bool
}

func (h *hanging) Run(ctx context.Context, req protocol.Request) (protocol.Result, error) {
	if h.answered.Swap(true) {
		<-ctx.Done()
		return protocol.Result{}, ctx.Err()
	}
	return h.Implementation.Run(ctx, req)
}
