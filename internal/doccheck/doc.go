// Package doccheck keeps the repository's Markdown documentation from
// drifting away from the code. Its test (go test ./internal/doccheck) reads
// every Markdown file of the repository, nested modules included, and
// checks two kinds of fenced block:
//
//   - A ```go block is a copy of Go source that the Go toolchain compiles.
//     The Go file is the one source of truth; the block is preceded by a
//     marker naming it, and must equal it byte for byte:
//
//     <!-- go: PATH -->            the whole file
//     <!-- go: PATH#NAME -->       the top-level declaration NAME (without its doc comment)
//     <!-- go: PATH#NAME.body -->  the statements of function NAME, one tab less
//     indented, without an Example's trailing "// Output:" comment
//
//     PATH is relative to the repository root. A Go file in a nested module
//     is compiled by that module's own go vet and go test.
//
//   - A block of any language preceded by <!-- file: PATH --> is a copy of
//     that whole file.
//
//   - An untagged ``` block in a README.md is a sample output. It is preceded
//     by <!-- output: exit=N -->, and is what the closest ```sh block above
//     it prints on stdout, with the exit code N, when run by sh in an empty
//     directory where examples/ is the repository's and cupel-conform is the
//     command built from this tree ("go run ./cmd/cupel-conform" stands for
//     it). Other blocks that are not output are tagged (```text).
//
// It checks the code in Go doc comments too: a code block of a doc comment
// that parses as Go (a file, declarations or statements; not a command, a
// sample output or a sketch with "...") must be lines of compiled code of
// the repository, in order and together, without their indentation: of a
// top-level declaration, a function body or a function literal (a
// function declaration is found as a literal of the same signature, so an
// Example can hold a test function). Such code is usually an Example
// function's body, compiled by go vet and go test in its module.
//
// go test ./internal/doccheck -update rewrites every block from its source.
package doccheck
