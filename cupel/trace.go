package cupel

import (
	"slices"

	"github.com/cupel-go/go-cupel/cupel/internal/keysort"
	"github.com/cupel-go/go-cupel/cupel/internal/rules"
)

// TraceEvent is one observation of a pipeline run (spec chapter 36 (Events)).
//
// A stage event is recorded once per stage, after the stage, with its
// wall-clock DurationMs and ItemCount, the number of items the stage received.
// An item event records one decision: DurationMs is 0 and ItemCount is 1, and
// Item, Score and either Inclusion or Exclusion say what was decided. Item
// events of a stage precede its stage event.
type TraceEvent struct {
	Stage      PipelineStage
	DurationMs float64
	ItemCount  int
	// Message is an optional text. For item events the built-in pipeline
	// leaves it empty; [TraceEvent.Text] renders one from the decision.
	Message string

	// Item is the item decided about; nil on stage events.
	Item *ContextItem
	// Score is the item's score at the time of the decision.
	Score float64
	// Inclusion is set when the item was included.
	Inclusion InclusionReason
	// Exclusion is set (Variant non-empty) when the item was excluded.
	Exclusion ExclusionReason
}

// Text returns e.Message, or for an item event without one, a message
// rendered from the decision ("BudgetExceeded: 400 tokens requested, 50
// available", "Included (Scored): score 0.8").
func (e TraceEvent) Text() string {
	if e.Message != "" || e.Item == nil {
		return e.Message
	}
	if e.Exclusion.Variant != "" {
		return e.Exclusion.String()
	}
	return "Included (" + string(e.Inclusion) + "): score " + rules.FormatFloat(e.Score)
}

// TraceCollector receives a pipeline run's events (spec chapter
// 35 (TraceCollector)). The pipeline asks Enabled once per run and, when it is
// false, builds no event at all. A collector is handed to one run at a time
// ([WithTrace]); it need not be safe for concurrent use.
type TraceCollector interface {
	// Enabled reports whether the collector records anything.
	Enabled() bool
	// RecordStageEvent is called once per stage, after it completes.
	RecordStageEvent(e TraceEvent)
	// RecordItemEvent is called for each item decision, before the stage event.
	RecordItemEvent(e TraceEvent)
}

// NullTraceCollector records nothing and costs nothing: Enabled is false, so
// the pipeline builds no events. A run without [WithTrace] behaves the same.
type NullTraceCollector struct{}

// Enabled returns false.
func (NullTraceCollector) Enabled() bool { return false }

// RecordStageEvent does nothing.
func (NullTraceCollector) RecordStageEvent(TraceEvent) {}

// RecordItemEvent does nothing.
func (NullTraceCollector) RecordItemEvent(TraceEvent) {}

// TraceDetailLevel says which events a [DiagnosticTraceCollector] keeps in
// its event list. Either way its report lists every included and excluded item.
type TraceDetailLevel int

// The detail levels, in increasing order.
const (
	// DetailStage keeps stage events only.
	DetailStage TraceDetailLevel = iota
	// DetailItem keeps stage events and item events.
	DetailItem
)

// String returns "Stage" or "Item".
func (l TraceDetailLevel) String() string {
	if l == DetailItem {
		return "Item"
	}
	if l == DetailStage {
		return "Stage"
	}
	return "TraceDetailLevel(" + itoa(int(l)) + ")"
}

