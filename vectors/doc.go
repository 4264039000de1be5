// Package vectors embeds the go-cupel conformance suite: one TOML file per
// case under required/ and optional/, one directory per stage, and the
// README.md that documents the vector format.
//
// [FS] is the suite as an [io/fs.FS] rooted at this directory, so that a
// case's id is its path without the ".toml" suffix, for example
// "required/scoring/recency-basic". The runner package loads it by default.
package vectors
