package cupel

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error the package returns wraps exactly one of them,
// so callers can classify failures with errors.Is, and most also carry a
// typed value with the details, reachable with errors.As.
var (
	// ErrInvalidItem: a ContextItem, ContextKind or ContextSource could not be
	// built, or a pipeline input held a nil item. See [ValidationError].
	ErrInvalidItem = errors.New("cupel: invalid context item")
	// ErrInvalidBudget: a ContextBudget could not be built. See [ValidationError].
	ErrInvalidBudget = errors.New("cupel: invalid budget")
	// ErrInvalidConfig: a scorer, slicer, placer, curve, quota, entry, policy or
	// pipeline configuration is invalid. See [ValidationError].
	ErrInvalidConfig = errors.New("cupel: invalid configuration")
	// ErrPinnedExceedsBudget: pinned items need more tokens than
	// maxTokens - outputReserve (Classify stage). See [PinnedExceedsBudgetError].
	ErrPinnedExceedsBudget = errors.New("cupel: pinned items exceed the budget")
	// ErrOverflow: the merged selection exceeds targetTokens under
	// [OverflowThrow]. See [OverflowError].
	ErrOverflow = errors.New("cupel: selection exceeds the target budget")
	// ErrCountRequirementUnmet: a count-quota slicer with slicer.ScarcityThrow
	// found fewer candidates of a kind than its requireCount. See
	// slicer.CountRequirementError.
	ErrCountRequirementUnmet = errors.New("cupel: count requirement cannot be met")
	// ErrTableTooLarge: a knapsack table would exceed its cell limit
	// (ruling 19). See slicer.TableTooLargeError.
	ErrTableTooLarge = errors.New("cupel: knapsack table too large")
	// ErrTokenOverflow: a sum of token counts does not fit in an int.
	// See [TokenOverflowError].
	ErrTokenOverflow = errors.New("cupel: token count overflow")
)

// ValidationError reports an invalid value at construction time: which type
// was being built, which field (with its position, if any) was wrong, the
// value, and why. It wraps ErrInvalidItem, ErrInvalidBudget or
// ErrInvalidConfig, or ErrInvalidArgument for an argument of a call.
type ValidationError struct {
	// Type names what was being built, e.g. "ContextBudget" or "CompositeScorer".
	Type string
	// Field names the offending field, e.g. "targetTokens" or "entries[2].weight".
	Field string
	// Value is the offending value.
	Value any
	// Reason says what rule the value broke.
	Reason string

	sentinel error
}

// Error returns a message naming the type, field, value and rule.
func (e *ValidationError) Error() string {
	return fmt.Sprintf("%s: %s: %s: %s (got %s)", sentinelPrefix(e.sentinel), e.Type, e.Field, e.Reason, formatValue(e.Value))
}

// Unwrap returns the sentinel the error belongs to.
func (e *ValidationError) Unwrap() error { return e.sentinel }

func sentinelPrefix(err error) string {
	if err == nil {
		return "cupel: invalid value"
	}
	return err.Error()
}

func formatValue(v any) string {
	switch v := v.(type) {
	case string:
		return fmt.Sprintf("%q", v)
	case nil:
		return "nil"
	default:
		return fmt.Sprintf("%v", v)
	}
}

func invalidConfig(typ, field string, value any, reason string) error {
	return &ValidationError{Type: typ, Field: field, Value: value, Reason: reason, sentinel: ErrInvalidConfig}
}

func invalidBudget(field string, value any, reason string) error {
	return &ValidationError{Type: "ContextBudget", Field: field, Value: value, Reason: reason, sentinel: ErrInvalidBudget}
}

func invalidItem(field string, value any, reason string) error {
	return &ValidationError{Type: "ContextItem", Field: field, Value: value, Reason: reason, sentinel: ErrInvalidItem}
}

// PinnedExceedsBudgetError is returned when the pinned items' tokens exceed
// maxTokens - outputReserve (spec chapter 07 (Stage 1: Classify); ruling 11).
type PinnedExceedsBudgetError struct {
	PinnedTokens int
	Available    int
}

// Error returns the spec's message.
func (e *PinnedExceedsBudgetError) Error() string {
	return fmt.Sprintf("cupel: pinned items require %d tokens, but only %d are available", e.PinnedTokens, e.Available)
}

// Unwrap returns ErrPinnedExceedsBudget.
func (e *PinnedExceedsBudgetError) Unwrap() error { return ErrPinnedExceedsBudget }

// OverflowError is returned under OverflowThrow when the merged selection
// exceeds targetTokens (spec chapter 12 (Stage 6: Place)).
type OverflowError struct {
	MergedTokens int
	TargetTokens int
}

// Error returns the spec's message.
func (e *OverflowError) Error() string {
	return fmt.Sprintf("cupel: selected items require %d tokens, exceeding target budget of %d", e.MergedTokens, e.TargetTokens)
}

// Unwrap returns ErrOverflow.
func (e *OverflowError) Unwrap() error { return ErrOverflow }

// TokenOverflowError is returned when a sum of token counts would not fit in
// an int, so that no total ever wraps around silently.
type TokenOverflowError struct {
	// What names the sum, e.g. "pinned tokens" or "reservedSlots".
	What string
}

// Error names the sum that overflowed.
func (e *TokenOverflowError) Error() string {
	return fmt.Sprintf("cupel: token count overflow: the sum of %s does not fit in an int", e.What)
}

// Unwrap returns ErrTokenOverflow.
func (e *TokenOverflowError) Unwrap() error { return ErrTokenOverflow }

// ErrInvalidArgument: an argument of a call (not a construction) is invalid,
// e.g. a budget-simulation target that is not among the items.
var ErrInvalidArgument = errors.New("cupel: invalid argument")

// ErrNonMonotonicSlicer: a budget simulation was asked of a pipeline whose
// slicer does not include items monotonically in the budget (spec chapter
// 40 (Budget Simulation)). See [NonMonotonicSlicerError].
var ErrNonMonotonicSlicer = errors.New("cupel: slicer does not include items monotonically")

// NonMonotonicSlicerError carries the spec's exact message for the budget
// simulation guards (package cupel/analysis).
type NonMonotonicSlicerError struct {
	// Method is the spec's name of the simulation: "GetMarginalItems"
	// (analysis.MarginalItems) or "FindMinBudgetFor" (analysis.MinBudgetFor).
	Method string
	// Message is the specification's message.
	Message string
}

// Error returns the spec's message.
func (e *NonMonotonicSlicerError) Error() string { return e.Message }

// Unwrap returns ErrNonMonotonicSlicer.
func (e *NonMonotonicSlicerError) Unwrap() error { return ErrNonMonotonicSlicer }

func invalidArgument(typ, field string, value any, reason string) error {
	return &ValidationError{Type: typ, Field: field, Value: value, Reason: reason, sentinel: ErrInvalidArgument}
}