// DiagnosticTraceCollector records a run and builds its [SelectionReport].
// Use one collector per run; it is not safe for concurrent use.
//
// It stores each item decision in a compact form (40 bytes, under a third of
// a TraceEvent), and the Slice stage's exclusions, usually most of a run's
// decisions, as the list of excluded candidates it is handed
// ([SliceExclusionRecorder]: 16 bytes each) with their reasons worked out
// when asked. It builds TraceEvent values only when
// [DiagnosticTraceCollector.Events] or [DiagnosticTraceCollector.Report] asks
// for them, so a traced run allocates about 16 bytes per input item beyond an
// untraced one. Events that the compact form cannot hold (a message, a
// duration, a stage or reason this package does not know) are kept whole, so
// nothing recorded is lost.
type DiagnosticTraceCollector struct {
	level    TraceDetailLevel
	observer func(TraceEvent)
	// decisions holds every item event in insertion order. At DetailStage an
	// item event without an Item is not kept: it carries no decision.
	decisions []decision
	// whole holds the item events the compact form cannot represent, and
	// strs the exclusion reasons' strings; decision.ref indexes them.
	whole []TraceEvent
	strs  []string
	// stages holds the stage events, each with the number of decisions
	// recorded before it, which places it in the event list.
	stages     []stageMark
	shortfalls []CountRequirementShortfall
	// blocks holds the Slice-stage exclusions handed over in one call; a
	// decision with stage codeBlock stands for blocks[ref], and blockEvents
	// is the number of events the blocks stand for.
	blocks      []sliceBlock
	blockEvents int
	// expect is the number of item events the run will have recorded when
	// done, as its Classify stage event tells (reserve).
	expect int
}

// stageEvents is the number of stage events of a batch run, the room the
// collector makes for them at the first.
const stageEvents = 5

// maxReserve bounds the room reserve makes in one go, so that a stage event
// with a wild ItemCount cannot make it allocate much.
const maxReserve = 1 << 16

// reserve makes room in the decision list, at the run's stage events, for
// the item events still to come, so that the list is allocated once rather
// than grown by doubling. Each item a batch run is given ends with one item
// event, so the Classify stage event, whose ItemCount is the number of
// items, tells how many events the run will have recorded at most
// (c.expect); at the Slice stage event, and when the Slice stage hands over
// its exclusions (RecordSliceExclusions), what remains of them is the Place
// stage's. The room is only capacity, at most maxReserve decisions: what is
// recorded does not change.
func (c *DiagnosticTraceCollector) reserve(e *TraceEvent) {
	switch e.Stage {
	case StageClassify:
		c.expect = c.itemEvents() + max(0, e.ItemCount)
	case StageSlice:
		c.makeRoom(0)
	}
}

// makeRoom makes room in the decision list for the item events still to
// come, as c.expect counts them, and extra more decisions.
func (c *DiagnosticTraceCollector) makeRoom(extra int) {
	if n := min(c.expect-c.itemEvents(), maxReserve) + extra; n > 0 {
		c.decisions = slices.Grow(c.decisions, n)
	}
}

// sliceBlock is one RecordSliceExclusions call: its events are the
// exclusions of items, once in Sort-stage order, for the reasons reason
// gives.
type sliceBlock struct {
	items   []ScoredItem
	reason  func(*ContextItem) ExclusionReason
	ordered bool // items is in Sort-stage order
}

// order puts b.items in Sort-stage order (score descending, ties in their
// order, NaN last), once.
func (b *sliceBlock) order() {
	if b.ordered {
		return
	}
	b.ordered = true
	kp := keysort.GetScratch(len(b.items))
	defer keysort.PutScratch(kp)
	keys := (*kp)[:len(b.items)]
	for j, s := range b.items {
		keys[j] = keysort.KeyIdx{Key: keysort.DescKey(s.Score), Idx: j}
	}
	if keysort.SortedKeyIdx(keys) {
		return
	}
	keysort.Sort(keys)
	ordered := make([]ScoredItem, len(b.items))
	for k, ki := range keys {
		ordered[k] = b.items[ki.Idx]
	}
	b.items = ordered
}

// event returns the i-th event of b, which must be ordered.
func (b *sliceBlock) event(i int) TraceEvent {
	s := b.items[i]
	return TraceEvent{Stage: StageSlice, ItemCount: 1, Item: s.Item, Score: s.Score, Exclusion: b.reason(s.Item)}
}

