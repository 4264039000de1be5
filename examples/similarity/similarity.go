// Package similarity is an example of a custom scorer written with the
// pipeline's fast path, [cupel.BatchScorer], and checked against the scorer
// contract by cupeltest.TestScorer in its test.
//
// A retriever attaches to each candidate the cosine similarity of its
// embedding with the query, under the metadata key "embedding_similarity".
// [Scorer] scores an item by that similarity relative to the best candidate
// of the turn: similarity / highest similarity, so the best match scores 1.
// Being relative, the per-item Score has to look at every item to find the
// highest similarity, which makes N calls O(N^2); ScoreAll finds it once and
// scores all N items in O(N). The pipeline takes ScoreAll whenever a scorer
// has it.
package similarity

import (
	"math"
	"strconv"

	"github.com/cupel-go/go-cupel/cupel"
)

// Key is the metadata key the retriever writes the similarity under.
const Key = "embedding_similarity"

// Scorer scores items by their embedding similarity relative to the most
// similar item. It has no state, so one value serves concurrent pipelines.
type Scorer struct{}

var _ cupel.BatchScorer = Scorer{}

// Similarity returns the item's similarity in [0, 1]: the metadata value
// (a float64, or a string holding a decimal number), negative similarities
// as 0 and values above 1 as 1. An item without a usable value (missing,
// another type, NaN or infinite) has similarity 0, as has a nil item.
func Similarity(it *cupel.ContextItem) float64 {
	if it == nil {
		return 0
	}
	v, ok := it.MetadataValue(Key)
	if !ok {
		return 0
	}
	var f float64
	switch v := v.(type) {
	case float64:
		f = v
	case string:
		var err error
		if f, err = strconv.ParseFloat(v, 64); err != nil {
			return 0
		}
	default:
		return 0
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return min(1, max(0, f))
}

// Score returns Similarity(item) divided by the highest similarity in all,
// or 0 when no item of all has a positive similarity.
func (Scorer) Score(item *cupel.ContextItem, all []*cupel.ContextItem) float64 {
	return relative(Similarity(item), best(all))
}

// ScoreAll writes Score(items[i], items) into out[i] for every i, finding
// the highest similarity once.
func (Scorer) ScoreAll(items []*cupel.ContextItem, out []float64) {
	b := best(items)
	for i, it := range items {
		out[i] = relative(Similarity(it), b)
	}
}

func best(items []*cupel.ContextItem) float64 {
	b := 0.0
	for _, it := range items {
		b = max(b, Similarity(it))
	}
	return b
}

func relative(s, best float64) float64 {
	if best == 0 {
		return 0
	}
	return s / best
}
