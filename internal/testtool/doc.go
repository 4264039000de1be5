// Package testtool decides, in one place, what a test does when an outside
// tool it needs (python3, chromium, xmllint, node) is missing: it skips,
// saying why, on a developer's machine, and fails under CI=true, where
// .ci/run installs the tool and its absence means the check did not run.
//
// It works with a *testing.T and with Ginkgo's GinkgoT().
//
// It also tells a test whether it runs under the race detector ([Race]), so
// that a property loop can run fewer iterations there ([Iterations]).
package testtool
