// Package runner is the Cupel conformance runner: it loads a suite of TOML
// vectors into canonical cases, drives an implementation, compares every
// output, computes the conformance level and writes reports.
//
// # Pieces
//
//   - [LoadSuite] and [LoadCase] turn vector files (the format of
//     vectors/README.md, TOML 1.1) into [Case] values: canonical, JSON-able
//     inputs ([Input]) and expectations ([Expect]). A file that cannot be
//     loaded becomes a [SuiteError] with file, line and reason.
//   - [Implementation] is what is tested: [Engine] (go-cupel in process),
//     [Process] (any program speaking the cupel-conform/1 protocol of
//     PROTOCOL.md, as one session or one process per case), [Results] (an
//     offline results file), or any Go value with the two methods.
//   - [Compare] judges one [Result]: scores within epsilon, selections as
//     multisets, orders in order, expected error kinds, shortfalls,
//     overflow, diagnostics in full and in order.
//   - [Run] and [RunSuite] run a suite with filters, timeouts and
//     [Expectations], and return a [Report]: per-case [Status], counts, and
//     the [Level] reached. [Report.ExitCode] gives cupel-conform's exit code.
//   - [WriteText], [Report.WriteJSON] (schema "cupel-conform/report/1"),
//     [WriteJUnit], [WriteTAP], [WriteMarkdown], [WriteBadge] and [Diff]
//     report.
//   - [Serve] puts any Implementation behind the protocol; [Export] and
//     [ReadResults] are the offline exchange.
//
// # Gating from go test
//
// A Go implementation gates itself with one call, in the manner of
// testing/fstest.TestFS:
//
//	func TestConformance(t *testing.T) {
//		runner.Test(t, myImpl{}, runner.Options{RequireLevel: runner.LevelConformant})
//	}
//
// [Test] runs one subtest per case, named by the case id, so that
// go test -run 'TestConformance/required/scoring' selects cases.
//
// # Levels
//
// Cupel Fully Conformant: every required and optional case passes. Cupel
// Conformant: every required case passes. Skips, expected failures and
// unsupported cases never count as passes, and a filtered run claims no
// level.
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
package runner
