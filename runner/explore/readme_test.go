package explore_test

import (
	"context"
	"errors"
	"testing"

	"github.com/cupel-go/go-cupel/runner/explore"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// The Go of EXPLORE.md: the block there is a copy of this function,
// checked by go test ./internal/doccheck, and compiled here.
var _ = testExplore

func testExplore(t *testing.T, impl protocol.Implementation) {
	rep, err := explore.Run(context.Background(), impl, explore.Options{
		Seed: 1, Cases: 20000, Out: t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range rep.Divergences {
		t.Errorf("%s (seed %d, index %d): %s\n%s", d.Class, d.Seed, d.Index, d.Comparison.Message, d.File)
	}
	if err := rep.Err(); errors.Is(err, protocol.ErrInfrastructure) {
		t.Fatal(err) // no verdict: it would not start, or crashed in a loop
	}
}
