package cupelotel_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupelotel"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// benchRun is a small run for the allocation checks and benchmarks.
type benchRun struct {
	p      *cupel.Pipeline
	items  []*cupel.ContextItem
	budget cupel.ContextBudget
}

func newBenchRun(tb interface{ Fatal(...any) }) benchRun {
	p, err := cupel.NewPipeline(cupel.Policy{Scorer: tableScorer{"a": 0.5, "b": 0.4}, Slicer: capSlicer{}, Placer: orderPlacer{}})
	if err != nil {
		tb.Fatal(err)
	}
	b, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 100, TargetTokens: 20})
	if err != nil {
		tb.Fatal(err)
	}
	items := []*cupel.ContextItem{
		cupel.MustItem(cupel.ItemSpec{Content: "sys", Tokens: 5, Pinned: true}),
		cupel.MustItem(cupel.ItemSpec{Content: "a", Tokens: 10}),
		cupel.MustItem(cupel.ItemSpec{Content: "b", Tokens: 10}),
		cupel.MustItem(cupel.ItemSpec{Content: "b", Tokens: 10}),
		cupel.MustItem(cupel.ItemSpec{Content: "n", Tokens: -1}),
	}
	return benchRun{p, items, b}
}

func (r benchRun) plain() {
	if _, err := r.p.Run(r.items, r.budget); err != nil {
		panic(err)
	}
}

func (r benchRun) traced(t *cupelotel.Tracer) {
	if _, err := t.Run(background, r.p, r.items, r.budget); err != nil {
		panic(err)
	}
}

func (r benchRun) startEnd(t *cupelotel.Tracer) {
	_, c := t.Start(background, r.budget)
	_, err := r.p.Run(r.items, r.budget, cupel.WithTrace(c))
	c.End(err)
	if err != nil {
		panic(err)
	}
}

func neverSampled() (*cupelotel.Tracer, *tracetest.InMemoryExporter, trace.Tracer) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp), sdktrace.WithSampler(sdktrace.NeverSample()))
	return cupelotel.NewTracer(cupelotel.WithTracerProvider(tp), cupelotel.WithVerbosity(cupelotel.Full)), exp, tp.Tracer("bare")
}

var _ = Describe("When the tracer does not record", func() {
	It("is disabled under the no-op provider, without calling the tracer", func() {
		t := cupelotel.NewTracer(cupelotel.WithTracerProvider(noop.NewTracerProvider()), cupelotel.WithVerbosity(cupelotel.Full))
		ctx, c := t.Start(background, budget(10, 10))
		Expect(ctx).To(BeIdenticalTo(background))
		Expect(c.Enabled()).To(BeFalse())
		c.RecordItemEvent(cupel.TraceEvent{Stage: cupel.StageSlice, Item: item("x", 1, cupel.KindMessage), Exclusion: cupel.BudgetExceeded(1, 0)})
		c.RecordStageEvent(cupel.TraceEvent{Stage: cupel.StageSlice})
		c.End(nil)
	})

	It("is disabled when the sampler drops the trace, and exports nothing", func() {
		t, exp, _ := neverSampled()
		r := newBenchRun(GinkgoT())
		_, c := t.Start(background, r.budget)
		Expect(c.Enabled()).To(BeFalse())
		r.traced(t)
		r.startEnd(t)
		Expect(exp.GetSpans()).To(BeEmpty())
	})

	It("passes the run options to the pipeline unchanged", func() {
		t, _, _ := neverSampled()
		r := newBenchRun(GinkgoT())
		diag := cupel.NewDiagnosticTraceCollector(cupel.DetailStage, nil)
		_, err := t.Run(background, r.p, r.items, r.budget, cupel.WithTrace(diag))
		Expect(err).NotTo(HaveOccurred())
		Expect(diag.Events()).To(HaveLen(5))
	})

	It("allocates nothing beyond the pipeline's null path (no-op provider)", func() {
		if raceEnabled {
			Skip("allocation counts vary under the race detector")
		}
		r := newBenchRun(GinkgoT())
		t := cupelotel.NewTracer(cupelotel.WithTracerProvider(noop.NewTracerProvider()))
		base := testing.AllocsPerRun(50, r.plain)
		Expect(testing.AllocsPerRun(50, func() { r.traced(t) })).To(Equal(base))
		Expect(testing.AllocsPerRun(50, func() { r.startEnd(t) })).To(Equal(base))
	})

	It("allocates nothing beyond the pipeline's null path and the tracer's own Start (sampled out)", func() {
		if raceEnabled {
			Skip("allocation counts vary under the race detector")
		}
		r := newBenchRun(GinkgoT())
		t, _, bare := neverSampled()
		base := testing.AllocsPerRun(50, r.plain)
		start := testing.AllocsPerRun(50, func() { _, s := bare.Start(background, "x"); s.End() })
		Expect(testing.AllocsPerRun(50, func() { r.traced(t) })).To(Equal(base + start))
	})
})

