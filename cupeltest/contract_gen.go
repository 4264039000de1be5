package cupeltest

import (
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
)

// gen generates the checkers' inputs from a seed.
type gen struct {
	r      *rand.Rand
	caller []*cupel.ContextItem
	next   int
}

func newGen(c *contractConfig) *gen {
	return &gen{r: rand.New(rand.NewPCG(c.seed, c.seed^0x9e3779b97f4a7c15)), caller: c.items}
}

var (
	genKinds = []cupel.ContextKind{cupel.KindMessage, cupel.KindDocument, cupel.KindToolOutput, cupel.KindMemory, cupel.KindSystemPrompt}
	genTags  = []string{"urgent", "code", "user", "plan"}
	genEpoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
)

// item returns a new item with varied fields; zero makes it a zero-token item.
func (g *gen) item(zero bool) *cupel.ContextItem {
	g.next++
	r := g.r
	spec := cupel.ItemSpec{Content: "g" + strconv.Itoa(g.next), Kind: genKinds[r.IntN(len(genKinds))]}
	switch {
	case zero || r.IntN(8) == 0:
		spec.Tokens = 0
	default:
		spec.Tokens = 1 + r.IntN(300)
	}
	if r.IntN(2) == 0 {
		p := r.IntN(10)
		spec.Priority = &p
	}
	if r.IntN(5) < 3 {
		ts := genEpoch.Add(time.Duration(r.IntN(1000)) * time.Hour)
		spec.Timestamp = &ts
	}
	if r.IntN(2) == 0 {
		h := float64(r.IntN(101)) / 100
		spec.FutureRelevanceHint = &h
	}
	for _, t := range genTags {
		if r.IntN(3) == 0 {
			spec.Tags = append(spec.Tags, t)
		}
	}
	if r.IntN(3) == 0 {
		spec.Metadata = map[string]any{"cupel:trust": float64(r.IntN(101)) / 100}
		if r.IntN(2) == 0 {
			spec.Metadata["cupel:trust"] = strconv.FormatFloat(float64(r.IntN(101))/100, 'g', -1, 64)
		}
	}
	return cupel.MustItem(spec)
}

// plain returns n generated items.
func (g *gen) plain(n int) []*cupel.ContextItem {
	out := make([]*cupel.ContextItem, 0, n+2)
	for range n {
		out = append(out, g.item(false))
	}
	return out
}

// items returns n generated items, with some of the caller's mixed in.
func (g *gen) items(n int) []*cupel.ContextItem {
	out := g.plain(n)
	if len(g.caller) > 0 && g.r.IntN(3) == 0 {
		for range 1 + g.r.IntN(2) {
			out = append(out, g.caller[g.r.IntN(len(g.caller))])
		}
		g.r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	}
	return out
}

// size is the number of items of a generated input: 2 to 24.
func (g *gen) size() int { return 2 + g.r.IntN(23) }

// score returns a score in [0, 1], often on a coarse grid so that ties occur.
func (g *gen) score() float64 {
	if g.r.IntN(2) == 0 {
		return float64(g.r.IntN(5)) / 4
	}
	return g.r.Float64()
}

// sorted scores items and orders them as the Sort stage does: score
// descending, input order on ties.
func (g *gen) sorted(items []*cupel.ContextItem) []cupel.ScoredItem {
	out := make([]cupel.ScoredItem, len(items))
	for i, it := range items {
		out[i] = cupel.ScoredItem{Item: it, Score: g.score()}
	}
	return sortStage(out)
}

// merged builds a Place-stage input: pinned items (score 1.0) first, then the
// others by score descending.
func (g *gen) merged(items []*cupel.ContextItem) []cupel.ScoredItem {
	var pinned, rest []*cupel.ContextItem
	for _, it := range items {
		if it.Pinned() {
			pinned = append(pinned, it)
		} else {
			rest = append(rest, it)
		}
	}
	out := make([]cupel.ScoredItem, 0, len(items))
	for _, it := range pinned {
		out = append(out, cupel.ScoredItem{Item: it, Score: 1})
	}
	return append(out, g.sorted(rest)...)
}

// budget returns a budget whose target is between 0 and a little over the
// items' tokens.
func (g *gen) budget(items []*cupel.ContextItem) cupel.ContextBudget {
	total := 0
	for _, it := range items {
		total += max(0, it.Tokens())
	}
	target := g.r.IntN(total + total/5 + 2)
	b, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: target + g.r.IntN(50), TargetTokens: target})
	if err != nil {
		panic("cupeltest: generated an invalid budget: " + err.Error())
	}
	return b
}

func budgetOf(maxTokens, target int) cupel.ContextBudget {
	b, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: maxTokens, TargetTokens: target})
	if err != nil {
		panic("cupeltest: invalid edge budget: " + err.Error())
	}
	return b
}

// zeros returns n zero-token items.
func (g *gen) zeros(n int) []*cupel.ContextItem {
	out := make([]*cupel.ContextItem, n)
	for i := range out {
		out[i] = g.item(true)
	}
	return out
}

// distinct returns n generated items that differ from one another in every
// field a scorer may rank or weigh them by: content, tokens, kind,
// priority, timestamp, future-relevance hint, tags (each item has a tag of
// its own besides shared ones) and cupel:trust. Among such items no two
// tie, so a scorer's scores cannot depend on how it breaks ties.
func (g *gen) distinct(n int) []*cupel.ContextItem {
	r := g.r
	prio, hours, hint, trust, tokens := r.Perm(n), r.Perm(4*n), r.Perm(n), r.Perm(n), r.Perm(10*n)
	out := make([]*cupel.ContextItem, n)
	for i := range out {
		g.next++
		kind := cupel.ContextKind("Kind" + strconv.Itoa(i))
		if i < len(genKinds) {
			kind = genKinds[i]
		}
		ts := genEpoch.Add(time.Duration(hours[i]) * time.Hour)
		h := float64(hint[i]+1) / float64(n+1)
		spec := cupel.ItemSpec{
			Content:             "u" + strconv.Itoa(g.next),
			Tokens:              1 + tokens[i],
			Kind:                kind,
			Priority:            &prio[i],
			Timestamp:           &ts,
			FutureRelevanceHint: &h,
			Tags:                []string{"own" + strconv.Itoa(i)},
			Metadata:            map[string]any{"cupel:trust": float64(trust[i]+1) / float64(n+1)},
		}
		for _, t := range genTags {
			if r.IntN(3) == 0 {
				spec.Tags = append(spec.Tags, t)
			}
		}
		out[i] = cupel.MustItem(spec)
	}
	return out
}
