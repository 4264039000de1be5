package explorefuzz_test

import (
	"context"
	"fmt"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/explore"
	"github.com/cupel-go/go-cupel/runner/explore/explorefuzz"
)

// Check is the body of the fuzz target: one input, one case, both sides.
func ExampleCheck() {
	sess, err := explore.NewSession(context.Background(), runner.Engine(), explore.Options{})
	if err != nil {
		panic(err)
	}
	defer sess.Close()
	for _, in := range [][]byte{{1, 2, 3}, []byte("not a vector, so generator choices")} {
		fmt.Printf("divergence: %q\n", explorefuzz.Check(sess, in))
	}
	fmt.Println("cases:", sess.Report().Cases+sess.Report().Skipped)
	// Output:
	// divergence: ""
	// divergence: ""
	// cases: 2
}
