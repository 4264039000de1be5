//go:build race

package cupeltest_test

// raceEnabled is true when the tests run under the race detector.
const raceEnabled = true
