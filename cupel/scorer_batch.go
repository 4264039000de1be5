package cupel

// ScoreBatch writes s.Score(items[i], items) into out[i] for every i, using
// the [BatchScorer] path where s has one and, for any other Scorer, calling
// Score once per item. A nil items[i] gets 0 without s being called (the
// per-item result of every built-in scorer), so that a custom scorer nested in
// a CompositeScorer or ScaledScorer is never handed a nil item.
//
// It returns out[:len(items)], or a new slice when out has too little
// capacity, as append does.
func ScoreBatch(s Scorer, items []*ContextItem, out []float64) []float64 {
	if cap(out) < len(items) {
		out = make([]float64, len(items))
	}
	out = out[:len(items)]
	if b, ok := s.(BatchScorer); ok {
		b.ScoreAll(items, out)
		return out
	}
	for i, it := range items {
		if it == nil {
			out[i] = 0
			continue
		}
		out[i] = s.Score(it, items)
	}
	return out
}

// floatPool recycles the buffers the composite and scaled batch paths score
// their children into.
var floatPool slicePool[float64]
