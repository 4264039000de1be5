// Package casefile is the conformance suite's case model and loader: it turns
// vector files (the format of vectors/README.md in the repository, TOML 1.1,
// fixed by spec chapter 43) into canonical [Case] values.
//
//   - [LoadSuite] loads every .toml file of a file system (the embedded
//     suite by default) into a [Suite]; [LoadCase] loads one file.
//   - A [Case] is an [Input] (what an implementation receives: [Item]s, a
//     [Budget], and the scorer, slicer and placer as a
//     [policy.Spec], the type of go-cupel's policy files) and an
//     [Expect] (the expected scores, selection, order, error kind,
//     shortfalls, overflow and diagnostics). Input's MarshalJSON and
//     UnmarshalJSON are the one translation between that spec and the
//     protocol's JSON form of a case.
//   - A file that cannot be loaded becomes a [SuiteError] with file, line
//     and reason; a key the format does not know becomes a [KeyWarning]
//     with the line and the closest known key.
//
// Package runner runs these cases against an implementation; package
// runner/protocol carries their inputs over the wire.
package casefile
