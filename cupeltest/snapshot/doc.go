// Package snapshot compares a [cupel.SelectionReport] with a golden file,
// backed by github.com/sebdah/goldie/v2.
//
//	var report cupel.SelectionReport
//	_, _ = pipeline.Run(items, budget, cupel.WithReport(&report))
//	snapshot.Match(t, "agent_turn", &report)               // t: *testing.T or GinkgoT()
//	Expect(&report).To(snapshot.MatchGolden("agent_turn")) // the same, as a Gomega matcher
//
// The golden file is testdata/golden/<name>.golden under the directory go
// test runs the test in (the calling package's directory). It holds the
// report's canonical JSON ([Canonical]): the spec's wire format with every
// event duration set to 0, fields in a fixed order, map keys sorted, two
// spaces of indentation and a final newline. Reports of this engine are
// deterministic (ruling 6: ties in the excluded list keep a defined
// insertion order), so the same inputs give the same file; the chapter on
// the testing vocabulary defers snapshots only because that order was not
// guaranteed there.
//
// A lossless snapshot of a 30-item run with item-level events is some 600
// lines. Options make it smaller: [WithoutEvents] leaves the events out, and
// [DecisionsOnly] keeps only the included and excluded lists, one entry per
// line (a few dozen lines for 30 items):
//
//	snapshot.Match(t, "agent_turn", &report, snapshot.DecisionsOnly())
//
// Run the tests with GOLDIE_UPDATE=1 (or goldie's own -update flag) to
// write or rewrite the golden files; review the change like code. A
// mismatch fails the test with goldie's unified diff (Expected / Actual)
// of the two JSON texts; a missing golden file fails the test and says how
// to create it.
//
// This package is separate from cupeltest because goldie registers the
// -update, -clean and -template flags on the default flag set of every
// binary that imports it, which would clash with a test's own -update flag.
package snapshot
