package cupel_test

import (
	"strconv"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/internal/randitems"
)

// benchItems builds n deterministic candidate items as issue 7 specifies:
// tokens 10 to 2000; kinds spread over the five well-known kinds; timestamps
// over 30 days; priorities 0 to 10 on half the items; 1 to 3 tags from a pool
// of 20; futureRelevanceHint on a third; unique content; about 1% pinned items
// of 10 to 20 tokens.
func benchItems(n int) []*cupel.ContextItem {
	specs := benchSpecs(n)
	items := make([]*cupel.ContextItem, n)
	for i, spec := range specs {
		items[i] = cupel.MustItem(spec)
	}
	return items
}

// benchSpecs are the specs of benchItems(n).
func benchSpecs(n int) []cupel.ItemSpec {
	kinds := []cupel.ContextKind{cupel.KindMessage, cupel.KindDocument, cupel.KindToolOutput, cupel.KindMemory, cupel.KindSystemPrompt}
	tagPool := make([]string, 20)
	for i := range tagPool {
		tagPool[i] = "tag-" + strconv.Itoa(i)
	}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	const span = 30 * 24 * 3600
	state := uint64(0x9E3779B97F4A7C15)
	next := func() uint64 { // splitmix64: deterministic, no global state
		state += 0x9E3779B97F4A7C15
		z := state
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
		z = (z ^ (z >> 27)) * 0x94D049BB133111EB
		return z ^ (z >> 31)
	}
	specs := make([]cupel.ItemSpec, n)
	for i := range specs {
		spec := cupel.ItemSpec{
			Content: "item " + strconv.Itoa(i) + " " + strconv.FormatUint(next()%1_000_000, 36),
			Tokens:  10 + int(next()%1991),
			Kind:    kinds[next()%5],
		}
		ts := base.Add(time.Duration(next()%span) * time.Second)
		spec.Timestamp = &ts
		if next()%2 == 0 {
			spec.Priority = cupel.Ptr(int(next() % 11))
		}
		nt := 1 + int(next()%3)
		for range nt {
			spec.Tags = append(spec.Tags, tagPool[next()%20])
		}
		if next()%3 == 0 {
			spec.FutureRelevanceHint = cupel.Ptr(float64(next()%1000) / 1000)
		}
		if next()%100 == 0 {
			spec.Pinned = true
			spec.Tokens = 10 + int(next()%11)
		}
		specs[i] = spec
	}
	return specs
}

// kelvin is the KELVIN SIGN, which Unicode folds to "k" but ASCII folding
// does not.
const kelvin = randitems.Kelvin
