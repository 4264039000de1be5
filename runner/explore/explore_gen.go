package explore

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/policy"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// This file generates the cases of Run. Every case is a pure function
// of (seed, index) and of the capabilities it may use, so that a case it
// reports can be regenerated. Generated cases are valid in the vector
// format: what the loader would produce from the file the vector writer
// writes (defaults filled in, slicing items score-descending).

// exploreCaps is what generation may use: the components an implementation
// declares in hello (intersected with the oracle's).
type exploreCaps struct {
	stages, scorers, slicers, placers []string
	diagnostics                       bool
}

func newExploreCaps(impl protocol.Capabilities, oracle protocol.Capabilities, stages []string) exploreCaps {
	both := func(a, b []string) []string {
		var out []string
		for _, x := range a {
			if slices.Contains(b, x) && !slices.Contains(out, x) {
				out = append(out, x)
			}
		}
		return out
	}
	c := exploreCaps{
		scorers: both(impl.Scorers, oracle.Scorers),
		slicers: both(impl.Slicers, oracle.Slicers),
		placers: both(impl.Placers, oracle.Placers),
		diagnostics: slices.Contains(impl.Features, "diagnostics") &&
			slices.Contains(oracle.Features, "diagnostics"),
	}
	for _, st := range both(impl.Stages, oracle.Stages) {
		if len(stages) > 0 && !slices.Contains(stages, st) {
			continue
		}
		ok := false
		switch st {
		case casefile.StageScoring:
			ok = c.usableScorers() > 0
		case casefile.StageSlicing:
			ok = len(c.slicers) > 0
		case casefile.StagePlacing:
			ok = len(c.placers) > 0
		case casefile.StagePipeline:
			ok = c.usableScorers() > 0 && len(c.slicers) > 0 && len(c.placers) > 0
		}
		if ok {
			c.stages = append(c.stages, st)
		}
	}
	// Stages in report order, whatever order hello listed them in.
	slices.SortFunc(c.stages, func(a, b string) int { return slices.Index(casefile.Stages, a) - slices.Index(casefile.Stages, b) })
	return c
}

// usableScorers counts the scorers generation can build alone: composite
// and scaled need another scorer inside.
func (c exploreCaps) usableScorers() int {
	n := 0
	for _, s := range c.scorers {
		if s != "composite" && s != "scaled" {
			n++
		}
	}
	return n
}

// exploreGen generates cases. It is not safe for concurrent use.
type exploreGen struct {
	caps exploreCaps
	pcg  *rand.PCG
	r    *rand.Rand
	// leaves are the scorers that need no inner scorer.
	leaves []string
	// refTime is the reference time of the case's decay scorers: one a
	// case, as a go-cupel policy has one clock (it answers unsupported
	// to decay scorers with two).
	refTime *time.Time
	// invalid names the invalid configuration the last case was given
	// (breakConfig), "" when it is valid.
	invalid string
}

func newExploreGen(c exploreCaps) *exploreGen {
	pcg := rand.NewPCG(0, 0)
	g := &exploreGen{caps: c, pcg: pcg, r: rand.New(pcg)}
	for _, s := range c.scorers {
		if s != "composite" && s != "scaled" {
			g.leaves = append(g.leaves, s)
		}
	}
	return g
}

// Pools of values. Kinds include spellings that differ only in case (the
// spec compares kinds by ASCII case folding) and one of 65 bytes
// (genLongKind).
var (
	genKinds   = []string{"Message", "Document", "ToolOutput", "SystemPrompt", "Memory", "message", "document", "toolOutput", "TOOLOUTPUT", genLongKind}
	genSources = []string{"Chat", "Tool", "Rag", "chat"}
	genTags    = []string{"a", "b", "c", "urgent", "A"}
	genMetaKey = []string{"cupel:trust", "lang", "team", "score"}
	genMetaVal = []string{"go", "py", "x", "0.7", "1.5", "-1", "NaN", "abc", ""}
	// genMetaAny and genMetaFloat are the metadata values as interface
	// values, made once: putting a string or float into an `any` copies it
	// to the heap, for every item.
	genMetaAny   = boxAll(genMetaVal)
	genMetaFloat = boxAll([]float64{0, 0.2, 0.5, 0.8, 1, -0.5, 2, math.NaN(), math.Inf(1)})
	genBase      = time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)
	// genTimes are the extreme and special instants.
	genTimes = []time.Time{
		time.Unix(0, 0).UTC(),
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(1969, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(2024, 2, 29, 0, 0, 0, 1, time.UTC),
	}
	genHints = []float64{0, 0.1, 0.25, 0.5, 0.75, 0.9, 1, -0.5, 1.5, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 1e-300, 0.3333333333333333}
)

