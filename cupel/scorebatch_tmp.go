package cupel

// scoreBatch is replaced by the batch scoring path when the scorers land.
func scoreBatch(s Scorer, items []*ContextItem, out []float64) {
	for i, it := range items {
		out[i] = s.Score(it, items)
	}
}