// decision is an item event in compact form: the item, its score, and the
// stage and reason as small codes, with the reason's data. When stage is 0
// the event is c.whole[ref], and when it is codeBlock the events are those
// of c.blocks[ref]; the other fields are then unused.
type decision struct {
	item  *ContextItem
	score float64
	a, b  int64 // the exclusion reason's integers (ExclusionReason.a, .b)
	ref   int32 // the reason's string is c.strs[ref-1], or "" when ref is 0
	stage uint8 // index in stageCodes
	excl  uint8 // index in exclusionCodes; 0: none
	incl  uint8 // index in inclusionCodes; 0: none
}

type stageMark struct {
	at int // decisions recorded before the stage event
	e  TraceEvent
}

// The codes of the stages in stageCodes.
const (
	codeClassify uint8 = 1 + iota
	codeScore
	codeDeduplicate
	codeSlice
	codePlace
	// codeBlock marks a decision standing for a sliceBlock.
	codeBlock uint8 = 255
)

// The codes of the inclusion reasons in inclusionCodes.
const (
	codeScored uint8 = 1 + iota
	codePinned
	codeZeroToken
)

var (
	stageCodes     = [...]PipelineStage{"", StageClassify, StageScore, StageDeduplicate, StageSlice, StagePlace}
	inclusionCodes = [...]InclusionReason{"", InclusionScored, InclusionPinned, InclusionZeroToken}
	exclusionCodes = [...]ExclusionVariant{"", ExclusionBudgetExceeded, ExclusionScoredTooLow,
		ExclusionDeduplicated, ExclusionQuotaCapExceeded, ExclusionQuotaRequireDisplaced,
		ExclusionNegativeTokens, ExclusionPinnedOverride, ExclusionFiltered, ExclusionCountCapExceeded}
)

// codeOf returns the index of v in codes, or -1.
func codeOf[T comparable](codes []T, v T) int {
	for i, c := range codes {
		if c == v {
			return i
		}
	}
	return -1
}

// compact returns e in compact form, or ok false when e does not fit it.
func (c *DiagnosticTraceCollector) compact(e *TraceEvent) (d decision, ok bool) {
	if e.Item == nil || e.Message != "" || e.DurationMs != 0 || e.ItemCount != 1 {
		return d, false
	}
	x := &e.Exclusion
	st, in, ex := stageCode(e.Stage), inclusionCode(e.Inclusion), 0
	if x.Variant != "" {
		ex = codeOf(exclusionCodes[:], x.Variant)
	} else if x.a != 0 || x.b != 0 || x.s != "" {
		return d, false
	}
	if st < 0 || in < 0 || ex < 0 {
		return d, false
	}
	return decision{
		item: e.Item, score: e.Score, a: x.a, b: x.b, ref: c.str(x.s),
		stage: uint8(st), excl: uint8(ex), incl: uint8(in),
	}, true
}

// stageCode is the index of s in stageCodes, or -1 for "" or a stage the
// array does not hold.
func stageCode(s PipelineStage) int {
	if s == "" {
		return -1
	}
	return codeOf(stageCodes[:], s)
}

// inclusionCode is the index of r in inclusionCodes ("" is 0), or -1.
func inclusionCode(r InclusionReason) int { return codeOf(inclusionCodes[:], r) }

// str stores s and returns its ref; a run of equal strings (the same pinned
// item displacing many) is stored once.
func (c *DiagnosticTraceCollector) str(s string) int32 {
	if s == "" {
		return 0
	}
	if n := len(c.strs); n > 0 && c.strs[n-1] == s {
		return int32(n)
	}
	c.strs = append(c.strs, s)
	return int32(len(c.strs))
}

// event rebuilds the TraceEvent d was made from.
func (c *DiagnosticTraceCollector) event(d *decision) TraceEvent {
	var e TraceEvent
	c.fill(&e, d)
	return e
}