func (g *exploreGen) pick(list []string) string { return list[g.r.IntN(len(list))] }

// boxAll returns list's values as interface values.
func boxAll[T any](list []T) []any {
	out := make([]any, len(list))
	for i, v := range list {
		out[i] = v
	}
	return out
}

// chance is true with probability p percent.
func (g *exploreGen) chance(p int) bool { return g.r.IntN(100) < p }

// size is the item count of a case of stage, from 0 to exploreMaxItems,
// biased to small: one case in a hundred has more than 80 items
// (largeSize).
func (g *exploreGen) size(stage string) int {
	switch p := g.r.IntN(1000); {
	case p < 650:
		return g.r.IntN(7)
	case p < 920:
		return 7 + g.r.IntN(14)
	case p < 990:
		return 21 + g.r.IntN(60)
	default:
		return g.largeSize(stage)
	}
}

// exploreID is the id of generated case (seed, index) in a stage.
func exploreID(stage string, seed uint64, index int) string {
	return "explore/" + stage + "/s" + strconv.FormatUint(seed, 10) + "-i" + strconv.Itoa(index)
}

// generate returns case (seed, index). Its Expect is empty: the oracle's
// outputs fill it in.
func (g *exploreGen) generate(seed uint64, index int) *casefile.Case {
	g.pcg.Seed(seed, uint64(index))
	c := g.build()
	c.ID = exploreID(c.Stage, seed, index)
	return c
}

// generateFrom returns the case whose every choice reads src: the same
// generator, driven by a fuzzer's bytes instead of (seed, index).
func (g *exploreGen) generateFrom(src rand.Source) *casefile.Case {
	r := g.r
	g.r = rand.New(src)
	defer func() { g.r = r }()
	return g.build()
}

// build generates a case from g.r. Its ID is the caller's to set.
func (g *exploreGen) build() *casefile.Case {
	g.refTime = nil
	stage := g.caps.stages[g.r.IntN(len(g.caps.stages))]
	c := &casefile.Case{Tier: casefile.TierOptional, Stage: stage}
	n := g.size(stage)
	switch stage {
	case casefile.StageScoring:
		c.Input.Scorers = []policy.ScorerSpec{g.scorer(2)}
		c.Input.Items = g.items(n, itemGen{})
	case casefile.StageSlicing:
		c.Input.Items = g.items(n, itemGen{score: true})
		sortByScoreDesc(c.Input.Items)
		c.Input.Budget = g.budget(c.Input.Items, false)
		g.slicer(&c.Input.Spec, c.Input.Budget.TargetTokens)
	case casefile.StagePlacing:
		c.Input.Placer = g.pick(g.caps.placers)
		c.Input.Items = g.items(n, itemGen{score: true, placing: true})
	case casefile.StagePipeline:
		sc := g.scorer(2)
		if t, ok := g.largeScorer(n); ok {
			sc, _ = plainScorer(t)
		}
		c.Input.Scorers = []policy.ScorerSpec{sc}
		c.Input.Placer = g.pick(g.caps.placers)
		dedup := !g.chance(25)
		c.Input.Deduplication = &dedup
		c.Input.OverflowStrategy = []string{"throw", "truncate", "proceed"}[g.r.IntN(3)]
		c.Input.Items = g.items(n, itemGen{pipeline: true})
		c.Input.Budget = g.budget(c.Input.Items, true)
		g.slicer(&c.Input.Spec, c.Input.Budget.TargetTokens)
	}
	g.invalid = ""
	if stage != casefile.StagePlacing && g.r.IntN(1000) < invalidPerMille {
		g.breakConfig(c)
	}
	return c
}

type itemGen struct {
	score, placing, pipeline bool
}

