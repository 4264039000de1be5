package analysis

import (
	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

// isQuotaSlice reports whether s is a QuotaSlice, whose inclusion is not
// monotonic in the budget (spec chapter 40 (Budget Simulation)). Like the
// other guard, it validates the configuration a simulation is asked of; it
// does not choose a code path.
func isQuotaSlice(s cupel.Slicer) bool {
	_, ok := s.(*slicer.Quota)
	return ok
}

// isCountQuotaSlice reports whether s is a count-quota slicer (CountQuotaSlice
// or CountConstrainedKnapsackSlice), refused by MinBudgetFor (ruling 21).
func isCountQuotaSlice(s cupel.Slicer) bool {
	switch s.(type) {
	case *slicer.CountQuota, *slicer.CountConstrainedKnapsack:
		return true
	}
	return false
}
