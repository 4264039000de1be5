package slicer

import "github.com/cupel-go/go-cupel/cupel"

// QuotaUtilization is one kind's use of its percentage quota in a report.
type QuotaUtilization struct {
	Kind cupel.ContextKind
	// Require and Cap are the quota's percentages.
	Require, Cap float64
	// Tokens is the included tokens of the kind.
	Tokens int
	// Percent is Tokens as a percentage of the budget's targetTokens, the
	// amount Quota shares out (0 when targetTokens is 0).
	Percent float64
	// Utilization is Percent / Cap (0 when Cap is 0).
	Utilization float64
}

// Utilization reports, for every kind of s in declaration order, how much
// of its quota the items r included use, out of budget's targetTokens.
// Kinds compare with ASCII case folding.
func (s QuotaSet) Utilization(r *cupel.SelectionReport, budget cupel.ContextBudget) []QuotaUtilization {
	kinds := s.Kinds()
	out := make([]QuotaUtilization, len(kinds))
	for i, k := range kinds {
		u := QuotaUtilization{Kind: k, Require: s.Require(k), Cap: s.Cap(k), Tokens: includedOfKind(r, k, true)}
		if budget.TargetTokens() > 0 {
			u.Percent = float64(u.Tokens) / float64(budget.TargetTokens()) * 100
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
	Kind                   cupel.ContextKind
	RequireCount, CapCount int
	// Count is the number of included items of the kind.
	Count int
	// Utilization is Count / CapCount (0 when CapCount is 0).
	Utilization float64
	// Satisfied reports whether Count >= RequireCount.
	Satisfied bool
}

// CountUtilization reports, for every entry in order, how many items of its
// kind r included, against its require and cap counts.
func CountUtilization(r *cupel.SelectionReport, entries []CountQuotaEntry) []CountQuotaUtilization {
	out := make([]CountQuotaUtilization, len(entries))
	for i, e := range entries {
		u := CountQuotaUtilization{Kind: e.Kind(), RequireCount: e.RequireCount(), CapCount: e.CapCount(), Count: includedOfKind(r, e.Kind(), false)}
		if u.CapCount > 0 {
			u.Utilization = float64(u.Count) / float64(u.CapCount)
		}
		u.Satisfied = u.Count >= u.RequireCount
		out[i] = u
	}
	return out
}

// includedOfKind sums the tokens (or counts the items) of a kind r included.
func includedOfKind(r *cupel.SelectionReport, k cupel.ContextKind, tokens bool) int {
	n := 0
	for _, in := range r.Included {
		if in.Item != nil && in.Item.Kind().Equal(k) {
			if tokens {
				n += in.Item.Tokens()
			} else {
				n++
			}
		}
	}
	return n
}
