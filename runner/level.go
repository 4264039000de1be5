package runner

import (
	"errors"
	"fmt"
)

// ErrUsage is matched by errors in how the runner was asked to run: bad
// filters, a filter that selects nothing, unknown ids in the expected failures.
var ErrUsage = errors.New("usage error")

// Level is a conformance level.
type Level string

// Conformance levels.
const (
	LevelNone            Level = "none"
	LevelConformant      Level = "conformant"
	LevelFullyConformant Level = "fully-conformant"
)

func (l Level) rank() int {
	switch l {
	case LevelConformant:
		return 1
	case LevelFullyConformant:
		return 2
	}
	return 0
}

// AtLeast reports whether l meets the target level.
func (l Level) AtLeast(target Level) bool { return l.rank() >= target.rank() }

// Title is the level as the spec names it.
func (l Level) Title() string {
	switch l {
	case LevelConformant:
		return "Cupel Conformant"
	case LevelFullyConformant:
		return "Cupel Fully Conformant"
	}
	return "not conformant"
}

// ParseLevel parses "conformant" or "fully-conformant" (and "none").
func ParseLevel(s string) (Level, error) {
	switch l := Level(s); l {
	case LevelNone, LevelConformant, LevelFullyConformant:
		return l, nil
	}
	return "", fmt.Errorf("%w: unknown level %q (want conformant or fully-conformant)", ErrUsage, s)
}