func (g *exploreGen) items(n int, how itemGen) []casefile.Item {
	items := make([]casefile.Item, n)
	// A few shared values make ties likely.
	tieTokens := int64(1 + g.r.IntN(200))
	tieScore := float64(g.r.IntN(11)) / 10
	tieTime := genBase.Add(time.Duration(g.r.IntN(1000)) * time.Hour)
	// One allocation for the optional values of all items: the pointers
	// point into it.
	vals := make([]struct {
		prio        int64
		time        time.Time
		hint, score casefile.Float
	}, n)
	dupShare, tagShare, tagPool := g.largeShares(n)
	var tags []string // the items' tags, in blocks shared by several items
	for i := range items {
		it := casefile.Item{Index: i, Content: genContent(i), Kind: "Message", Source: "Chat"}
		if i > 0 && g.chance(dupShare) {
			it.Content = items[g.r.IntN(i)].Content // duplicate content
		}
		switch p := g.r.IntN(100); {
		case p < 15:
			it.Tokens = tieTokens
		case p < 20:
			it.Tokens = 0
		case p < 24 && how.pipeline:
			it.Tokens = -int64(1 + g.r.IntN(50))
		case p < 27:
			it.Tokens = int64(300 + g.r.IntN(2000))
		default:
			it.Tokens = int64(1 + g.r.IntN(200))
		}
		if g.chance(70) {
			it.Kind = g.pick(genKinds)
		}
		if g.chance(30) {
			it.Source = g.pick(genSources)
		}
		if g.chance(60) {
			var p int64
			switch q := g.r.IntN(100); {
			// The extremes of go-cupel's int: the spec's int64 extremes
			// on 64-bit platforms. On 32-bit ones go-cupel answers a wider
			// priority unsupported, so the generator keeps to what the
			// oracle can judge.
			case q < 3:
				p = math.MaxInt
			case q < 6:
				p = math.MinInt
			case q < 30:
				p = -int64(g.r.IntN(5))
			default:
				p = int64(g.r.IntN(6))
			}
			vals[i].prio = p
			it.Priority = &vals[i].prio
		}
		if g.chance(tagShare) {
			k := 1 + g.r.IntN(3)
			if cap(tags)-len(tags) < k {
				// A new block for this and the items after it (about
				// one tag each); earlier items keep the old one.
				tags = make([]string, 0, k+n-i)
			}
			start := len(tags)
			for ; k > 0; k-- {
				tags = append(tags, g.pick(tagPool))
			}
			it.Tags = tags[start:len(tags):len(tags)]
		}
		if g.chance(70) {
			var t time.Time
			switch q := g.r.IntN(100); {
			case q < 20:
				t = tieTime
			case q < 28:
				t = genTimes[g.r.IntN(len(genTimes))]
			case q < 38:
				t = tieTime.Add(time.Duration(1 + g.r.IntN(999))) // nanoseconds apart
			default:
				t = genBase.Add(time.Duration(g.r.IntN(100000)) * time.Minute)
			}
			vals[i].time = t
			it.Timestamp = &vals[i].time
		}
		if g.chance(65) {
			h := genHints[g.r.IntN(len(genHints))]
			if g.chance(50) {
				h = float64(g.r.IntN(101)) / 100
			}
			vals[i].hint = casefile.Float(h)
			it.FutureRelevanceHint = &vals[i].hint
		}
		if g.chance(30) {
			it.Metadata = g.metadata()
		}
		if how.pipeline && g.chance(10) {
			it.Pinned = true
		}
		if how.score {
			s := tieScore
			switch q := g.r.IntN(100); {
			case q < 30:
			case q < 36 && how.placing:
				s = []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1)}[g.r.IntN(4)]
			case q < 40:
				s = -float64(g.r.IntN(10)) / 10
			default:
				s = float64(g.r.IntN(101)) / 100
			}
			vals[i].score = casefile.Float(s)
			it.Score = &vals[i].score
		}
		items[i] = it
	}
	return items
}

func (g *exploreGen) metadata() map[string]any {
	md := map[string]any{}
	for k := 1 + g.r.IntN(2); k > 0; k-- {
		key := g.pick(genMetaKey)
		switch q := g.r.IntN(100); {
		case q < 40:
			md[key] = genMetaAny[g.r.IntN(len(genMetaAny))]
		case q < 80:
			md[key] = genMetaFloat[g.r.IntN(len(genMetaFloat))]
		default:
			md[key] = g.chance(50)
		}
	}
	return md
}

