// Package explore is differential testing of a Cupel implementation: it
// finds what a conformance suite's authors did not think of.
//
// [Run] (the `cupel-conform explore --impl-cmd CMD` command) generates
// valid cases from what the implementation declares in hello, runs each on
// it and on go-cupel in process (or, with [Options].Oracle, a second
// implementation), judges them with runner.Compare, and shrinks each
// distinct [Divergence] (by stage, component and kind of difference) to a
// minimal case, written as a vector file that runner.Run
// (`cupel-conform run --suite DIR`) reproduces. Case i of a seed is the
// same on every run. [Report.Err] is the verdict: nil, or runner.ErrFailed
// for a divergence, protocol.ErrInfrastructure for no verdict. A Go
// implementation explores itself from go test with a fixed seed and count:
//
//	rep, err := explore.Run(ctx, myImpl{}, explore.Options{Seed: 1, Cases: 10000, Out: t.TempDir()})
//	if err == nil {
//		err = rep.Err()
//	}
//
// [Session] checks one input at a time (the native fuzz target of package
// runner/explore/explorefuzz), and [MergeReports] joins the reports of the
// shards of one exploration.
//
// A vector's expected values are go-cupel's outputs, not a derivation
// from the spec: verify them against the spec before adopting one.
// EXPLORE.md, in this directory of the repository, is the guide: what is
// generated, the report, and what to do with what it finds.
package explore
