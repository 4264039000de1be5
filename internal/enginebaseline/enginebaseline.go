// Package enginebaseline is what go-cupel's engine is known to reach on
// this platform: the level it reaches on the embedded suite here, and the
// expected failures of what it cannot run (the 64-bit cases on
// GOARCH=386). Tests that gate the
// engine use both.
package enginebaseline

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cupel-go/go-cupel/runner"
)

// wideIntCases are the cases of the embedded suite whose integers need 64
// bits: go-cupel's int cannot hold them on a 32-bit platform, so
// runner.Engine answers them "unsupported" there instead of running them
// with wrapped values.
//
// One of them is required (the suite's integers are signed 64-bit, spec
// chapter 43 (Test Vector Format)), so on a 32-bit platform go-cupel claims
// no level: its ItemSpec fields are int, not int64. The rest of the suite
// still runs there and must pass.
var wideIntCases = []string{
	"optional/scoring/priority-extreme-integers",
	"optional/slicing/knapsack-bucket-one-huge-tokens",
	"required/scoring/priority-many-items",
}

// EngineLevel is the level go-cupel reaches on the embedded suite on this
// platform, and EngineExpectedFailures lists the cases it cannot run here (nil
// on a 64-bit platform). Tests that gate the engine use both, so that the
// 32-bit run (GOARCH=386) still proves everything else.
func EngineLevel() runner.Level {
	if strconv.IntSize < 64 {
		return runner.LevelNone
	}
	return runner.LevelFullyConformant
}

// EngineExpectedFailures: see EngineLevel.
func EngineExpectedFailures() *runner.ExpectedFailures {
	if strconv.IntSize == 64 {
		return nil
	}
	var b strings.Builder
	for _, id := range wideIntCases {
		fmt.Fprintf(&b, "[[expected_failure]]\nid = %q\noutcome = \"unsupported\"\nreason = \"needs 64-bit integers; int has %d bits here\"\n\n", id, strconv.IntSize)
	}
	x, err := runner.ParseExpectedFailures("platform", []byte(b.String()))
	if err != nil {
		panic(err) // the text above is well-formed
	}
	return x
}