// sortByScoreDesc orders slicing items as the Sort stage hands them over:
// score descending, ties by position; indices are renumbered.
func sortByScoreDesc(items []casefile.Item) {
	// Sort the positions, not the items (a stable sort moves each item
	// many times), then put the items in that order.
	order := make([]int, len(items))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(float64(*items[b].Score), float64(*items[a].Score)) })
	// Position i takes the item at order[i]: follow each cycle of the
	// permutation, moving every item once and marking its position done.
	for i := range order {
		if order[i] < 0 {
			continue
		}
		first, j := items[i], i
		for order[j] != i {
			k := order[j]
			items[j], order[j] = items[k], -1
			j = k
		}
		items[j], order[j] = first, -1
	}
	for i := range items {
		items[i].Index = i
	}
}

func (g *exploreGen) budget(items []casefile.Item, pipeline bool) *casefile.Budget {
	var sum int64
	for _, it := range items {
		if it.Tokens > 0 {
			sum += it.Tokens
		}
	}
	target := sum * int64(20+g.r.IntN(100)) / 100
	if g.chance(10) {
		target = int64(g.r.IntN(50))
	}
	b := &casefile.Budget{TargetTokens: target, MaxTokens: target}
	if g.chance(40) {
		b.MaxTokens = target + int64(g.r.IntN(200))
	}
	if !pipeline {
		return b
	}
	if g.chance(25) {
		b.OutputReserve = int64(g.r.IntN(int(b.MaxTokens-b.TargetTokens) + 1))
	}
	if g.chance(20) {
		b.ReservedSlots = map[string]int64{}
		for _, kind := range g.kinds(1 + g.r.IntN(2)) {
			b.ReservedSlots[kind] = int64(g.r.IntN(int(b.TargetTokens/3) + 1))
		}
	}
	if g.chance(20) {
		b.EstimationSafetyMarginPercent = casefile.Float([]float64{5, 10, 12.5, 50, 100}[g.r.IntN(5)])
	}
	return b
}

// weight is a kind or tag weight: zero now and then.
func (g *exploreGen) weight() casefile.Float {
	if g.chance(5) {
		return 0
	}
	return g.positiveWeight()
}

// positiveWeight is a weight above zero, as a composite's child needs.
func (g *exploreGen) positiveWeight() casefile.Float {
	return casefile.Float(float64(1+g.r.IntN(20)) / 10)
}

// kinds returns k kinds of genKinds (k at most 6) that differ under ASCII
// case folding: a kind given twice, in whatever case, is an invalid
// configuration (breakConfig makes those).
func (g *exploreGen) kinds(k int) []string {
	out := make([]string, 0, k)
	for len(out) < k {
		kind := g.pick(genKinds)
		if !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, kind) }) {
			out = append(out, kind)
		}
	}
	return out
}

// scorer returns a scorer configuration; depth bounds composite and scaled
// nesting.
func (g *exploreGen) scorer(depth int) policy.ScorerSpec {
	typ := g.pick(g.leaves)
	if depth > 0 && g.chance(30) && len(g.caps.scorers) > len(g.leaves) {
		typ = g.pick(g.caps.scorers)
	}
	sc := policy.ScorerSpec{Type: typ}
	switch typ {
	case "kind":
		sc.UseDefaultWeights = cupel.Ptr(g.chance(40))
		if *sc.UseDefaultWeights {
			break
		}
		for _, kind := range g.kinds(1 + g.r.IntN(3)) {
			sc.Weights = append(sc.Weights, policy.KindWeightSpec{Kind: cupel.ContextKind(kind), Weight: g.weight()})
		}
	case "tag":
		// Distinct tags (a tag given twice is invalid); "a" and "A" differ.
		for k := g.r.IntN(4); k > 0; k-- {
			tag := g.pick(genTags)
			if !slices.ContainsFunc(sc.TagWeights, func(w policy.TagWeightSpec) bool { return w.Tag == tag }) {
				sc.TagWeights = append(sc.TagWeights, policy.TagWeightSpec{Tag: tag, Weight: g.weight()})
			}
		}
	case "composite":
		sc.Children = []policy.ScorerSpec{}
		for k := 1 + g.r.IntN(3); k > 0; k-- {
			w := g.positiveWeight()
			ch := g.scorer(depth - 1)
			ch.Weight = &w
			sc.Children = append(sc.Children, ch)
		}
	case "scaled":
		in := g.scorer(depth - 1)
		sc.Inner = &in
	case "decay":
		rt := genBase.Add(time.Duration(g.r.IntN(100000)) * time.Minute)
		if g.chance(10) {
			rt = genTimes[g.r.IntN(len(genTimes))]
		}
		if g.refTime == nil {
			g.refTime = &rt
		}
		ref := *g.refTime
		sc.ReferenceTime = &ref
		sc.NullTimestampScore = casefile.FloatPtr(float64(g.r.IntN(11)) / 10)
		switch g.r.IntN(3) {
		case 0:
			sc.Curve = &policy.CurveSpec{Type: "exponential", HalfLifeSecs: casefile.FloatPtr(float64(60 * (1 + g.r.IntN(100000))))}
		case 1:
			sc.Curve = &policy.CurveSpec{Type: "window", MaxAgeSecs: casefile.FloatPtr(float64(60 * (1 + g.r.IntN(100000))))}
		default:
			c := &policy.CurveSpec{Type: "step"}
			age := 0.0
			for k := 1 + g.r.IntN(3); k > 0; k-- {
				age += float64(3600 * (1 + g.r.IntN(500)))
				c.Windows = append(c.Windows, policy.WindowSpec{MaxAgeSecs: casefile.Float(age), Score: casefile.Float(float64(g.r.IntN(11)) / 10)})
			}
			sc.Curve = c
		}
	case "metadata_trust":
		sc.DefaultScore = casefile.FloatPtr(float64(g.r.IntN(11)) / 10)
	case "metadata_key":
		sc.Key, sc.Value = g.pick(genMetaKey), g.pick(genMetaVal)
		sc.Boost = casefile.Float(float64(1+g.r.IntN(30)) / 10)
	}
	return sc
}

