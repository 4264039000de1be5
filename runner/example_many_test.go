package runner_test

import (
	"context"
	"fmt"
	"os"

	"github.com/cupel-go/go-cupel/runner"
)

// RunMany runs several implementations at once, for a side-by-side
// comparison (cupel-conform run -i NAME=CMD …).
func ExampleRunMany() {
	reps, err := runner.RunMany(context.Background(), []runner.NamedImpl{
		{Name: "go-cupel", Impl: runner.Engine()},
		{Name: "mine", Impl: myImpl{}},
	}, runner.Options{Suite: os.DirFS("testdata/suite")})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range reps {
		fmt.Println(r.Implementation.Name, r.Level, r.Err() == nil)
	}
	// Output:
	// go-cupel fully-conformant true
	// my-cupel none false
}
