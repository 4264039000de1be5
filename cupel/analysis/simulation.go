package analysis

import (
	"errors"
	"strconv"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/internal/enginehook"
)

// The budget-simulation guard messages of spec chapter 40 (Budget Simulation).
const (
	marginalGuardMessage  = "GetMarginalItems requires monotonic item inclusion. QuotaSlice produces non-monotonic inclusion as budget changes shift percentage allocations."
	minBudgetGuardMessage = "FindMinBudgetFor requires monotonic item inclusion. QuotaSlice and CountQuotaSlice produce non-monotonic inclusion as budget changes shift allocations. Use a GreedySlice or KnapsackSlice inner slicer for budget simulation."
)

// MarginalItems returns the items p includes at budget but not when the
// budget shrinks by slackTokens: the spec's GetMarginalItems (spec chapter 40
// (Budget Simulation); ruling 22), in the full run's placed order, compared
// by identity.
//
// The reduced budget is budget with maxTokens and targetTokens lowered by
// slackTokens and the same outputReserve, reserved slots and safety margin.
// slackTokens = 0 returns nothing. A negative slack, or one that makes the
// reduced budget invalid, is an error wrapping [cupel.ErrInvalidArgument]. A
// pipeline with a QuotaSlice is refused with a
// [*cupel.NonMonotonicSlicerError]. Errors of the underlying dry runs are
// returned as they are.
func MarginalItems(p *cupel.Pipeline, items []*cupel.ContextItem, budget cupel.ContextBudget, slackTokens int) ([]*cupel.ContextItem, error) {
	if isQuotaSlice(p.Config().Slicer) {
		return nil, &cupel.NonMonotonicSlicerError{Method: "GetMarginalItems", Message: marginalGuardMessage}
	}
	if slackTokens < 0 {
		return nil, invalidArgument("GetMarginalItems", "slackTokens", slackTokens, "must be >= 0")
	}
	spec := budget.Spec()
	spec.MaxTokens -= slackTokens
	spec.TargetTokens -= slackTokens
	reduced, err := cupel.NewBudget(spec)
	if err != nil {
		return nil, invalidArgument("GetMarginalItems", "slackTokens", slackTokens, "makes the reduced budget invalid: "+err.Error())
	}
	if slackTokens == 0 {
		return nil, nil
	}
	primary, err := includedSet(p, items, budget)
	if err != nil {
		return nil, err
	}
	margin, err := includedSet(p, items, reduced)
	if err != nil {
		return nil, err
	}
	var out []*cupel.ContextItem
	for _, it := range primary.order {
		if margin.count[it] > 0 {
			margin.count[it]--
			continue
		}
		out = append(out, it)
	}
	return out, nil
}

// MinBudgetFor returns the smallest budget B in [target.Tokens(),
// searchCeiling] at which p includes target when it runs under
// ContextBudget(maxTokens: B, targetTokens: B), and whether there is one: the
// spec's FindMinBudgetFor (spec chapter 40 (Budget Simulation); ruling 21).
// It binary-searches, then checks the lower bound first and the upper bound
// second, so a minimum equal to the item's own tokens is found.
//
// target must be one of items (by identity) and searchCeiling >=
// target.Tokens(); otherwise the error wraps [cupel.ErrInvalidArgument].
// Pipelines with a QuotaSlice, CountQuotaSlice or
// CountConstrainedKnapsackSlice are refused with a
// [*cupel.NonMonotonicSlicerError]. A budget at which the run fails because
// pinned items do not fit, or overflow under OverflowThrow, counts as one at
// which target is not included; other errors are returned.
func MinBudgetFor(p *cupel.Pipeline, items []*cupel.ContextItem, target *cupel.ContextItem, searchCeiling int) (int, bool, error) {
	if sl := p.Config().Slicer; isQuotaSlice(sl) || isCountQuotaSlice(sl) {
		return 0, false, &cupel.NonMonotonicSlicerError{Method: "FindMinBudgetFor", Message: minBudgetGuardMessage}
	}
	found := false
	for _, it := range items {
		if it == target && it != nil {
			found = true
			break
		}
	}
	if !found {
		return 0, false, invalidArgument("FindMinBudgetFor", "targetItem", nil, "must be an element of items")
	}
	tokens := target.Tokens()
	if searchCeiling < tokens {
		return 0, false, invalidArgument("FindMinBudgetFor", "searchCeiling", searchCeiling, "must be >= targetItem.Tokens ("+strconv.Itoa(tokens)+")")
	}
	if tokens < 0 {
		return 0, false, nil // excluded at Classify under every budget
	}
	includedAt := func(b int) (bool, error) {
		budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: b, TargetTokens: b})
		if err != nil {
			return false, err
		}
		set, err := includedSet(p, items, budget)
		if errors.Is(err, cupel.ErrPinnedExceedsBudget) || errors.Is(err, cupel.ErrOverflow) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		return set.count[target] > 0, nil
	}
	low, high := tokens, searchCeiling
	for high-low > 1 {
		mid := low + (high-low)/2
		ok, err := includedAt(mid)
		if err != nil {
			return 0, false, err
		}
		if ok {
			high = mid
		} else {
			low = mid
		}
	}
	for _, b := range []int{low, high} {
		ok, err := includedAt(b)
		if err != nil {
			return 0, false, err
		}
		if ok {
			return b, true, nil
		}
	}
	return 0, false, nil
}

type includedItems struct {
	order []*cupel.ContextItem
	count map[*cupel.ContextItem]int
}

// includedSet runs the pipeline with a report and returns what it included.
func includedSet(p *cupel.Pipeline, items []*cupel.ContextItem, budget cupel.ContextBudget) (includedItems, error) {
	_, rep, err := dryRun(p, items, budget)
	if err != nil {
		return includedItems{}, err
	}
	s := includedItems{order: make([]*cupel.ContextItem, len(rep.Included)), count: make(map[*cupel.ContextItem]int, len(rep.Included))}
	for i, in := range rep.Included {
		s.order[i] = in.Item
		s.count[in.Item]++
	}
	return s, nil
}

// invalidArgument is the error of an invalid argument, as package cupel
// reports one: a *cupel.ValidationError wrapping cupel.ErrInvalidArgument.
func invalidArgument(fn, param string, value any, reason string) error {
	return enginehook.InvalidArgument(fn, param, value, reason)
}