func (g *exploreGen) entries() []policy.CountEntrySpec {
	es := []policy.CountEntrySpec{}
	for _, kind := range g.kinds(1 + g.r.IntN(3)) {
		req := g.r.IntN(4)
		es = append(es, policy.CountEntrySpec{Kind: cupel.ContextKind(kind), RequireCount: req, CapCount: req + g.r.IntN(4)})
	}
	return es
}

// slicer sets the slicer keys of s: an inner slicer is named only, and
// shares the bucket size.
func (g *exploreGen) slicer(s *policy.Spec, budget int64) {
	typ := g.pick(g.caps.slicers)
	s.Slicer = typ
	bucket := func() *int {
		b := []int64{1, 5, 10, 50, 100, 100}[g.r.IntN(6)]
		// Keep big tables rare (they cost time, and the table guard is
		// an edge worth only a few cases): about 1,000 buckets at most.
		if budget/b > 1000 && !g.chance(3) {
			b = budget/1000 + 1
		}
		return cupel.Ptr(int(b))
	}
	// inner names the inner slicer: greedy, or knapsack where allowed (a
	// count quota's inner slicer must not be a knapsack: breakConfig makes
	// that one).
	inner := func(knapsack bool) {
		var simple []string
		for _, x := range g.caps.slicers {
			if x == "greedy" || (x == "knapsack" && knapsack) {
				simple = append(simple, x)
			}
		}
		if len(simple) == 0 {
			simple = []string{"greedy"} // the format's default
		}
		s.InnerSlicer = g.pick(simple)
		if s.InnerSlicer == "knapsack" {
			s.BucketSize = bucket()
		}
	}
	scarcity := func() string {
		if g.chance(30) {
			return "throw"
		}
		return "degrade"
	}
	switch typ {
	case "knapsack":
		s.BucketSize = bucket()
	case "quota":
		inner(true)
		s.Quotas = []policy.QuotaSpec{}
		left := 100.0
		for _, kind := range g.kinds(1 + g.r.IntN(3)) {
			req := math.Min(left, float64(5*g.r.IntN(8)))
			left -= req
			s.Quotas = append(s.Quotas, policy.QuotaSpec{Kind: cupel.ContextKind(kind), Require: casefile.FloatPtr(req), Cap: casefile.FloatPtr(math.Max(req, float64(10*(1+g.r.IntN(10)))))})
		}
	case "count_quota":
		inner(false)
		s.Entries = g.entries()
		s.ScarcityBehavior = scarcity()
	case "count_constrained_knapsack":
		s.BucketSize = bucket()
		s.Entries = g.entries()
		s.ScarcityBehavior = scarcity()
	}
}

// genContents are the contents of generated items, made once.
var genContents = func() []string {
	out := make([]string, exploreMaxItems+1)
	for i := range out {
		out[i] = "c" + strconv.Itoa(i)
	}
	return out
}()

func genContent(i int) string {
	if i < len(genContents) {
		return genContents[i]
	}
	return "c" + strconv.Itoa(i)
}
