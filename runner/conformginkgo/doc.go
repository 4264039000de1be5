// Package conformginkgo is the Ginkgo front end of the Cupel conformance
// runner, beside the go test gate of package conformtest: a Go
// implementation whose tests are a Ginkgo suite gates itself with one
// declaration,
//
//	var _ = Describe("Cupel conformance", func() {
//		conformginkgo.Gate(func() runner.Implementation { return myImpl{} },
//			runner.Options{RequireLevel: runner.LevelConformant})
//	})
//
// Gate declares one spec per case, named by the case id and labelled by
// its tier and stage, so ginkgo --label-filter='required && scoring'
// selects the required scoring cases; and, when the options have a
// target level, a last spec "conformance level" (labelled "level").
//
// Each spec runs its own case, so ginkgo -p spreads the cases over its
// processes, and each process runs the implementation for its own specs
// only (it starts one, on its first spec). Every spec renders the run's
// one verdict (docs/verdicts.md), deciding nothing itself: a gated case
// fails its spec; a warning (an optional case the target does not
// require) and an expected failure skip theirs with the reason. The level
// spec is Serial: Ginkgo runs it on process 1 after every parallel spec,
// and it gathers the results of all processes, computes
// [runner.Report.Verdict] once and fails exactly when the level misses the
// target. So the suite fails exactly when [runner.Check] would, and
// Ginkgo's own --junit-report carries the same verdict as every other
// surface. A run that a label filter or a focus narrowed claims no level:
// it is judged strictly on the cases it ran, and the level spec skips.
package conformginkgo