var _ = Describe("The default provider", func() {
	It("is the global one, even when set after NewTracer", func() {
		prev := otel.GetTracerProvider()
		DeferCleanup(func() { otel.SetTracerProvider(prev) })
		t := cupelotel.NewTracer()
		Expect(t.Verbosity()).To(Equal(cupelotel.StageOnly))
		exp := tracetest.NewInMemoryExporter()
		otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp)))
		r := newBenchRun(GinkgoT())
		r.traced(t)
		spans := exp.GetSpans()
		Expect(spans).To(HaveLen(6))
		for _, s := range spans {
			Expect(s.InstrumentationScope.Name).To(Equal("github.com/cupel-go/go-cupel/cupelotel"))
		}
	})
})

var _ = Describe("Verbosity", func() {
	It("names the tiers as cupel.verbosity records them", func() {
		Expect([]string{cupelotel.StageOnly.String(), cupelotel.StageAndExclusions.String(), cupelotel.Full.String(), cupelotel.Verbosity(7).String()}).
			To(Equal([]string{"StageOnly", "StageAndExclusions", "Full", "Verbosity(7)"}))
	})
})

var _ = Describe("The core module", func() {
	It("depends on no OpenTelemetry package, tests included", func() {
		// go test puts its own GOROOT/bin first on the test's PATH.
		goTool, err := exec.LookPath("go")
		Expect(err).NotTo(HaveOccurred(), "the go command is on PATH")
		cmd := exec.Command(goTool, "list", "-deps", "-test", "./...")
		cmd.Dir = ".."
		out, err := cmd.Output()
		if ee, ok := err.(*exec.ExitError); ok {
			Fail("go list failed: " + string(ee.Stderr))
		}
		Expect(err).NotTo(HaveOccurred())
		deps := strings.Fields(string(out))
		Expect(deps).To(ContainElement("github.com/cupel-go/go-cupel/cupel"), "go list ran in the core module")
		for _, d := range deps {
			Expect(d).NotTo(HavePrefix("go.opentelemetry.io/"))
		}
		Expect(deps).NotTo(ContainElement(HavePrefix("github.com/cupel-go/go-cupel/cupelotel")))
	})
})

func BenchmarkRun(b *testing.B) {
	r := newBenchRun(b)
	never, _, _ := neverSampled()
	b.Run("null-path", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r.plain()
		}
	})
	b.Run("noop-provider", func(b *testing.B) {
		t := cupelotel.NewTracer(cupelotel.WithTracerProvider(noop.NewTracerProvider()))
		b.ReportAllocs()
		for b.Loop() {
			r.traced(t)
		}
	})
	b.Run("sdk-never-sampled", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r.traced(never)
		}
	})
	for _, v := range []cupelotel.Verbosity{cupelotel.StageOnly, cupelotel.StageAndExclusions, cupelotel.Full} {
		b.Run("sdk-recording-"+v.String(), func(b *testing.B) {
			tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(discard{}))
			t := cupelotel.NewTracer(cupelotel.WithTracerProvider(tp), cupelotel.WithVerbosity(v))
			b.ReportAllocs()
			for b.Loop() {
				r.traced(t)
			}
		})
	}
}
