package cupel

import (
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/cupel-go/go-cupel/cupel/internal/rules"
)

// BudgetSpec holds the fields of a [ContextBudget] to be built by [NewBudget]
// (spec chapter 03 (ContextBudget)).
type BudgetSpec struct {
	// MaxTokens is the hard ceiling: the model's context window. >= 0.
	MaxTokens int
	// TargetTokens is the soft goal the slicer aims for. 0 <= TargetTokens <= MaxTokens.
	TargetTokens int
	// OutputReserve is carved out for the model's answer. 0 <= OutputReserve <= MaxTokens.
	OutputReserve int
	// ReservedSlots reserves tokens per kind; each value >= 0, and no two keys
	// may be the same kind under ASCII case folding.
	ReservedSlots map[ContextKind]int
	// EstimationSafetyMarginPercent is a buffer for estimated token counts, in [0, 100].
	EstimationSafetyMarginPercent float64
}

// ContextBudget is a validated, immutable token budget. Build it with
// [NewBudget]; the zero value is the budget with every field zero (a valid
// budget that selects nothing but zero-token items).
type ContextBudget struct {
	maxTokens      int
	targetTokens   int
	outputReserve  int
	reservedSlots  []reservedSlot // in kind-key order, for deterministic iteration
	reservedTokens int
	marginPercent  float64
}

type reservedSlot struct {
	kind   ContextKind
	tokens int
}

// NewBudget validates spec against the seven rules of spec chapter
// 03 (ContextBudget) and returns the budget, or a [*ValidationError] wrapping
// [ErrInvalidBudget] (or a [*TokenOverflowError] when the reserved slots'
// sum does not fit in an int).
func NewBudget(spec BudgetSpec) (ContextBudget, error) {
	switch {
	case spec.MaxTokens < 0:
		return ContextBudget{}, invalidBudget("maxTokens", spec.MaxTokens, "must be >= 0")
	case spec.TargetTokens < 0:
		return ContextBudget{}, invalidBudget("targetTokens", spec.TargetTokens, "must be >= 0")
	case spec.TargetTokens > spec.MaxTokens:
		return ContextBudget{}, invalidBudget("targetTokens", spec.TargetTokens, "must be <= maxTokens ("+itoa(spec.MaxTokens)+")")
	case spec.OutputReserve < 0:
		return ContextBudget{}, invalidBudget("outputReserve", spec.OutputReserve, "must be >= 0")
	case spec.OutputReserve > spec.MaxTokens:
		return ContextBudget{}, invalidBudget("outputReserve", spec.OutputReserve, "must be <= maxTokens ("+itoa(spec.MaxTokens)+")")
	case math.IsNaN(spec.EstimationSafetyMarginPercent) || spec.EstimationSafetyMarginPercent < 0 || spec.EstimationSafetyMarginPercent > 100:
		return ContextBudget{}, invalidBudget("estimationSafetyMarginPercent", spec.EstimationSafetyMarginPercent, "must be in [0, 100]")
	}
	b := ContextBudget{
		maxTokens:     spec.MaxTokens,
		targetTokens:  spec.TargetTokens,
		outputReserve: spec.OutputReserve,
		marginPercent: spec.EstimationSafetyMarginPercent,
	}
	if len(spec.ReservedSlots) > 0 {
		kinds := slices.SortedFunc(maps.Keys(spec.ReservedSlots), func(a, b ContextKind) int {
			if c := strings.Compare(a.Key(), b.Key()); c != 0 {
				return c
			}
			return strings.Compare(string(a), string(b))
		})
		b.reservedSlots = make([]reservedSlot, 0, len(kinds))
		for i, k := range kinds {
			v := spec.ReservedSlots[k]
			field := "reservedSlots[" + string(k) + "]"
			if isBlank(string(k)) {
				return ContextBudget{}, invalidBudget("reservedSlots", string(k), "kind must not be empty or white space")
			}
			if v < 0 {
				return ContextBudget{}, invalidBudget(field, v, "must be >= 0")
			}
			if i > 0 && kinds[i-1].Equal(k) {
				return ContextBudget{}, invalidBudget(field, v, "duplicates kind "+string(kinds[i-1])+" (kinds compare case-insensitively)")
			}
			sum, ok := rules.AddTokens(b.reservedTokens, v)
			if !ok {
				return ContextBudget{}, &TokenOverflowError{What: "reservedSlots"}
			}
			b.reservedTokens = sum
			b.reservedSlots = append(b.reservedSlots, reservedSlot{k, v})
		}
	}
	return b, nil
}

