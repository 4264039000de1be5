package cupel

import "errors"

// The budget-simulation guard messages of spec chapter 40 (Budget Simulation).
const (
	marginalGuardMessage  = "GetMarginalItems requires monotonic item inclusion. QuotaSlice produces non-monotonic inclusion as budget changes shift percentage allocations."
	minBudgetGuardMessage = "FindMinBudgetFor requires monotonic item inclusion. QuotaSlice and CountQuotaSlice produce non-monotonic inclusion as budget changes shift allocations. Use a GreedySlice or KnapsackSlice inner slicer for budget simulation."
)

// GetMarginalItems returns the items included at budget but not when the
// budget shrinks by slackTokens (spec chapter 40 (Budget Simulation);
// ruling 22), in the full run's placed order, compared by identity.
//
// The reduced budget is budget with maxTokens and targetTokens lowered by
// slackTokens and the same outputReserve, reserved slots and safety margin.
// slackTokens = 0 returns nothing. A negative slack, or one that makes the
// reduced budget invalid, is an error wrapping ErrInvalidArgument. A pipeline
// with a QuotaSlice is refused with a [*NonMonotonicSlicerError]. Errors of
// the underlying dry runs are returned as they are.
func (p *Pipeline) GetMarginalItems(items []*ContextItem, budget ContextBudget, slackTokens int) ([]*ContextItem, error) {
	if isQuotaSlice(p.slicer) {
		return nil, &NonMonotonicSlicerError{Method: "GetMarginalItems", Message: marginalGuardMessage}
	}
	if slackTokens < 0 {
		return nil, invalidArgument("GetMarginalItems", "slackTokens", slackTokens, "must be >= 0")
	}
	spec := budget.Spec()
	spec.MaxTokens -= slackTokens
	spec.TargetTokens -= slackTokens
	reduced, err := NewBudget(spec)
	if err != nil {
		return nil, invalidArgument("GetMarginalItems", "slackTokens", slackTokens, "makes the reduced budget invalid: "+err.Error())
	}
	if slackTokens == 0 {
		return nil, nil
	}
	primary, err := p.includedSet(items, budget)
	if err != nil {
		return nil, err
	}
	margin, err := p.includedSet(items, reduced)
	if err != nil {
		return nil, err
	}
	var out []*ContextItem
	for _, it := range primary.order {
		if margin.count[it] > 0 {
			margin.count[it]--
			continue
		}
		out = append(out, it)
	}
	return out, nil
}

// FindMinBudgetFor returns the smallest budget B in [target.Tokens(),
// searchCeiling] at which target is included when the pipeline runs under
// ContextBudget(maxTokens: B, targetTokens: B), and whether there is one
// (spec chapter 40 (Budget Simulation); ruling 21). It binary-searches,
// then checks the lower bound first and the upper bound second, so a minimum
// equal to the item's own tokens is found.
//
// target must be one of items (by identity) and searchCeiling >=
// target.Tokens(); otherwise the error wraps ErrInvalidArgument. Pipelines
// with a QuotaSlice, CountQuotaSlice or CountConstrainedKnapsackSlice are
// refused with a [*NonMonotonicSlicerError]. A budget at which the run fails
// because pinned items do not fit, or overflow under OverflowThrow, counts as
// one at which target is not included; other errors are returned.
func (p *Pipeline) FindMinBudgetFor(items []*ContextItem, target *ContextItem, searchCeiling int) (int, bool, error) {
	if isQuotaSlice(p.slicer) || isCountQuotaSlice(p.slicer) {
		return 0, false, &NonMonotonicSlicerError{Method: "FindMinBudgetFor", Message: minBudgetGuardMessage}
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
	if searchCeiling < target.tokens {
		return 0, false, invalidArgument("FindMinBudgetFor", "searchCeiling", searchCeiling, "must be >= targetItem.Tokens ("+itoa(target.tokens)+")")
	}
	if target.tokens < 0 {
		return 0, false, nil // excluded at Classify under every budget
	}
	includedAt := func(b int) (bool, error) {
		budget := ContextBudget{maxTokens: b, targetTokens: b}
		set, err := p.includedSet(items, budget)
		if errors.Is(err, ErrPinnedExceedsBudget) || errors.Is(err, ErrOverflow) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		return set.count[target] > 0, nil
	}
	low, high := target.tokens, searchCeiling
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
	order []*ContextItem
	count map[*ContextItem]int
}

// includedSet runs the pipeline with a report and returns what it included.
func (p *Pipeline) includedSet(items []*ContextItem, budget ContextBudget) (includedItems, error) {
	_, rep, err := p.dryRun(items, budget)
	if err != nil {
		return includedItems{}, err
	}
	s := includedItems{order: make([]*ContextItem, len(rep.Included)), count: make(map[*ContextItem]int, len(rep.Included))}
	for i, in := range rep.Included {
		s.order[i] = in.Item
		s.count[in.Item]++
	}
	return s, nil
}
