package explore_test

import (
	"context"
	"fmt"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/explore"
)

// Three shards of one exploration, run apart (here in turn; in CI, on three
// machines with --shard I/3 --json), merge into the unsharded report.
func ExampleMergeReports() {
	var shards []*explore.Report
	for i := 1; i <= 3; i++ {
		rep, err := explore.Run(context.Background(), runner.Engine(), explore.Options{
			Seed: 1, Cases: 300, Shard: runner.Shard{Index: i, Count: 3}})
		if err != nil {
			panic(err)
		}
		fmt.Printf("shard %s: %d cases\n", rep.Shard, rep.Cases)
		shards = append(shards, rep)
	}
	merged, err := explore.MergeReports(shards)
	if err != nil {
		panic(err)
	}
	fmt.Printf("merged: %d cases, %d divergences, verdict %v\n", merged.Cases, len(merged.Divergences), merged.Err())
	// Output:
	// shard 1/3: 100 cases
	// shard 2/3: 100 cases
	// shard 3/3: 100 cases
	// merged: 300 cases, 0 divergences, verdict <nil>
}
