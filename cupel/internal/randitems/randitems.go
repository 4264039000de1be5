// Package randitems builds the random context items of the tests of cupel
// and of its built-in scorers: items that exercise every field a scorer
// reads, with the edge cases the spec names.
package randitems

import (
	"math"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/scorer"
)

// Kelvin is the KELVIN SIGN, which Unicode folds to "k" but ASCII folding
// does not.
const Kelvin = "\u212A"

// T0 is the instant the items' timestamps spread around.
var T0 = time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)

var tagVocab = []string{"a", "A", "b", "B", "c", "k", "K", Kelvin, "", "Topic", "topic", "TOPIC", "x" + Kelvin, "X" + Kelvin, "long-tag-name"}
var kindVocab = []cupel.ContextKind{"Message", "message", "Document", "DOCUMENT", "Memory", "ToolOutput", "SystemPrompt", "K", Kelvin, "Custom"}

// Items builds n items with ties, missing optional fields, NaN and
// infinite hints, duplicate and mixed-case tags, metadata of several types,
// repeated pointers and (when withNil) nil entries.
func Items(r *rand.Rand, n int, withNil bool) []*cupel.ContextItem {
	items := make([]*cupel.ContextItem, 0, n)
	for len(items) < n {
		if withNil && r.IntN(30) == 0 {
			items = append(items, nil)
			continue
		}
		if len(items) > 0 && r.IntN(8) == 0 {
			items = append(items, items[r.IntN(len(items))]) // same pointer again (may be nil)
			continue
		}
		spec := cupel.ItemSpec{Content: "c" + strconv.Itoa(r.IntN(5)) + string(make([]byte, r.IntN(4))), Tokens: r.IntN(100)}
		if r.IntN(3) > 0 {
			t := T0.Add(time.Duration(r.IntN(6)) * time.Hour)
			switch r.IntN(12) {
			case 0, 1, 2:
				t = T0.Add(time.Duration(r.Int64N(1e15) - 5e14))
			case 3: // outside the UnixNano range
				t = time.Date([]int{1, 1600, 2300, 9999}[r.IntN(4)], 1, 1, 0, 0, r.IntN(3), 0, time.UTC)
			}
			spec.Timestamp = &t
		}
		if r.IntN(3) > 0 {
			p := r.IntN(7) - 3
			spec.Priority = &p
		}
		switch r.IntN(8) {
		case 0:
		case 1:
			spec.FutureRelevanceHint = cupel.Ptr(math.NaN())
		case 2:
			spec.FutureRelevanceHint = cupel.Ptr(math.Inf(1 - 2*r.IntN(2)))
		default:
			spec.FutureRelevanceHint = cupel.Ptr(r.Float64()*2 - 0.5)
		}
		for range r.IntN(5) {
			spec.Tags = append(spec.Tags, tagVocab[r.IntN(len(tagVocab))])
		}
		spec.Kind = kindVocab[r.IntN(len(kindVocab))]
		spec.Metadata = map[string]any{}
		switch r.IntN(6) {
		case 0:
		case 1:
			spec.Metadata[scorer.MetadataKeyTrust] = r.Float64()*1.4 - 0.2
		case 2:
			spec.Metadata[scorer.MetadataKeyTrust] = strconv.FormatFloat(r.Float64()*1.4-0.2, 'g', -1, 64)
		case 3:
			spec.Metadata[scorer.MetadataKeyTrust] = []any{"NaN", "high", " 0.5", "0x1p-1", math.NaN(), 1}[r.IntN(6)]
		default:
			spec.Metadata["cupel:priority"] = []any{"high", "low", 1.5, nil}[r.IntN(4)]
		}
		items = append(items, cupel.MustItem(spec))
	}
	return items
}
