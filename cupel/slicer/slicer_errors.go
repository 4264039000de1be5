package slicer

import (
	"fmt"

	"github.com/cupel-go/go-cupel/cupel"
)

// CountRequirementError is returned by a count-quota slicer under
// ScarcityThrow when a kind has fewer candidates than its requireCount.
type CountRequirementError struct {
	// Slicer is "CountQuotaSlice" or "CountConstrainedKnapsackSlice".
	Slicer       string
	Kind         cupel.ContextKind
	Satisfied    int
	RequireCount int
}

// Error returns the spec's message (chapter 30 (CountConstrainedKnapsackSlice)).
func (e *CountRequirementError) Error() string {
	return fmt.Sprintf("%s: candidate pool for kind '%s' has %d items but RequireCount is %d.", e.Slicer, e.Kind, e.Satisfied, e.RequireCount)
}

// Unwrap returns ErrCountRequirementUnmet.
func (e *CountRequirementError) Unwrap() error { return cupel.ErrCountRequirementUnmet }

// TableTooLargeError is returned by a knapsack slicer whose table would have
// more cells than its limit (ruling 19).
type TableTooLargeError struct {
	Candidates int
	Capacity   int
	Cells      int64
	Limit      int64
}

// Error names candidates, capacity and cells.
func (e *TableTooLargeError) Error() string {
	return fmt.Sprintf("cupel: knapsack table too large: %d candidates x %d capacity = %d cells exceeds the limit of %d", e.Candidates, e.Capacity, e.Cells, e.Limit)
}

// Unwrap returns ErrTableTooLarge.
func (e *TableTooLargeError) Unwrap() error { return cupel.ErrTableTooLarge }
