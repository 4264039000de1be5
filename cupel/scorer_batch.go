package cupel

// batchScorer is implemented by the built-in scorers. scoreAll writes the
// score of every items[i], computed against items (the Score stage's
// scorer.Score(items[i], items)), into out[i]; len(out) >= len(items).
//
// scoreAll gives exactly the results of the per-item Score path (the spec's
// pseudocode, which stays the reference) but in O(N log N) or better for N
// items instead of the pseudocode's O(N^2) for the relative scorers (and
// O(N^(depth+1)) for nested ScaledScorers). Like Score, it never panics: a
// nil items[i] gets 0 and is otherwise ignored, as if it were not in items.
type batchScorer interface {
	Scorer
	scoreAll(items []*ContextItem, out []float64)
}

// scoreBatch writes s.Score(items[i], items) into out[i] for every i, using
// the batch path of the built-in scorers and, for any other Scorer, calling
// Score once per item. A nil items[i] gets 0 without s being called (the
// per-item result of every built-in scorer), so that a custom scorer nested in
// a CompositeScorer or ScaledScorer is never handed a nil item.
func scoreBatch(s Scorer, items []*ContextItem, out []float64) {
	out = out[:len(items)]
	if b, ok := s.(batchScorer); ok {
		b.scoreAll(items, out)
		return
	}
	for i, it := range items {
		if it == nil {
			out[i] = 0
			continue
		}
		out[i] = s.Score(it, items)
	}
}

// countNonNil returns the number of non-nil entries of items. The scorers
// ignore nil entries of allItems, as if they were absent.
func countNonNil(items []*ContextItem) int {
	n := 0
	for _, it := range items {
		if it != nil {
			n++
		}
	}
	return n
}

// floatBuf returns a slice of n float64s, reusing buf when it is large enough.
func floatBuf(buf []float64, n int) []float64 {
	if cap(buf) >= n {
		return buf[:n]
	}
	return make([]float64, n)
}
