// Command example runs a small go-cupel pipeline under each verbosity tier
// of the OpenTelemetry bridge and prints the trace each run recorded: the
// span tree, every attribute and every event, with times relative to the
// root span's start.
//
// It records into the SDK's in-memory exporter, so it needs no collector:
//
//	cd cupelotel && go run ./example
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"slices"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
	"github.com/cupel-go/go-cupel/cupelotel"
)

func main() {
	if err := run(os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run prints the traces to w.
func run(w io.Writer) error {
	pipeline, items, budget := scenario()
	for _, v := range []cupelotel.Verbosity{cupelotel.StageOnly, cupelotel.StageAndExclusions, cupelotel.Full} {
		exp := tracetest.NewInMemoryExporter()
		tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
		tracer := cupelotel.NewTracer(cupelotel.WithTracerProvider(tp), cupelotel.WithVerbosity(v))

		res, err := tracer.Run(context.Background(), pipeline, items, budget)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "=== %s: %d of %d items selected, %d tokens\n\n", v, len(res.Items), len(items), res.TotalTokens)
		printTrace(w, exp.GetSpans())
		fmt.Fprintln(w)
		if err := tp.Shutdown(context.Background()); err != nil {
			return err
		}
	}

	// Place excludes too: under OverflowTruncate it drops what a count-quota
	// slicer's required items pushed over the target.
	pipeline, items, budget = truncateScenario()
	exp := tracetest.NewInMemoryExporter()
	tracer := cupelotel.NewTracer(cupelotel.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))), cupelotel.WithVerbosity(cupelotel.Full))
	res, err := tracer.Run(context.Background(), pipeline, items, budget)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "=== Full, OverflowTruncate: %d of %d items selected, %d tokens\n\n", len(res.Items), len(items), res.TotalTokens)
	printTrace(w, exp.GetSpans())
	fmt.Fprintln(w)

	// A failed run: the pinned items alone exceed the budget.
	exp.Reset()
	small, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 15, TargetTokens: 15})
	if err != nil {
		return err
	}
	_, err = tracer.Run(context.Background(), pipeline, items, small)
	fmt.Fprintf(w, "=== Full, failed run: %v\n\n", err)
	printTrace(w, exp.GetSpans())
	return nil
}

// scenario builds a pipeline and candidates whose run excludes items for
// every reason the stages before Place give: NegativeTokens (Classify),
// Deduplicated (Deduplicate), CountCapExceeded, PinnedOverride and
// BudgetExceeded (Slice).
func scenario() (*cupel.Pipeline, []*cupel.ContextItem, cupel.ContextBudget) {
	toolCap, err := slicer.NewCountQuotaEntry(cupel.KindToolOutput, 0, 1)
	check(err)
	slicer, err := slicer.NewCountQuota([]slicer.CountQuotaEntry{toolCap}, slicer.NewGreedy(), slicer.ScarcityDegrade)
	check(err)
	pipeline, err := cupel.NewPipeline(cupel.Policy{
		Scorer: scorer.NewPriority(),
		Slicer: slicer,
		Placer: placer.NewUShaped(),
	})
	check(err)
	budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 200, TargetTokens: 150})
	check(err)

	item := func(content string, tokens int, kind cupel.ContextKind, priority int) *cupel.ContextItem {
		return cupel.MustItem(cupel.ItemSpec{Content: content, Tokens: tokens, Kind: kind, Priority: cupel.Ptr(priority)})
	}
	items := []*cupel.ContextItem{
		cupel.MustItem(cupel.ItemSpec{Content: "You are a helpful assistant.", Tokens: 20, Kind: cupel.KindSystemPrompt, Pinned: true}),
		item("(a draft whose token count went wrong)", -1, cupel.KindMessage, 1),
		item("User: summarise the design doc", 10, cupel.KindMessage, 9),
		item("design.md: The system has three parts...", 60, cupel.KindDocument, 8),
		item("design.md: The system has three parts...", 60, cupel.KindDocument, 2),
		item("$ ls docs/", 15, cupel.KindToolOutput, 7),
		item("$ cat docs/design.md | wc", 15, cupel.KindToolOutput, 6),
		item("The user prefers short answers.", 25, cupel.KindMemory, 5),
		item("Transcript of last week's design review", 140, cupel.KindMessage, 4),
		item("notes.md: open questions...", 45, cupel.KindDocument, 3),
	}
	return pipeline, items, budget
}

