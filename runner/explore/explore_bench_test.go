package explore_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/explore"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// The targets: at least 20,000 generated cases a second against
// go-cupel in process, and 2,000 a second over the protocol against
// `cupel-conform adapter` in one session, each counting generation, both
// runs and the comparison. One op is one case.
//
//	go test ./runner/explore -run '^$' -bench Explore -benchtime 20000x

func BenchmarkExploreInProcess(b *testing.B) {
	b.ReportAllocs()
	rep, err := explore.Run(context.Background(), runner.Engine(), explore.Options{Seed: 1, Cases: b.N})
	if err != nil {
		b.Fatal(err)
	}
	if len(rep.Divergences) > 0 || rep.Cases != b.N {
		b.Fatalf("%d cases, %d divergences", rep.Cases, len(rep.Divergences))
	}
	b.ReportMetric(float64(rep.Cases)/b.Elapsed().Seconds(), "cases/s")
}

func BenchmarkExploreAdapter(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "cupel-conform")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/cupel-conform").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	impl := protocol.NewProcess(protocol.ProcessOptions{Argv: []string{bin, "adapter"}, Env: os.Environ()})
	b.ReportAllocs()
	b.ResetTimer()
	rep, err := explore.Run(context.Background(), impl, explore.Options{Seed: 1, Cases: b.N})
	if err != nil {
		b.Fatal(err)
	}
	if len(rep.Divergences) > 0 || rep.Cases != b.N || rep.Infrastructure != "" {
		b.Fatalf("%d cases, %d divergences, %s", rep.Cases, len(rep.Divergences), rep.Infrastructure)
	}
	b.ReportMetric(float64(rep.Cases)/b.Elapsed().Seconds(), "cases/s")
}