// fill writes into *e, which must be zero, the TraceEvent d was made from.
// It sets fields one by one, which costs less than copying a whole event
// into a slice of them.
func (c *DiagnosticTraceCollector) fill(e *TraceEvent, d *decision) {
	if d.stage == 0 {
		*e = c.whole[d.ref]
		return
	}
	e.Stage, e.ItemCount, e.Item, e.Score = stageCodes[d.stage], 1, d.item, d.score
	if d.incl != 0 {
		e.Inclusion = inclusionCodes[d.incl]
	}
	if d.excl != 0 {
		e.Exclusion = c.reason(d)
	}
}

// reason returns the exclusion reason of d (zero when it is an inclusion).
func (c *DiagnosticTraceCollector) reason(d *decision) ExclusionReason {
	switch {
	case d.stage == 0:
		return c.whole[d.ref].Exclusion
	case d.excl == 0:
		return ExclusionReason{}
	}
	r := ExclusionReason{Variant: exclusionCodes[d.excl], a: d.a, b: d.b}
	if d.ref > 0 {
		r.s = c.strs[d.ref-1]
	}
	return r
}

// NewDiagnosticTraceCollector returns a collector keeping events at the given
// detail level. observer, if not nil, is called synchronously with every
// event the collector keeps, as it is recorded.
func NewDiagnosticTraceCollector(level TraceDetailLevel, observer func(TraceEvent)) *DiagnosticTraceCollector {
	return &DiagnosticTraceCollector{level: level, observer: observer}
}

// Enabled returns true.
func (c *DiagnosticTraceCollector) Enabled() bool { return true }

// DetailLevel returns the collector's detail level.
func (c *DiagnosticTraceCollector) DetailLevel() TraceDetailLevel { return c.level }

// RecordStageEvent keeps e.
func (c *DiagnosticTraceCollector) RecordStageEvent(e TraceEvent) {
	if c.stages == nil {
		c.stages = make([]stageMark, 0, stageEvents)
	}
	c.stages = append(c.stages, stageMark{at: len(c.decisions), e: e})
	c.reserve(&e)
	if c.observer != nil {
		c.observer(e)
	}
}

// RecordItemEvent files the decision e carries for the report and, at
// DetailItem, keeps e in the event list.
func (c *DiagnosticTraceCollector) RecordItemEvent(e TraceEvent) {
	if c.level < DetailItem && e.Item == nil {
		return
	}
	d, ok := c.compact(&e)
	if !ok {
		d = decision{ref: int32(len(c.whole))}
		c.whole = append(c.whole, e)
	}
	c.decisions = append(c.decisions, d)
	if c.level >= DetailItem && c.observer != nil {
		c.observer(e)
	}
}

// RecordSliceExclusions keeps excluded and reason, and orders the
// exclusions and works out their reasons when the events are asked for
// ([SliceExclusionRecorder]). An observer at DetailItem gets each event now.
func (c *DiagnosticTraceCollector) RecordSliceExclusions(excluded []ScoredItem, reason func(*ContextItem) ExclusionReason) {
	if len(excluded) == 0 {
		return
	}
	b := sliceBlock{items: excluded, reason: reason}
	if c.level >= DetailItem && c.observer != nil {
		b.order()
		for i := range b.items {
			c.observer(b.event(i))
		}
	}
	c.blockEvents += len(excluded)
	// The block is usually the Slice stage's last decision: room for it and
	// the Place stage's.
	c.makeRoom(1)
	c.decisions = append(c.decisions, decision{stage: codeBlock, ref: int32(len(c.blocks))})
	c.blocks = append(c.blocks, b)
}

// RecordShortfalls keeps the run's count-requirement shortfalls.
func (c *DiagnosticTraceCollector) RecordShortfalls(s []CountRequirementShortfall) {
	c.shortfalls = append(c.shortfalls, s...)
}

// itemEvents is the number of item events the decisions stand for.
func (c *DiagnosticTraceCollector) itemEvents() int {
	return len(c.decisions) - len(c.blocks) + c.blockEvents
}

