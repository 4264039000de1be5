// Package testtool decides, in one place, what a test does when an outside
// tool it needs (python3, chromium, xmllint, node) is missing: it skips,
// saying why, on a developer's machine, and fails under CI=true, where
// .ci/run installs the tool and its absence means the check did not run.
//
// It works with a *testing.T and with Ginkgo's GinkgoT().
package testtool
