//go:build !race

package runner_test

// raceEnabled is true when the tests run under the race detector. The
// specs that explore copies of the Python example skip themselves then:
// they test a Python program, not Go concurrency, and take minutes.
const raceEnabled = false
