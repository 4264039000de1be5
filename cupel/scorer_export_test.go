package cupel

// HasBatchPath reports whether s has a batch path of its own.
func HasBatchPath(s Scorer) bool {
	_, ok := s.(BatchScorer)
	return ok
}
