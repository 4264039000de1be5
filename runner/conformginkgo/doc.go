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
// selects the required scoring cases; and a last spec "conformance level"
// (labelled "level"), which skips when the options have no target level.
// Every spec is located at the call of Gate: Ginkgo's spec headers and its
// JSON report point there. (Ginkgo's "In [It] at:" line and its
// summary give the line where Fail was called, which is in this package:
// Ginkgo takes it from the failing goroutine's stack, where the call of
// Gate is not.)
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
//
// The processes of a parallel run share their results in a directory of
// os.TempDir named after the ginkgo command that started them (its
// process id and start time) and the run's seed; a ReportAfterEach of the
// level spec removes it on process 1, whether the spec ran, was skipped
// (a filter, --fail-fast) or was interrupted.
//
// A run with no verdict (the implementation did not start, its restart
// budget ran out, the run was interrupted) fails one spec, the first of
// any process to meet it, with the reason and the tail of the
// implementation's stderr; every other spec skips, not run. A failure's
// detail is capped as cupel-conform's text report caps it: 30 problems of
// a case, and the first 30 failures of each process in full (the others
// give their one-line message).
package conformginkgo
