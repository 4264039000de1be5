package snapshot_test

import (
	"testing"

	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupeltest/snapshot"
)

// The package documentation's examples (compiled, not run: t is a test's,
// pipeline, items and budget an application's).
func ExampleMatch_report() {
	var t *testing.T
	var pipeline *cupel.Pipeline
	var items []*cupel.ContextItem
	var budget cupel.ContextBudget
	var report cupel.SelectionReport
	_, _ = pipeline.Run(items, budget, cupel.WithReport(&report))
	snapshot.Match(t, "agent_turn", &report)               // t: *testing.T or GinkgoT()
	Expect(&report).To(snapshot.MatchGolden("agent_turn")) // the same, as a Gomega matcher
	snapshot.Match(t, "agent_turn", &report, snapshot.DecisionsOnly())
}
