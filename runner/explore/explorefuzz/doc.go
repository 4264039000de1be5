// Package explorefuzz runs cupel-conform explore as a native Go fuzz
// target: [Fuzz] turns each input of go test -fuzz into a case of
// explore's generator (or, for a vector file, into that vector's case),
// runs it on the implementation and on go-cupel, and fails on a
// divergence, after shrinking it and writing it as a vector as explore
// does. With a Go implementation under test, the fuzzer steers generation
// by that implementation's coverage.
//
// It is a package of its own because it imports testing, which package
// runner must not. See docs/fuzzing.md.
package explorefuzz
