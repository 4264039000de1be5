package slicer

import (
	"strconv"

	"github.com/cupel-go/go-cupel/internal/enginehook"
)

// ScarcityBehavior says what a count-quota slicer does when a kind has fewer
// candidates than its requireCount. The zero value is ScarcityDegrade, the
// spec's default.
type ScarcityBehavior int

// The scarcity behaviours.
const (
	// ScarcityDegrade includes what there is and records a shortfall.
	ScarcityDegrade ScarcityBehavior = iota
	// ScarcityThrow fails the slice with an error wrapping ErrCountRequirementUnmet.
	ScarcityThrow
)

// String returns "Degrade" or "Throw".
func (s ScarcityBehavior) String() string {
	switch s {
	case ScarcityDegrade:
		return "Degrade"
	case ScarcityThrow:
		return "Throw"
	}
	return "ScarcityBehavior(" + strconv.Itoa(int(s)) + ")"
}

// ParseScarcityBehavior parses "degrade" or "throw" (ASCII case insensitive).
func ParseScarcityBehavior(s string) (ScarcityBehavior, error) {
	switch {
	case enginehook.EqualASCIIFold(s, "degrade"):
		return ScarcityDegrade, nil
	case enginehook.EqualASCIIFold(s, "throw"):
		return ScarcityThrow, nil
	}
	return 0, enginehook.InvalidConfig("ScarcityBehavior", "value", s, `must be "degrade" or "throw"`)
}
