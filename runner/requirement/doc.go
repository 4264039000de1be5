// Package requirement is the catalogue of the normative requirements of the
// Cupel specification, version 1.3, and of go-cupel's rulings
// (docs/rulings.md): one entry per RFC 2119 statement, normative algorithm
// step and edge-case table row, each with a stable id, the chapter and
// section it comes from, a short statement in the project's own words, and
// how it is tested (by conformance vectors, by go-cupel's API tests, or
// not at all, and why).
//
// The catalogue's files are embedded in package vectors
// (vectors/requirements/*.toml, one per spec chapter and one for the
// rulings); docs/requirements.md describes the format. Vectors name the
// requirements they check in [test] covers, which the runner carries to
// every report, so that a failing case says which requirement it is about.
package requirement
