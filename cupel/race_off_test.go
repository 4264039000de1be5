//go:build !race

package cupel_test

// raceEnabled is true when the tests run under the race detector, which
// slows the large-input specs down about tenfold.
const raceEnabled = false
