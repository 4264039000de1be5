package cupel

import (
	"slices"
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
	return "Included (" + string(e.Inclusion) + "): score " + ftoa(e.Score)
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

// ShortfallRecorder is implemented by collectors that want the count
// requirements a run could not meet (ruling 8). The pipeline calls it
// after the Slice stage, only when there are shortfalls.
type ShortfallRecorder interface {
	RecordShortfalls(s []CountRequirementShortfall)
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
// a TraceEvent) and builds TraceEvent values only when
// [DiagnosticTraceCollector.Events] or [DiagnosticTraceCollector.Report] asks
// for them, so a traced run allocates about 40 bytes per input item beyond an
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
}

// decision is an item event in compact form: the item, its score, and the
// stage and reason as small codes, with the reason's data. When stage is 0
// the event is c.whole[ref] and the other fields are unused.
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
	st, in, ex := codeOf(stageCodes[1:], e.Stage), codeOf(inclusionCodes[:], e.Inclusion), codeOf(exclusionCodes[:], e.Exclusion.Variant)
	if st < 0 || in < 0 || ex < 0 || (ex == 0 && (e.Exclusion != ExclusionReason{})) {
		return d, false
	}
	return decision{
		item: e.Item, score: e.Score, a: e.Exclusion.a, b: e.Exclusion.b, ref: c.str(e.Exclusion.s),
		stage: uint8(st + 1), excl: uint8(ex), incl: uint8(in),
	}, true
}

// exclusion is the compact form of an exclusion of item at the stage with
// code stage, for a reason of a known variant.
func (c *DiagnosticTraceCollector) exclusion(stage uint8, item *ContextItem, score float64, r ExclusionReason) decision {
	return decision{item: item, score: score, a: r.a, b: r.b, ref: c.str(r.s), stage: stage, excl: uint8(codeOf(exclusionCodes[:], r.Variant))}
}

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

// summary returns what the report needs of d: its item, its score, whether
// it is an exclusion, and its inclusion reason.
func (c *DiagnosticTraceCollector) summary(d *decision) (item *ContextItem, score float64, excluded bool, incl InclusionReason) {
	if d.stage == 0 {
		e := &c.whole[d.ref]
		return e.Item, e.Score, e.Exclusion.Variant != "", e.Inclusion
	}
	return d.item, d.score, d.excl != 0, inclusionCodes[d.incl]
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

// expectItemEvents is called by the pipeline before a run with the number of
// item decisions it will record (one per input item), so the collector
// allocates once.
func (c *DiagnosticTraceCollector) expectItemEvents(n int) {
	const stages = 5
	c.decisions = growCap(c.decisions, n)
	c.stages = growCap(c.stages, stages)
}

func growCap[T any](s []T, extra int) []T {
	if cap(s)-len(s) >= extra {
		return s
	}
	grown := make([]T, len(s), len(s)+extra)
	copy(grown, s)
	return grown
}

// RecordStageEvent keeps e.
func (c *DiagnosticTraceCollector) RecordStageEvent(e TraceEvent) {
	c.stages = append(c.stages, stageMark{at: len(c.decisions), e: e})
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

// record is RecordItemEvent for the built-in pipeline, which hands over the
// decision already in compact form.
func (c *DiagnosticTraceCollector) record(d decision) {
	c.decisions = append(c.decisions, d)
	if c.observer != nil {
		c.observe(&d)
	}
}

// observe hands the event of d to the observer at DetailItem.
func (c *DiagnosticTraceCollector) observe(d *decision) {
	if c.level >= DetailItem {
		c.observer(c.event(d))
	}
}

// RecordShortfalls keeps the run's count-requirement shortfalls.
func (c *DiagnosticTraceCollector) RecordShortfalls(s []CountRequirementShortfall) {
	c.shortfalls = append(c.shortfalls, s...)
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
	events := make([]TraceEvent, len(c.decisions)+len(c.stages))
	k, next := 0, 0
	for _, m := range c.stages {
		for ; next < m.at; next, k = next+1, k+1 {
			c.fill(&events[k], &c.decisions[next])
		}
		events[k] = m.e
		k++
	}
	for ; next < len(c.decisions); next, k = next+1, k+1 {
		c.fill(&events[k], &c.decisions[next])
	}
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
	nIn, nEx := 0, 0
	for i := range c.decisions {
		item, _, excluded, incl := c.summary(&c.decisions[i])
		switch {
		case item == nil:
		case excluded:
			nEx++
		case incl != "":
			nIn++
		}
	}
	r.Included = make([]IncludedItem, 0, nIn)
	kp := getScratch(nEx)
	defer putScratch(kp)
	keys := (*kp)[:0]
	for i := range c.decisions {
		item, score, excluded, incl := c.summary(&c.decisions[i])
		if item == nil {
			continue
		}
		r.TotalCandidates++
		r.TotalTokensConsidered += item.tokens
		switch {
		case excluded:
			keys = append(keys, keyIdx{key: descKey(score), idx: i})
		case incl != "":
			r.Included = append(r.Included, IncludedItem{Item: item, Score: score, Reason: incl})
		}
	}
	sortKeyIdx(keys)
	r.Excluded = make([]ExcludedItem, len(keys))
	for k, ki := range keys {
		d, x := &c.decisions[ki.idx], &r.Excluded[k]
		x.Item, x.Score, _, _ = c.summary(d)
		x.Reason = c.reason(d)
	}
	return r
}

// compareScoreDesc orders scores descending with -0.0 equal to +0.0 and NaN
// after every number (ruling 6). It returns <0 when a sorts first.
func compareScoreDesc(a, b float64) int {
	aNaN, bNaN := a != a, b != b
	switch {
	case aNaN || bNaN:
		if aNaN && bNaN {
			return 0
		}
		if aNaN {
			return 1
		}
		return -1
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
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
