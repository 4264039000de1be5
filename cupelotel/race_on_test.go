//go:build race

package cupelotel_test

// raceEnabled is true under the race detector, where sync.Pool (used by the
// engine) drops buffers at random and allocation counts are not reproducible.
const raceEnabled = true
