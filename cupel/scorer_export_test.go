package cupel

// ScoreBatch exposes the batch scoring path to the tests of package cupel_test.
func ScoreBatch(s Scorer, items []*ContextItem, out []float64) { scoreBatch(s, items, out) }

// HasBatchPath reports whether s has a batch path of its own.
func HasBatchPath(s Scorer) bool {
	_, ok := s.(batchScorer)
	return ok
}
