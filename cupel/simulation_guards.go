package cupel

// isQuotaSlice reports whether s is a QuotaSlice, whose inclusion is not
// monotonic in the budget (spec chapter 40 (Budget Simulation)).
func isQuotaSlice(s Slicer) bool {
	_, ok := s.(*QuotaSlice)
	return ok
}

// isCountQuotaSlice reports whether s is a count-quota slicer (CountQuotaSlice
// or CountConstrainedKnapsackSlice), refused by FindMinBudgetFor
// (ruling 21).
func isCountQuotaSlice(s Slicer) bool {
	switch s.(type) {
	case *CountQuotaSlice, *CountConstrainedKnapsackSlice:
		return true
	}
	return false
}
