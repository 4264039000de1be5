package cupel

// BudgetUtilization returns the included items' tokens divided by
// budget.MaxTokens (the testing vocabulary's PD-2), or 0 when MaxTokens is 0
// (ruling 12).
func (r *SelectionReport) BudgetUtilization(budget ContextBudget) float64 {
	if budget.maxTokens == 0 {
		return 0
	}
	return float64(r.IncludedTokens()) / float64(budget.maxTokens)
}

// IncludedTokens returns the sum of the included items' tokens.
func (r *SelectionReport) IncludedTokens() int {
	total := 0
	for _, in := range r.Included {
		if in.Item != nil {
			total += in.Item.tokens
		}
	}
	return total
}

// KindDiversity returns the number of distinct kinds (under ASCII case
// folding) among the included items.
func (r *SelectionReport) KindDiversity() int {
	seen := make(map[string]struct{}, 8)
	for _, in := range r.Included {
		if in.Item != nil {
			seen[in.Item.kind.Key()] = struct{}{}
		}
	}
	return len(seen)
}

// TimestampCoverage returns the share of included items that carry a
// timestamp, in [0, 1]; 0 when nothing was included.
func (r *SelectionReport) TimestampCoverage() float64 {
	if len(r.Included) == 0 {
		return 0
	}
	n := 0
	for _, in := range r.Included {
		if in.Item != nil && in.Item.hasTimestamp {
			n++
		}
	}
	return float64(n) / float64(len(r.Included))
}
