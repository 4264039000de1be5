package scorer

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/internal/testtool"
)

// TestKindScoreAllAgreesWithScore: Kind.ScoreAll, which remembers
// the weights of the kinds it has seen in a 16-slot table, gives every item
// Score's weight bit for bit: with the kind constants, copies of them
// (equal bytes, distinct data), case variants, prefixes of one string
// (same data, shorter length), kinds absent from the weights, and more
// distinct kinds than the table has slots.
func TestKindScoreAllAgreesWithScore(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 12))
	long := cupel.ContextKind("DocumentationAndMoreDocumentation")
	var prefixes []cupel.ContextKind // one data pointer, every length: more kinds than the table's 16 slots
	for k := 1; k <= len(long); k++ {
		prefixes = append(prefixes, long[:k])
	}
	pool := []cupel.ContextKind{cupel.KindMessage, cupel.KindDocument, cupel.KindToolOutput, cupel.KindMemory, cupel.KindSystemPrompt, "MESSAGE", "document", "Unknown"}
	for i := range 40 {
		pool = append(pool, cupel.ContextKind(fmt.Sprintf("kind-%d", i)))
	}
	pool = append(pool, prefixes...)
	weights := map[cupel.ContextKind]float64{cupel.KindMessage: 0.5, cupel.KindDocument: 1, long: 3, "kind-7": 0.25, "Kind-30": 4}
	for k := 2; k < len(long); k += 3 {
		weights[long[:k]] = float64(k)
	}
	s, err := NewKind(weights)
	if err != nil {
		t.Fatal(err)
	}
	for trial := range testtool.Iterations(200, 40) {
		from := pool[:1+r.IntN(len(pool))]
		if trial%3 == 0 {
			from = prefixes
		}
		items := make([]*cupel.ContextItem, 1+r.IntN(300))
		for i := range items {
			if r.IntN(50) == 0 {
				continue // nil
			}
			k := from[r.IntN(len(from))]
			if r.IntN(3) == 0 {
				k = cupel.ContextKind(strings.Clone(string(k)))
			}
			items[i] = cupel.MustItem(cupel.ItemSpec{Content: "c", Tokens: 1, Kind: k})
		}
		out := make([]float64, len(items))
		s.ScoreAll(items, out)
		for i, it := range items {
			if want := s.Score(it, items); math.Float64bits(out[i]) != math.Float64bits(want) {
				t.Fatalf("trial %d: item %d (kind %q): ScoreAll %v, Score %v", trial, i, it.Kind(), out[i], want)
			}
		}
	}
}