// MaxTokens returns the hard ceiling.
func (b ContextBudget) MaxTokens() int { return b.maxTokens }

// TargetTokens returns the soft goal.
func (b ContextBudget) TargetTokens() int { return b.targetTokens }

// OutputReserve returns the tokens reserved for output.
func (b ContextBudget) OutputReserve() int { return b.outputReserve }

// ReservedSlots returns a copy of the per-kind reservations (nil when none).
func (b ContextBudget) ReservedSlots() map[ContextKind]int {
	if len(b.reservedSlots) == 0 {
		return nil
	}
	m := make(map[ContextKind]int, len(b.reservedSlots))
	for _, s := range b.reservedSlots {
		m[s.kind] = s.tokens
	}
	return m
}

// ReservedTokens returns the sum of the reserved slots.
func (b ContextBudget) ReservedTokens() int { return b.reservedTokens }

// EstimationSafetyMarginPercent returns the safety margin in percent.
func (b ContextBudget) EstimationSafetyMarginPercent() float64 { return b.marginPercent }

// Spec returns the budget's fields as a BudgetSpec, for building a modified copy.
func (b ContextBudget) Spec() BudgetSpec {
	return BudgetSpec{
		MaxTokens:                     b.maxTokens,
		TargetTokens:                  b.targetTokens,
		OutputReserve:                 b.outputReserve,
		ReservedSlots:                 b.ReservedSlots(),
		EstimationSafetyMarginPercent: b.marginPercent,
	}
}

// Effective returns the budget the Slice stage hands to the slicer when the
// pinned items take pinnedTokens (spec chapter 11 (Stage 5: Slice),
// COMPUTE-EFFECTIVE-BUDGET; ruling 10). Only maxTokens and
// targetTokens are set on the result:
//
//	effectiveMax    = max(0, maxTokens - outputReserve - pinnedTokens - reservedTokens)
//	effectiveTarget = min(max(0, targetTokens - pinnedTokens - reservedTokens), effectiveMax)
//	with a margin m > 0, both are multiplied by (1 - m/100) and floored, and
//	effectiveTarget is clamped to effectiveMax again.
//
// The subtractions saturate instead of wrapping for any int inputs.
func (b ContextBudget) Effective(pinnedTokens int) ContextBudget {
	effMax := max(0, satSub(satSub(satSub(b.maxTokens, b.outputReserve), pinnedTokens), b.reservedTokens))
	effTarget := max(0, satSub(satSub(b.targetTokens, pinnedTokens), b.reservedTokens))
	effTarget = min(effTarget, effMax)
	if b.marginPercent > 0 {
		mult := 1.0 - b.marginPercent/100.0
		effMax = rules.FloorMul(effMax, mult)
		effTarget = rules.FloorMul(effTarget, mult)
		effTarget = min(effTarget, effMax)
	}
	return ContextBudget{maxTokens: effMax, targetTokens: effTarget}
}

// satSub returns a-b, saturating at the int range instead of wrapping.
func satSub(a, b int) int {
	d := a - b
	if b > 0 && d > a {
		return math.MinInt
	}
	if b < 0 && d < a {
		return math.MaxInt
	}
	return d
}

// sliceBudget builds the two-field budget handed to slicers; values are
// clamped so that the result is always a valid budget.
func sliceBudget(maxTokens, targetTokens int) ContextBudget {
	maxTokens = max(0, maxTokens)
	targetTokens = min(max(0, targetTokens), maxTokens)
	return ContextBudget{maxTokens: maxTokens, targetTokens: targetTokens}
}

func itoa(i int) string { return formatInt(int64(i)) }
