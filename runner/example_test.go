package runner_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// myImpl stands for a Go implementation of the Cupel spec.
type myImpl struct{}

func (myImpl) Hello(context.Context) (protocol.Identity, error) {
	return protocol.Identity{Name: "my-cupel", Version: "0.1.0", Language: "go"}, nil
}

func (myImpl) Run(_ context.Context, req protocol.Request) (protocol.Result, error) {
	return protocol.Result{Kind: protocol.ResultUnsupported, Reason: "not yet: " + req.Stage}, nil
}

// Run returns a report to inspect or write in any format.
func ExampleRun() {
	rep, err := runner.Run(context.Background(), myImpl{}, runner.Options{Suite: os.DirFS("testdata/suite")})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rep.Level, rep.Counts["required"][protocol.OutcomeUnsupported], errors.Is(rep.Err(), runner.ErrFailed))
	// Output: none 8 true
}

// Check is the one-error form, in the manner of testing/fstest.TestFS:
// nil when the run meets its target.
func ExampleCheck() {
	err := runner.Check(myImpl{}, runner.Options{Suite: os.DirFS("testdata/suite"), Run: "^required/scoring/"})
	fmt.Println(errors.Is(err, runner.ErrFailed))
	// Output: true
}

// Verdict is the one decision on a run: every report format, the exit
// code of cupel-conform, Check and conformtest render it.
func ExampleReport_Verdict() {
	opts := runner.Options{Suite: os.DirFS("testdata/suite"), RequireLevel: runner.LevelConformant}
	rep, err := runner.Run(context.Background(), myImpl{}, opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	v := rep.Verdict()
	fmt.Println(v.Passed, v.Counts[protocol.OutcomeUnsupported], v.Gated, v.Warnings)
	fmt.Println(v.Line())
	// Output:
	// false 14 8 6
	// verdict: FAIL — 8 gated (8 unsupported); level not conformant misses the target Cupel Conformant; 6 warnings (optional cases failed or unsupported, not required for Cupel Conformant)
}

// Serve puts any Implementation behind the cupel-conform/1 protocol, as
// `cupel-conform adapter` does for go-cupel.
func ExampleServe() {
	_ = func() error {
		return protocol.Serve(context.Background(), myImpl{}, os.Stdin, os.Stdout)
	}
}

// NewProcess drives an implementation in any language over the protocol;
// Report.Err is the verdict.
func ExampleNewProcess() {
	impl := protocol.NewProcess(protocol.ProcessOptions{Command: "python3 my_adapter.py", StartupTimeout: 10 * time.Second})
	_ = func() error {
		rep, err := runner.Run(context.Background(), impl, runner.Options{Timeout: 2 * time.Second, RequireLevel: runner.LevelConformant})
		if err != nil {
			return err
		}
		fmt.Println(rep.Level.Title())
		return rep.Err()
	}
}