// truncateScenario requires two documents that, with the pinned system
// prompt, exceed the target; OverflowTruncate then drops at Place.
func truncateScenario() (*cupel.Pipeline, []*cupel.ContextItem, cupel.ContextBudget) {
	docs, err := slicer.NewCountQuotaEntry(cupel.KindDocument, 2, 2)
	check(err)
	slicer, err := slicer.NewCountQuota([]slicer.CountQuotaEntry{docs}, slicer.NewGreedy(), slicer.ScarcityDegrade)
	check(err)
	pipeline, err := cupel.NewPipeline(cupel.Policy{
		Scorer:   scorer.NewPriority(),
		Slicer:   slicer,
		Placer:   placer.NewChronological(),
		Overflow: cupel.OverflowTruncate,
	})
	check(err)
	budget, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 100, TargetTokens: 60})
	check(err)
	item := func(content string, tokens int, kind cupel.ContextKind, priority int) *cupel.ContextItem {
		return cupel.MustItem(cupel.ItemSpec{Content: content, Tokens: tokens, Kind: kind, Priority: cupel.Ptr(priority)})
	}
	return pipeline, []*cupel.ContextItem{
		cupel.MustItem(cupel.ItemSpec{Content: "You are a helpful assistant.", Tokens: 20, Kind: cupel.KindSystemPrompt, Pinned: true}),
		item("spec.md: ...", 30, cupel.KindDocument, 9),
		item("design.md: ...", 30, cupel.KindDocument, 8),
		item("User: compare the two documents", 10, cupel.KindMessage, 7),
		item("appendix.md: ...", 50, cupel.KindDocument, 1),
	}, budget
}

// printTrace prints the exported spans as a tree under their root.
func printTrace(w io.Writer, spans tracetest.SpanStubs) {
	var root *tracetest.SpanStub
	for i := range spans {
		if !spans[i].Parent.IsValid() {
			root = &spans[i]
		}
	}
	if root == nil {
		fmt.Fprintln(w, "(no root span)")
		return
	}
	t0 := root.StartTime
	printSpan(w, *root, t0, "", "")
	var children []tracetest.SpanStub
	for _, s := range spans {
		if s.Parent.SpanID() == root.SpanContext.SpanID() {
			children = append(children, s)
		}
	}
	slices.SortStableFunc(children, func(a, b tracetest.SpanStub) int { return a.StartTime.Compare(b.StartTime) })
	for i, c := range children {
		branch, indent := "├── ", "│   "
		if i == len(children)-1 {
			branch, indent = "└── ", "    "
		}
		printSpan(w, c, t0, branch, indent)
	}
}

func printSpan(w io.Writer, s tracetest.SpanStub, t0 time.Time, branch, indent string) {
	fmt.Fprintf(w, "%s%s  [%s → %s]%s\n", branch, s.Name, ms(s.StartTime.Sub(t0)), ms(s.EndTime.Sub(t0)), status(s))
	for _, kv := range s.Attributes {
		fmt.Fprintf(w, "%s    %s = %s\n", indent, kv.Key, value(kv.Value))
	}
	for _, e := range s.Events {
		fmt.Fprintf(w, "%s    • %s @ %s: %s\n", indent, e.Name, ms(e.Time.Sub(t0)), attrs(e.Attributes))
	}
}

func status(s tracetest.SpanStub) string {
	if s.Status.Code == codes.Error {
		return "  ERROR: " + s.Status.Description
	}
	return ""
}

func attrs(kvs []attribute.KeyValue) string {
	parts := make([]string, len(kvs))
	for i, kv := range kvs {
		parts[i] = fmt.Sprintf("%s=%s", kv.Key, value(kv.Value))
	}
	return strings.Join(parts, " ")
}

func value(v attribute.Value) string {
	switch v.Type() {
	case attribute.STRING:
		return fmt.Sprintf("%q", v.AsString())
	case attribute.FLOAT64:
		return fmt.Sprintf("%g", v.AsFloat64())
	}
	return v.String()
}

func ms(d time.Duration) string { return fmt.Sprintf("%.3fms", float64(d)/float64(time.Millisecond)) }

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
