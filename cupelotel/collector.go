package cupelotel

import (
	"context"
	"math"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// Span, attribute and event names of spec chapter 39 (OpenTelemetry Integration).
const (
	spanPipeline = "cupel.pipeline"

	attrBudgetMaxTokens = "cupel.budget.max_tokens"
	attrVerbosity       = "cupel.verbosity"

	attrStageName         = "cupel.stage.name"
	attrStageItemCountIn  = "cupel.stage.item_count_in"
	attrStageItemCountOut = "cupel.stage.item_count_out"
	attrExclusionCount    = "cupel.exclusion.count"

	eventExclusion          = "cupel.exclusion"
	attrExclusionReason     = "cupel.exclusion.reason"
	attrExclusionItemKind   = "cupel.exclusion.item_kind"
	attrExclusionItemTokens = "cupel.exclusion.item_tokens"

	eventIncluded      = "cupel.item.included"
	attrIncludedKind   = "cupel.item.kind"
	attrIncludedTokens = "cupel.item.tokens"
	attrIncludedScore  = "cupel.item.score"
)

// stageInfo describes one of the five diagnostic stages, in pipeline order.
type stageInfo struct {
	stage cupel.PipelineStage
	name  string // lowercase, the cupel.stage.name value
	span  string // cupel.stage.{name}
}

const (
	classify = iota
	score
	deduplicate
	slice
	place
	numStages
)

var stages = [numStages]stageInfo{
	{cupel.StageClassify, "classify", "cupel.stage.classify"},
	{cupel.StageScore, "score", "cupel.stage.score"},
	{cupel.StageDeduplicate, "deduplicate", "cupel.stage.deduplicate"},
	{cupel.StageSlice, "slice", "cupel.stage.slice"},
	{cupel.StagePlace, "place", "cupel.stage.place"},
}

// stageIndex returns the index of s in stages, or -1 for a stage outside
// the five (an internal stage of some other pipeline), which the bridge
// ignores.
func stageIndex(s cupel.PipelineStage) int {
	switch s {
	case cupel.StageClassify:
		return classify
	case cupel.StageScore:
		return score
	case cupel.StageDeduplicate:
		return deduplicate
	case cupel.StageSlice:
		return slice
	case cupel.StagePlace:
		return place
	}
	return -1
}

// Collector records one pipeline run for OpenTelemetry. It implements
// [cupel.TraceCollector]; get one from [Tracer.Start], pass it to the run
// with [cupel.WithTrace], and call [Collector.End] when the run returns.
//
// During the run the collector only notes times and counts (and, from
// StageAndExclusions on, the per-item facts its events need); the five stage
// spans are built and ended by End, with the timestamps noted during the
// run, so that exporting never slows the pipeline nor blurs its stage
// boundaries.
//
// A Collector serves one run and is not safe for concurrent use. The
// disabled collector returned for a non-recording run is shared and
// immutable; every method on it does nothing.
type Collector struct {
	enabled    bool
	tracer     trace.Tracer
	verbosity  Verbosity
	clock      func() time.Time
	ctx        context.Context // carries the root span
	root       trace.Span
	rootStart  time.Time
	inputCount int // len(items) when known (Tracer.Run), else -1
	stages     [numStages]stageRecord
	ended      bool
}

// stageRecord is what the collector noted about one stage.
type stageRecord struct {
	seen       bool          // the stage event arrived
	at         time.Time     // when it arrived: the stage's end
	duration   time.Duration // its DurationMs
	in         int           // its ItemCount: items entering the stage
	excluded   int           // exclusion events of the stage
	exclusions []itemRecord  // from StageAndExclusions on
	included   []itemRecord  // at Full
}

// itemRecord is one item event, kept for a span event.
type itemRecord struct {
	at     time.Time
	reason string
	kind   string
	tokens int
	score  float64
}

var _ cupel.TraceCollector = (*Collector)(nil)

func (c *Collector) now() time.Time {
	if c.clock != nil {
		return c.clock()
	}
	return time.Now()
}

// Enabled reports whether the run's root span records. When it is false the
// pipeline builds no event and the collector costs nothing.
func (c *Collector) Enabled() bool { return c.enabled }

// RecordStageEvent notes the end of a stage: the time the event arrives is
// the stage's end, e.DurationMs its duration, and e.ItemCount the items that
// entered it. A second event for the same stage, an event for a stage
// outside the five, and events after End are ignored.
func (c *Collector) RecordStageEvent(e cupel.TraceEvent) {
	if !c.enabled || c.ended {
		return
	}
	at := c.now()
	i := stageIndex(e.Stage)
	if i < 0 || c.stages[i].seen {
		return
	}
	st := &c.stages[i]
	st.seen = true
	st.at = at
	st.duration = msToDuration(e.DurationMs)
	st.in = e.ItemCount
}

// RecordItemEvent notes one item decision. Every exclusion counts toward
// its stage's cupel.stage.item_count_out (and cupel.exclusion.count); from
// StageAndExclusions on it also becomes a cupel.exclusion event, and at Full
// every inclusion becomes a cupel.item.included event. Events that arrive
// after their stage's event, for a stage outside the five, or after End are
// ignored.
func (c *Collector) RecordItemEvent(e cupel.TraceEvent) {
	if !c.enabled || c.ended {
		return
	}
	i := stageIndex(e.Stage)
	if i < 0 || c.stages[i].seen {
		return
	}
	st := &c.stages[i]
	switch {
	case e.Exclusion.Variant != "":
		st.excluded++
		if c.verbosity >= StageAndExclusions {
			kind, tokens := itemFacts(e.Item)
			st.exclusions = append(st.exclusions, itemRecord{at: c.now(), reason: string(e.Exclusion.Variant), kind: kind, tokens: tokens})
		}
	case e.Inclusion != "":
		if c.verbosity >= Full {
			kind, tokens := itemFacts(e.Item)
			st.included = append(st.included, itemRecord{at: c.now(), kind: kind, tokens: tokens, score: e.Score})
		}
	}
}

func itemFacts(it *cupel.ContextItem) (kind string, tokens int) {
	if it == nil {
		return "", 0
	}
	return string(it.Kind()), it.Tokens()
}

// msToDuration converts a stage's DurationMs; a negative or NaN duration
// counts as zero.
func msToDuration(ms float64) time.Duration {
	if !(ms > 0) {
		return 0
	}
	if ms >= float64(math.MaxInt64/int64(time.Millisecond)) {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(math.Round(ms * float64(time.Millisecond)))
}

// End builds the stage spans of the run and ends the root span. err is the
// run's error, nil for a successful run.
//
// A successful run has exactly five stage spans. When err is not nil, the
// root span's status is Error with err's text, the stages that completed
// get their spans as usual, and the stage the run failed in (the first
// without a stage event) gets a span up to now with status Error, the
// error recorded as an exception event, the exclusions it recorded before
// failing, its cupel.stage.item_count_in when the earlier stages determine
// it, and no cupel.stage.item_count_out. Later stages never ran and get no
// span.
//
// End is idempotent; only the first call counts.
func (c *Collector) End(err error) {
	if !c.enabled || c.ended {
		return
	}
	c.ended = true
	end := c.now()

	prevEnd, chained := c.rootStart, false
	failed := -1
	for i := range c.stages {
		st := &c.stages[i]
		if !st.seen {
			if failed < 0 {
				failed = i
			}
			continue
		}
		start := st.at.Add(-st.duration)
		if chained {
			// Contiguous: a stage starts where the previous one ended.
			start = prevEnd
		} else if start.Before(c.rootStart) {
			start = c.rootStart
		}
		stop := st.at
		if stop.Before(start) {
			stop = start
		}
		c.emit(i, start, stop, st.in, true, c.out(i), true, nil)
		prevEnd, chained = stop, true
	}

	if err != nil {
		if failed >= 0 && (failed == 0 || c.stages[failed-1].seen) {
			in, ok := c.expectedIn(failed)
			stop := end
			if stop.Before(prevEnd) {
				stop = prevEnd
			}
			c.emit(failed, prevEnd, stop, in, ok, 0, false, err)
		} else {
			c.root.RecordError(err, trace.WithTimestamp(end))
		}
		c.root.SetStatus(codes.Error, err.Error())
	}
	c.root.End(trace.WithTimestamp(end))
}

// out returns the items that left stage i: those that entered it less those
// it excluded (never below zero, whatever events a caller feeds).
func (c *Collector) out(i int) int { return max(0, c.stages[i].in-c.stages[i].excluded) }

// expectedIn returns the items that entered stage i, which failed before its
// stage event, when the earlier stages determine it: Classify (from
// Tracer.Run's input), Deduplicate (Score's output), Slice (Deduplicate's
// output) and Place (Slice's output plus the pinned items, which are those
// that left Classify without entering Score).
func (c *Collector) expectedIn(i int) (int, bool) {
	switch i {
	case classify:
		return c.inputCount, c.inputCount >= 0
	case deduplicate:
		return c.out(score), true
	case slice:
		return c.out(deduplicate), true
	case place:
		return c.out(slice) + c.out(classify) - c.stages[score].in, true
	}
	return 0, false
}

// emit builds, fills and ends the span of stage i.
func (c *Collector) emit(i int, start, end time.Time, in int, hasIn bool, out int, hasOut bool, err error) {
	st := &c.stages[i]
	attrs := make([]attribute.KeyValue, 1, 4)
	attrs[0] = attribute.String(attrStageName, stages[i].name)
	if hasIn {
		attrs = append(attrs, attribute.Int(attrStageItemCountIn, in))
	}
	if hasOut {
		attrs = append(attrs, attribute.Int(attrStageItemCountOut, out))
	}
	if c.verbosity >= StageAndExclusions {
		attrs = append(attrs, attribute.Int(attrExclusionCount, st.excluded))
	}
	_, span := c.tracer.Start(c.ctx, stages[i].span, trace.WithTimestamp(start), trace.WithAttributes(attrs...))
	for _, x := range st.exclusions {
		span.AddEvent(eventExclusion, trace.WithTimestamp(clamp(x.at, start, end)), trace.WithAttributes(
			attribute.String(attrExclusionReason, x.reason),
			attribute.String(attrExclusionItemKind, x.kind),
			attribute.Int(attrExclusionItemTokens, x.tokens),
		))
	}
	for _, x := range st.included {
		span.AddEvent(eventIncluded, trace.WithTimestamp(clamp(x.at, start, end)), trace.WithAttributes(
			attribute.String(attrIncludedKind, x.kind),
			attribute.Int(attrIncludedTokens, x.tokens),
			attribute.Float64(attrIncludedScore, x.score),
		))
	}
	if err != nil {
		span.RecordError(err, trace.WithTimestamp(end))
		span.SetStatus(codes.Error, err.Error())
	}
	span.End(trace.WithTimestamp(end))
}

func clamp(t, lo, hi time.Time) time.Time {
	if t.Before(lo) {
		return lo
	}
	if t.After(hi) {
		return hi
	}
	return t
}
