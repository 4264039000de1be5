// Package rules holds the small rules package cupel and its component
// packages (cupel/slicer) share, so that each is decided in one place: how
// token counts add up and shrink, how often a long loop polls for
// cancellation, what a blank name is, and how a float64 is written in a
// message.
package rules

import (
	"math"
	"strconv"
	"strings"
)

// PollEvery is how many units of work (DP cells, items) the long loops of
// a cancellable run do between two polls of its context: a poll costs a
// few nanoseconds, a unit about one, so the checks stay well under 1% while
// a cancellation is noticed within tens of microseconds.
const PollEvery = 1 << 14

// AddTokens returns a+b, reporting false when the sum overflows int.
func AddTokens(a, b int) (int, bool) {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		return 0, false
	}
	return s, true
}

// FloorMul returns floor(v * mult) for v >= 0 and mult in [0, 1], never more
// than v (the float64 product of a huge v can round up).
func FloorMul(v int, mult float64) int {
	p := math.Floor(float64(v) * mult)
	if p >= float64(v) {
		return v
	}
	return min(int(p), v)
}

// IsBlank reports whether s is empty or white space only: a kind, source or
// name that is blank is invalid.
func IsBlank(s string) bool { return strings.TrimSpace(s) == "" }

// FormatFloat writes f as every message of the module does: the shortest
// decimal that reads back as f.
func FormatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
