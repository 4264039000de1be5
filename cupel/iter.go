package cupel

import "iter"

// All returns an iterator over the context window: each item in placed
// order with its score (Items[i], Scores[i]).
//
//	for item, score := range res.All() { ... }
func (r Result) All() iter.Seq2[*ContextItem, float64] {
	return func(yield func(*ContextItem, float64) bool) {
		for i, it := range r.Items {
			score := 0.0
			if i < len(r.Scores) {
				score = r.Scores[i]
			}
			if !yield(it, score) {
				return
			}
		}
	}
}

// IncludedItems returns an iterator over the included items, in final
// placed order (spec chapter "SelectionReport"). A nil report yields nothing.
func (r *SelectionReport) IncludedItems() iter.Seq[IncludedItem] {
	return func(yield func(IncludedItem) bool) {
		if r == nil {
			return
		}
		for _, it := range r.Included {
			if !yield(it) {
				return
			}
		}
	}
}

// ExcludedItems returns an iterator over the excluded items, in the report's
// order: score descending, ties in insertion order (ruling 6). A nil report
// yields nothing.
func (r *SelectionReport) ExcludedItems() iter.Seq[ExcludedItem] {
	return r.ExcludedBy("")
}

// ExcludedBy returns an iterator over the excluded items whose reason is of
// variant v, in the report's order; v == "" yields every excluded item.
//
//	for x := range report.ExcludedBy(cupel.ExclusionBudgetExceeded) { ... }
func (r *SelectionReport) ExcludedBy(v ExclusionVariant) iter.Seq[ExcludedItem] {
	return func(yield func(ExcludedItem) bool) {
		if r == nil {
			return
		}
		for _, it := range r.Excluded {
			if v != "" && it.Reason.Variant != v {
				continue
			}
			if !yield(it) {
				return
			}
		}
	}
}

// All returns an iterator over the events kept so far, in insertion order:
// what [DiagnosticTraceCollector.Events] returns, without building the
// slice (at DetailItem a run of N items keeps about N events). Recording
// into the collector while iterating is not supported.
func (c *DiagnosticTraceCollector) All() iter.Seq[TraceEvent] {
	return func(yield func(TraceEvent) bool) {
		if c.level < DetailItem {
			for i := range c.stages {
				if !yield(c.stages[i].e) {
					return
				}
			}
			return
		}
		next := 0
		for i := range c.stages {
			if !c.items(next, c.stages[i].at, yield) || !yield(c.stages[i].e) {
				return
			}
			next = c.stages[i].at
		}
		c.items(next, len(c.decisions), yield)
	}
}
