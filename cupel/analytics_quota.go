package cupel

// QuotaUtilization is one kind's use of its percentage quota in a report.
type QuotaUtilization struct {
	Kind ContextKind
	// Require and Cap are the quota's percentages.
	Require, Cap float64
	// Tokens is the included tokens of the kind.
	Tokens int
	// Percent is Tokens as a percentage of the budget's targetTokens, the
	// amount QuotaSlice shares out (0 when targetTokens is 0).
	Percent float64
	// Utilization is Percent / Cap (0 when Cap is 0).
	Utilization float64
}

// QuotaUtilization reports, for every kind of quotas in declaration order,
// how much of its quota the included items use. Kinds compare with ASCII
// case folding.
func (r *SelectionReport) QuotaUtilization(quotas QuotaSet, budget ContextBudget) []QuotaUtilization {
	kinds := quotas.Kinds()
	out := make([]QuotaUtilization, len(kinds))
	for i, k := range kinds {
		u := QuotaUtilization{Kind: k, Require: quotas.Require(k), Cap: quotas.Cap(k), Tokens: r.includedOfKind(k, true)}
		if budget.targetTokens > 0 {
			u.Percent = float64(u.Tokens) / float64(budget.targetTokens) * 100
		}
		if u.Cap > 0 {
			u.Utilization = u.Percent / u.Cap
		}
		out[i] = u
	}
	return out
}

// CountQuotaUtilization is one kind's use of its count quota in a report.
type CountQuotaUtilization struct {
	Kind                   ContextKind
	RequireCount, CapCount int
	// Count is the number of included items of the kind.
	Count int
	// Utilization is Count / CapCount (0 when CapCount is 0).
	Utilization float64
	// Satisfied reports whether Count >= RequireCount.
	Satisfied bool
}

// CountQuotaUtilization reports, for every entry in order, how many included
// items the kind has against its require and cap counts.
func (r *SelectionReport) CountQuotaUtilization(entries []CountQuotaEntry) []CountQuotaUtilization {
	out := make([]CountQuotaUtilization, len(entries))
	for i, e := range entries {
		u := CountQuotaUtilization{Kind: e.Kind(), RequireCount: e.RequireCount(), CapCount: e.CapCount(), Count: r.includedOfKind(e.Kind(), false)}
		if u.CapCount > 0 {
			u.Utilization = float64(u.Count) / float64(u.CapCount)
		}
		u.Satisfied = u.Count >= u.RequireCount
		out[i] = u
	}
	return out
}

// includedOfKind sums the tokens (or counts the items) of an included kind.
func (r *SelectionReport) includedOfKind(k ContextKind, tokens bool) int {
	n := 0
	for _, in := range r.Included {
		if in.Item != nil && in.Item.kind.Equal(k) {
			if tokens {
				n += in.Item.tokens
			} else {
				n++
			}
		}
	}
	return n
}