// fillItems writes into dst, which must be zero, the item events of
// c.decisions[from:to], in order, and returns the number written.
func (c *DiagnosticTraceCollector) fillItems(dst []TraceEvent, from, to int) int {
	k := 0
	for i := from; i < to; i++ {
		d := &c.decisions[i]
		if d.stage != codeBlock {
			c.fill(&dst[k], d)
			k++
			continue
		}
		b := &c.blocks[d.ref]
		b.order()
		for j := range b.items {
			dst[k] = b.event(j)
			k++
		}
	}
	return k
}

// items calls yield with each item event of c.decisions[from:to], in
// order, and returns false as soon as yield does.
func (c *DiagnosticTraceCollector) items(from, to int, yield func(TraceEvent) bool) bool {
	for i := from; i < to; i++ {
		d := &c.decisions[i]
		if d.stage != codeBlock {
			if !yield(c.event(d)) {
				return false
			}
			continue
		}
		b := &c.blocks[d.ref]
		b.order()
		for j := range b.items {
			if !yield(b.event(j)) {
				return false
			}
		}
	}
	return true
}

// Events returns the events kept so far, in insertion order, in a new slice.
func (c *DiagnosticTraceCollector) Events() []TraceEvent {
	if c.level < DetailItem {
		events := make([]TraceEvent, len(c.stages))
		for i := range c.stages {
			events[i] = c.stages[i].e
		}
		return events
	}
	events := make([]TraceEvent, c.itemEvents()+len(c.stages))
	k, next := 0, 0
	for _, m := range c.stages {
		k += c.fillItems(events[k:], next, m.at)
		next = m.at
		events[k] = m.e
		k++
	}
	c.fillItems(events[k:], next, len(c.decisions))
	return events
}

// Report builds the SelectionReport of the recorded run. The excluded list is
// sorted by score descending, ties in insertion order, NaN last
// (ruling 6). The collector keeps its data; Report may be called again.
func (c *DiagnosticTraceCollector) Report() *SelectionReport {
	r := &SelectionReport{
		Events:                     c.Events(),
		CountRequirementShortfalls: slices.Clone(c.shortfalls),
	}
	// At DetailItem the item events are in r.Events already; at DetailStage
	// they are built here.
	items := r.Events
	if c.level < DetailItem {
		items = make([]TraceEvent, c.itemEvents())
		c.fillItems(items, 0, len(c.decisions))
	}
	nIn, nEx := 0, 0
	for i := range items {
		e := &items[i]
		switch {
		case e.Item == nil:
		case e.Exclusion.Variant != "":
			nEx++
		case e.Inclusion != "":
			nIn++
		}
	}
	r.Included = make([]IncludedItem, 0, nIn)
	kp := keysort.GetScratch(nEx)
	defer keysort.PutScratch(kp)
	keys := (*kp)[:0]
	for i := range items {
		e := &items[i]
		if e.Item == nil {
			continue
		}
		r.TotalCandidates++
		r.TotalTokensConsidered += e.Item.tokens
		switch {
		case e.Exclusion.Variant != "":
			keys = append(keys, keysort.KeyIdx{Key: keysort.DescKey(e.Score), Idx: i})
		case e.Inclusion != "":
			r.Included = append(r.Included, IncludedItem{Item: e.Item, Score: e.Score, Reason: e.Inclusion})
		}
	}
	keysort.Sort(keys)
	r.Excluded = make([]ExcludedItem, len(keys))
	for k, ki := range keys {
		e := &items[ki.Idx]
		r.Excluded[k] = ExcludedItem{Item: e.Item, Score: e.Score, Reason: e.Exclusion}
	}
	return r
}

// OverflowEvent reports an over-budget selection kept under OverflowProceed
// (spec chapter 36 (Events)). It is delivered to the [WithOnOverflow] callback.
type OverflowEvent struct {
	// TokensOverBudget is the merged tokens minus targetTokens.
	TokensOverBudget int
	// OverflowingItems are all merged items (pinned and sliced).
	OverflowingItems []*ContextItem
	// Budget is the budget that was exceeded.
	Budget ContextBudget
}
