package cupelotel_test

import (
	"context"
	"reflect"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupelotel"
	. "github.com/onsi/gomega"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// harness is an SDK tracer provider exporting synchronously to memory.
type harness struct {
	exp    *tracetest.InMemoryExporter
	tp     *sdktrace.TracerProvider
	tracer *cupelotel.Tracer
}

func newHarness(v cupelotel.Verbosity) *harness {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	return &harness{exp: exp, tp: tp, tracer: cupelotel.NewTracer(cupelotel.WithTracerProvider(tp), cupelotel.WithVerbosity(v))}
}

// spanView is the part of an exported span the tests compare.
type spanView struct {
	Name       string
	Attrs      map[string]any
	Events     []eventView
	Status     codes.Code
	StatusText string
}

type eventView struct {
	Name  string
	Attrs map[string]any
}

func attrMap(kvs []attribute.KeyValue) map[string]any {
	m := make(map[string]any, len(kvs))
	for _, kv := range kvs {
		m[string(kv.Key)] = kv.Value.AsInterface()
	}
	return m
}

func view(s tracetest.SpanStub) spanView {
	v := spanView{Name: s.Name, Attrs: attrMap(s.Attributes), Status: s.Status.Code, StatusText: s.Status.Description}
	for _, e := range s.Events {
		v.Events = append(v.Events, eventView{Name: e.Name, Attrs: attrMap(e.Attributes)})
	}
	return v
}

// recorded returns the exported root span and its children, in the order
// they were exported, after checking that they form one tree of depth one,
// that the children are contiguous and that they lie within the root.
func (h *harness) recorded() (tracetest.SpanStub, []tracetest.SpanStub) {
	spans := h.exp.GetSpans()
	ExpectWithOffset(1, spans).NotTo(BeEmpty())
	root := spans[len(spans)-1]
	ExpectWithOffset(1, root.Parent.IsValid()).To(BeFalse(), "the last span exported is the root")
	ExpectWithOffset(1, root.InstrumentationScope.Name).To(Equal(cupelotel.ScopeName))
	children := spans[:len(spans)-1]
	for i, c := range children {
		ExpectWithOffset(1, c.Parent.SpanID()).To(Equal(root.SpanContext.SpanID()), c.Name)
		ExpectWithOffset(1, c.SpanContext.TraceID()).To(Equal(root.SpanContext.TraceID()), c.Name)
		ExpectWithOffset(1, c.InstrumentationScope.Name).To(Equal(cupelotel.ScopeName))
		ExpectWithOffset(1, c.StartTime).NotTo(BeTemporally("<", root.StartTime), c.Name)
		ExpectWithOffset(1, c.EndTime).NotTo(BeTemporally(">", root.EndTime), c.Name)
		ExpectWithOffset(1, c.EndTime).NotTo(BeTemporally("<", c.StartTime), c.Name)
		if i > 0 {
			ExpectWithOffset(1, c.StartTime).To(BeTemporally("==", children[i-1].EndTime), c.Name+" starts where the previous stage ended")
		}
		for _, e := range c.Events {
			ExpectWithOffset(1, e.Time).NotTo(BeTemporally("<", c.StartTime), c.Name)
			ExpectWithOffset(1, e.Time).NotTo(BeTemporally(">", c.EndTime), c.Name)
		}
	}
	return root, children
}

// tree returns the views of the recorded root and children.
func (h *harness) tree() (spanView, []spanView) {
	root, children := h.recorded()
	views := make([]spanView, len(children))
	for i, c := range children {
		views[i] = view(c)
	}
	return view(root), views
}

func rootView(maxTokens int, v cupelotel.Verbosity) spanView {
	return spanView{Name: "cupel.pipeline", Attrs: map[string]any{
		"cupel.budget.max_tokens": int64(maxTokens),
		"cupel.verbosity":         v.String(),
	}}
}

// stageView is the expected span of a stage that completed; excluded < 0
// leaves cupel.exclusion.count out (StageOnly).
func stageView(name string, in, out, excluded int, events ...eventView) spanView {
	attrs := map[string]any{
		"cupel.stage.name":           name,
		"cupel.stage.item_count_in":  int64(in),
		"cupel.stage.item_count_out": int64(out),
	}
	if excluded >= 0 {
		attrs["cupel.exclusion.count"] = int64(excluded)
	}
	return spanView{Name: "cupel.stage." + name, Attrs: attrs, Events: events}
}

func exclusion(reason string, kind cupel.ContextKind, tokens int) eventView {
	return eventView{Name: "cupel.exclusion", Attrs: map[string]any{
		"cupel.exclusion.reason":      reason,
		"cupel.exclusion.item_kind":   string(kind),
		"cupel.exclusion.item_tokens": int64(tokens),
	}}
}

func included(kind cupel.ContextKind, tokens int, score float64) eventView {
	return eventView{Name: "cupel.item.included", Attrs: map[string]any{
		"cupel.item.kind":   string(kind),
		"cupel.item.tokens": int64(tokens),
		"cupel.item.score":  score,
	}}
}

// exceptionEvent is the event span.RecordError adds for err.
func exceptionEvent(err error) eventView {
	t := reflect.TypeOf(err)
	typ := t.PkgPath() + "." + t.Name()
	if t.PkgPath() == "" && t.Name() == "" {
		typ = t.String()
	}
	return eventView{Name: "exception", Attrs: map[string]any{"exception.message": err.Error(), "exception.type": typ}}
}

func budget(maxTokens, targetTokens int) cupel.ContextBudget {
	b, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: maxTokens, TargetTokens: targetTokens})
	Expect(err).NotTo(HaveOccurred())
	return b
}

