// Package runner is the Cupel conformance runner: it loads a suite of TOML
// vectors into canonical cases, drives an implementation, compares every
// output and computes the conformance level. It is the library behind the
// cupel-conform command and the go test gate of package
// runner/conformtest.
//
// # The API
//
//   - [Implementation] is what is tested: [Engine] (go-cupel in process),
//     [Process] (any program speaking the cupel-conform/1 protocol of
//     PROTOCOL.md, as one session or one process per case), or any Go
//     value with the two methods. The optional methods an implementation
//     may add are the interfaces [RestartCounter], [TimeoutGracer],
//     [StderrReporter] and [Forker] (copies of itself, for
//     [Options.Parallel]); one that is an io.Closer is closed after the
//     run.
//   - [Run] runs a suite (the embedded one by default) with the filters,
//     timeouts and [Expectations] of [Options], and returns a [Report]:
//     per-case [Status], counts, and the [Level] reached. [Report.Err] is
//     the verdict as an error, and [Check] is Run and Err in one call, in
//     the manner of testing/fstest.TestFS.
//   - [LoadSuite] turns vector files (the format of vectors/README.md, TOML
//     1.1) into [Case] values: canonical, JSON-able inputs ([Input], what
//     an implementation receives, as a [Request]) and expectations
//     ([Expect]). A file that cannot be loaded becomes a [SuiteError] with
//     file, line and reason.
//   - [Compare] judges one [Result] against a case: scores within epsilon,
//     selections as multisets, orders in order, expected error kinds,
//     shortfalls, overflow, diagnostics in full and in order. The runner
//     does every comparison; an implementation's answer, however wrong,
//     fails its case and never stops the run.
//   - [Serve] puts any Implementation behind the protocol.
//   - [Start] and [Execution] step a run one case at a time, for front ends
//     that run each case in a context of their own (conformtest runs each
//     in a subtest).
//
// The human, JUnit, TAP, Markdown and badge reports, the offline exchange
// and the exit codes belong to the cupel-conform command.
//
// # Gating from go test
//
//	func TestConformance(t *testing.T) {
//		conformtest.Test(t, myImpl{}, runner.Options{RequireLevel: runner.LevelConformant})
//	}
//
// # Exploring
//
// A suite checks only what its authors thought of. [Explore] (the
// `cupel-conform explore --impl-cmd CMD` command) is differential testing:
// it generates valid cases from what the implementation declares in
// hello, runs each on it and on go-cupel in process (or, with
// [ExploreOptions].Oracle, a second implementation), judges them with
// [Compare], and shrinks each distinct [Divergence] (by stage, component
// and kind of difference) to a minimal case, written as a vector file that
// Run (`cupel-conform run --suite DIR`) reproduces. Case i of a seed is
// the same on every run. [ExploreReport.Err] is the verdict: nil, or
// ErrFailed for a divergence, ErrInfrastructure for no verdict. A Go
// implementation explores itself from go test with a fixed seed and count:
//
//	rep, err := runner.Explore(ctx, myImpl{}, runner.ExploreOptions{Seed: 1, Cases: 10000, Out: t.TempDir()})
//	if err == nil {
//		err = rep.Err()
//	}
//
// A vector's expected values are go-cupel's outputs, not a derivation
// from the spec: verify them against the spec before adopting one.
// runner/EXPLORE.md in the repository is the guide: what is generated,
// the report, and what to do with what it finds.
//
// # Levels
//
// Cupel Fully Conformant: every required and optional case passes. Cupel
// Conformant: every required case passes. The level comes from the
// outcomes alone: skips, unsupported cases and expected failures that fail
// never count as passes, and a pinned case that passes (an unexpected
// pass) does. A filtered run (one that left any case out, or stopped early
// with [Options.FailFast]) claims no level. A vector file that cannot be
// loaded is the suite's fault: it never counts against the level, and
// [Report.Err] is then an infrastructure error.
//
// # The verdict
//
// [Report.Verdict] is the one decision on a run, which [Report.Err],
// [Check], conformtest and every report of cupel-conform render. Without
// a target it is strict: a failure or unsupported case not pinned by the
// expectations, or a pinned case that passes, fails the run. With
// [Options.RequireLevel] Conformant, a required case that fails or is
// unsupported fails the run, pinned or not, and an optional one is a
// warning; with Fully Conformant both tiers count. [Classify] says how
// one case counts; docs/verdicts.md in the repository has the table.
//
// # Expectations
//
// Known failures are pinned in a TOML file, one entry per case, with the
// exact failure kind (fail, error, crash, timeout or unsupported):
//
//	[[expected_failure]]
//	id = "optional/scoring/decay-future-dated-item"
//	status = "fail"
//	reason = "future-dated items are not clamped yet"
//	issue = "https://example.com/issues/12"
//
// The file is strict: an id the suite does not have is an error, and a
// pinned case that passes is an unexpected pass that fails the run.
// Expectations decide which results are gated without a target (see
// [Verdict]), never the level.
package runner
