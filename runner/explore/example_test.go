package explore_test

import (
	"context"
	"fmt"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/explore"
)

// A Go implementation explores itself from go test with a fixed seed and
// count; go-cupel is the oracle. Here go-cupel stands in for the
// implementation, so nothing diverges.
func ExampleRun() {
	rep, err := explore.Run(context.Background(), runner.Engine(), explore.Options{Seed: 1, Cases: 500})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range rep.Divergences {
		fmt.Printf("%s (seed %d, index %d): %s\n", d.Class, d.Seed, d.Index, d.Comparison.Message)
	}
	fmt.Println(rep.Cases, "cases,", len(rep.Divergences), "divergences, verdict:", rep.Err())
	// Output: 500 cases, 0 divergences, verdict: <nil>
}
