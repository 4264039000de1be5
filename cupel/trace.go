package cupel

import (
	"slices"
)

// TraceEvent is one observation of a pipeline run (spec chapter "Events").
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
// "TraceCollector"). The pipeline asks Enabled once per run and, when it is
// false, builds no event at all. A collector is handed to one run at a time
// (RunOptions.Trace); it need not be safe for concurrent use.
type TraceCollector interface {
	// Enabled reports whether the collector records anything.
	Enabled() bool
	// RecordStageEvent is called once per stage, after it completes.
	RecordStageEvent(e TraceEvent)
	// RecordItemEvent is called for each item decision, before the stage event.
	RecordItemEvent(e TraceEvent)
}

// ShortfallRecorder is implemented by collectors that want the count
// requirements a run could not meet (CLARIFICATIONS 8). The pipeline calls it
// after the Slice stage, only when there are shortfalls.
type ShortfallRecorder interface {
	RecordShortfalls(s []CountRequirementShortfall)
}

// NullTraceCollector records nothing and costs nothing: Enabled is false, so
// the pipeline builds no events. A nil RunOptions.Trace behaves the same.
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
type DiagnosticTraceCollector struct {
	level    TraceDetailLevel
	observer func(TraceEvent)
	// events holds the kept events in insertion order: stage events, and at
	// DetailItem the item events too.
	events []TraceEvent
	// decisions holds the item events not kept in events (DetailStage), so
	// that every decision is stored exactly once.
	decisions  []TraceEvent
	shortfalls []CountRequirementShortfall
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
	if c.level >= DetailItem {
		c.events = growCap(c.events, n+stages)
	} else {
		c.events = growCap(c.events, stages)
		c.decisions = growCap(c.decisions, n)
	}
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
	c.events = append(c.events, e)
	if c.observer != nil {
		c.observer(e)
	}
}

// RecordItemEvent files the decision e carries for the report and, at
// DetailItem, keeps e in the event list.
func (c *DiagnosticTraceCollector) RecordItemEvent(e TraceEvent) {
	if c.level < DetailItem {
		if e.Item != nil {
			c.decisions = append(c.decisions, e)
		}
		return
	}
	c.events = append(c.events, e)
	if c.observer != nil {
		c.observer(e)
	}
}

// RecordShortfalls keeps the run's count-requirement shortfalls.
func (c *DiagnosticTraceCollector) RecordShortfalls(s []CountRequirementShortfall) {
	c.shortfalls = append(c.shortfalls, s...)
}

// Events returns a copy of the events kept so far, in insertion order.
func (c *DiagnosticTraceCollector) Events() []TraceEvent { return slices.Clone(c.events) }

// Report builds the SelectionReport of the recorded run. The excluded list is
// sorted by score descending, ties in insertion order, NaN last
// (CLARIFICATIONS 6). The collector keeps its data; Report may be called again.
func (c *DiagnosticTraceCollector) Report() *SelectionReport {
	decisions := c.decisions
	if c.level >= DetailItem {
		decisions = c.events
	}
	r := &SelectionReport{
		Events:                     slices.Clone(c.events),
		CountRequirementShortfalls: slices.Clone(c.shortfalls),
	}
	nIn, nEx := 0, 0
	for i := range decisions {
		e := &decisions[i]
		switch {
		case e.Item == nil:
		case e.Exclusion.Variant != "":
			nEx++
		case e.Inclusion != "":
			nIn++
		}
	}
	r.Included = make([]IncludedItem, 0, nIn)
	keys := make([]keyIdx, 0, nEx)
	excluded := make([]*TraceEvent, 0, nEx)
	for i := range decisions {
		e := &decisions[i]
		if e.Item == nil {
			continue
		}
		r.TotalCandidates++
		r.TotalTokensConsidered += e.Item.tokens
		switch {
		case e.Exclusion.Variant != "":
			keys = append(keys, keyIdx{key: descKey(e.Score), idx: len(excluded)})
			excluded = append(excluded, e)
		case e.Inclusion != "":
			r.Included = append(r.Included, IncludedItem{Item: e.Item, Score: e.Score, Reason: e.Inclusion})
		}
	}
	sortKeyIdx(keys)
	r.Excluded = make([]ExcludedItem, len(keys))
	for k, ki := range keys {
		e := excluded[ki.idx]
		r.Excluded[k] = ExcludedItem{Item: e.Item, Score: e.Score, Reason: e.Exclusion}
	}
	return r
}

// compareScoreDesc orders scores descending with -0.0 equal to +0.0 and NaN
// after every number (CLARIFICATIONS 6). It returns <0 when a sorts first.
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
// (spec chapter "Events"). It is delivered to RunOptions.OnOverflow.
type OverflowEvent struct {
	// TokensOverBudget is the merged tokens minus targetTokens.
	TokensOverBudget int
	// OverflowingItems are all merged items (pinned and sliced).
	OverflowingItems []*ContextItem
	// Budget is the budget that was exceeded.
	Budget ContextBudget
}
