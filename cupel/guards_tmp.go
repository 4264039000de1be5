package cupel

// Replaced by type checks on the built-in slicers when they land.
func isQuotaSlice(Slicer) bool      { return false }
func isCountQuotaSlice(Slicer) bool { return false }
