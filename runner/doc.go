// Package runner is the Cupel conformance runner: it loads a suite of TOML
// vectors into canonical cases, drives an implementation, compares every
// output and computes the conformance level. It is the library behind the
// cupel-conform command and the go test gate of package
// runner/conformtest.
//
// # The packages
//
// The conformance toolkit is four packages; each imports only those
// below it:
//
//   - runner/explore: differential testing (generate, compare, shrink,
//     save vectors); imports runner.
//   - runner (this package): run a suite, judge every result, the verdict
//     and the report; imports protocol and vector.
//   - runner/protocol: the cupel-conform/1 wire messages (PROTOCOL.md),
//     [Implementation], Serve and the supervised Process;
//     imports vector.
//   - runner/casefile: the case model and the loader of vector files.
//
// # The API
//
//   - A [Implementation] is what is tested: [Engine] (go-cupel
//     in process), a protocol.Process (any program speaking
//     cupel-conform/1, as one session or one process per case), or any Go
//     value with the two methods. Its optional methods (restarts, timeout
//     grace, stderr, Fork for [Options.Parallel]) are interfaces of
//     package protocol; one that is an io.Closer is closed after the run.
//   - [Run] runs a suite (the embedded one by default, or one loaded with
//     casefile.LoadSuite) with the filters, timeouts and [ExpectedFailures] of
//     [Options], and returns a [Report]: per-case outcome, counts, and the
//     [Level] reached. [Report.Err] is the verdict as an error, and
//     [Check] is Run and Err in one call, in the manner of
//     testing/fstest.TestFS.
//   - [Compare] judges one result against a case: scores within epsilon,
//     selections as multisets, orders in order, expected error kinds,
//     shortfalls, overflow, diagnostics in full and in order. The runner
//     does every comparison; an implementation's answer, however wrong,
//     fails its case and never stops the run.
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
// A suite checks only what its authors thought of; package runner/explore
// finds the rest by differential testing against go-cupel, and writes
// what it finds as vector files that Run reproduces.
//
// # Levels
//
// Cupel Fully Conformant: every required and optional case passes. Cupel
// Conformant: every required case passes. The level comes from the
// outcomes alone: skips, unsupported cases and expected failures that fail
// never count as passes, and an expected failure that passes (an xpass)
// does. A filtered run (one that left any case out, or stopped early
// with [Options.FailFast]) claims no level. A vector file that cannot be
// loaded is the suite's fault: it never counts against the level, and
// [Report.Err] is then an infrastructure error.
//
// # The verdict
//
// [Report.Verdict] is the one decision on a run, which [Report.Err],
// [Check], conformtest and every report of cupel-conform render. Without
// a target it is strict: a failure or unsupported case that is not an
// expected failure, or an expected failure that passes, fails the run.
// With [Options.RequireLevel] Conformant, a required case that fails or
// is unsupported fails the run, expected or not, and an optional one is a
// warning; with Fully Conformant both tiers count. [Classify] says how
// one case counts; docs/verdicts.md in the repository has the table.
//
// # Expected failures
//
// Known failures are listed in an expected failures file (TOML), one
// entry per case, with the exact outcome it fails with (fail, error,
// crash, timeout or unsupported):
//
//	[[expected_failure]]
//	id = "optional/scoring/decay-future-dated-item"
//	outcome = "fail"
//	reason = "future-dated items are not clamped yet"
//	issue = "https://example.com/issues/12"
//
// The file is strict: an id the suite does not have is an error, and a
// listed case that passes is an xpass that fails the run. Expected
// failures decide which results are gated without a target (see
// [Verdict]), never the level. docs/vocabulary.md in the repository names
// every outcome.
package runner