func item(content string, tokens int, kind cupel.ContextKind) *cupel.ContextItem {
	return cupel.MustItem(cupel.ItemSpec{Content: content, Tokens: tokens, Kind: kind})
}

func pinned(content string, tokens int, kind cupel.ContextKind) *cupel.ContextItem {
	return cupel.MustItem(cupel.ItemSpec{Content: content, Tokens: tokens, Kind: kind, Pinned: true})
}

func pipeline(cfg cupel.Policy) *cupel.Pipeline {
	p, err := cupel.NewPipeline(cfg)
	Expect(err).NotTo(HaveOccurred())
	return p
}

// Test doubles until the built-in scorers, slicers and placers are used.

// tableScorer scores an item by looking its content (and, for duplicated
// content, its kind) up.
type tableScorer map[string]float64

func (t tableScorer) Score(it *cupel.ContextItem, _ []*cupel.ContextItem) float64 {
	if s, ok := t[it.Content()+"/"+string(it.Kind())]; ok {
		return s
	}
	return t[it.Content()]
}

// sleepScorer sleeps d per item.
type sleepScorer struct{ d time.Duration }

func (s sleepScorer) Score(*cupel.ContextItem, []*cupel.ContextItem) float64 {
	time.Sleep(s.d)
	return 0.5
}

// capSlicer takes the sorted items in order while they fit, dropping an
// item whose kind already has caps[kind] items selected (a count-quota
// slicer's cap exclusion).
type capSlicer struct {
	caps  map[cupel.ContextKind]int
	sleep time.Duration
	err   error
}

func (s capSlicer) Slice(sorted []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	r, err := s.SliceDetailed(sorted, b)
	return r.Selected, err
}

func (s capSlicer) SliceDetailed(sorted []cupel.ScoredItem, b cupel.ContextBudget) (cupel.SliceResult, error) {
	time.Sleep(s.sleep)
	if s.err != nil {
		return cupel.SliceResult{}, s.err
	}
	var r cupel.SliceResult
	left := b.TargetTokens()
	count := map[cupel.ContextKind]int{}
	for _, si := range sorted {
		k := si.Item.Kind()
		if c, ok := s.caps[k]; ok && count[k] >= c {
			r.CapExcluded = append(r.CapExcluded, cupel.CapExclusion{Item: si.Item, Kind: k, Cap: c, Count: count[k]})
			continue
		}
		if si.Item.Tokens() <= left {
			r.Selected = append(r.Selected, si.Item)
			left -= si.Item.Tokens()
			count[k]++
		}
	}
	return r, nil
}

// takeAllSlicer selects every item, fit or not, so that Place overflows.
type takeAllSlicer struct{}

func (takeAllSlicer) Slice(sorted []cupel.ScoredItem, _ cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	out := make([]*cupel.ContextItem, len(sorted))
	for i, si := range sorted {
		out[i] = si.Item
	}
	return out, nil
}

// orderPlacer keeps the merged order, or reverses it.
type orderPlacer struct{ reverse bool }

func (p orderPlacer) Place(items []cupel.ScoredItem) []*cupel.ContextItem {
	out := make([]*cupel.ContextItem, len(items))
	for i, si := range items {
		if p.reverse {
			out[len(items)-1-i] = si.Item
		} else {
			out[i] = si.Item
		}
	}
	return out
}

// panicPlacer panics.
type panicPlacer struct{}

func (panicPlacer) Place([]cupel.ScoredItem) []*cupel.ContextItem { panic("placer exploded") }

var background = context.Background()

func traceSpanContext(ctx context.Context) trace.SpanContext {
	return trace.SpanContextFromContext(ctx)
}

// discard is a span exporter that drops everything.
type discard struct{}

func (discard) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (discard) Shutdown(context.Context) error                             { return nil }
