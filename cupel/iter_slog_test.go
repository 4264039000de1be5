package cupel_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

var _ = Describe("iterators", func() {
	var (
		res cupel.Result
		rep *cupel.SelectionReport
	)
	BeforeEach(func() {
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewPriority(), Slicer: slicer.NewGreedy(), Placer: placer.NewUShaped()})
		Expect(err).NotTo(HaveOccurred())
		items := benchItems(300)
		items = append(items, cupel.MustItem(cupel.ItemSpec{Content: "neg", Tokens: -4}), items[3])
		res, rep, err = dryRun(p, items, slBudget(20000, 15000))
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Excluded).NotTo(BeEmpty())
	})

	It("Result.All yields the items in placed order with their scores, and stops when asked", func() {
		var items []*cupel.ContextItem
		var scores []float64
		for it, s := range res.All() {
			items, scores = append(items, it), append(scores, s)
		}
		Expect(items).To(Equal(res.Items))
		Expect(scores).To(Equal(res.Scores))
		n := 0
		for range res.All() {
			n++
			if n == 2 {
				break
			}
		}
		Expect(n).To(Equal(2))
	})

	It("IncludedItems and ExcludedItems yield the report's lists in order", func() {
		Expect(slices.Collect(rep.IncludedItems())).To(Equal(rep.Included))
		Expect(slices.Collect(rep.ExcludedItems())).To(Equal(rep.Excluded))
	})

	It("ExcludedBy yields the exclusions of one variant, in the report's order", func() {
		var want []cupel.ExcludedItem
		for _, x := range rep.Excluded {
			if x.Reason.Variant == cupel.ExclusionDeduplicated {
				want = append(want, x)
			}
		}
		Expect(want).To(HaveLen(1))
		Expect(slices.Collect(rep.ExcludedBy(cupel.ExclusionDeduplicated))).To(Equal(want))
		Expect(slices.Collect(rep.ExcludedBy(cupel.ExclusionNegativeTokens))).To(HaveLen(1))
		Expect(slices.Collect(rep.ExcludedBy(cupel.ExclusionFiltered))).To(BeEmpty())
	})

	It("a nil report yields nothing", func() {
		var nilRep *cupel.SelectionReport
		Expect(slices.Collect(nilRep.IncludedItems())).To(BeEmpty())
		Expect(slices.Collect(nilRep.ExcludedItems())).To(BeEmpty())
	})

	It("DiagnosticTraceCollector.All yields what Events returns, at both levels", func() {
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewPriority(), Slicer: slicer.NewGreedy(), Placer: placer.NewUShaped()})
		Expect(err).NotTo(HaveOccurred())
		for _, level := range []cupel.TraceDetailLevel{cupel.DetailStage, cupel.DetailItem} {
			col := cupel.NewDiagnosticTraceCollector(level, nil)
			// A custom event the compact form cannot hold, recorded after the run.
			_, err := p.Run(benchItems(200), slBudget(10000, 8000), cupel.WithTrace(col))
			Expect(err).NotTo(HaveOccurred())
			col.RecordItemEvent(cupel.TraceEvent{Stage: "Custom", ItemCount: 1, Message: "note", Item: res.Items[0]})
			Expect(slices.Collect(col.All())).To(Equal(col.Events()))
			n := 0
			for range col.All() {
				n++
				if n == 3 {
					break
				}
			}
			Expect(n).To(Equal(3))
		}
	})
})

var _ = Describe("NewSlogObserver", func() {
	records := func(buf *bytes.Buffer) []map[string]any {
		var out []map[string]any
		for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
			if line == "" {
				continue
			}
			var m map[string]any
			Expect(json.Unmarshal([]byte(line), &m)).To(Succeed())
			delete(m, "time")
			out = append(out, m)
		}
		return out
	}
	logger := func(buf *bytes.Buffer, level slog.Level) *slog.Logger {
		return slog.New(slog.NewJSONHandler(buf, &slog.HandlerOptions{Level: level}))
	}

	It("writes every event the collector keeps as one record with the spec's field names", func() {
		var buf bytes.Buffer
		col := cupel.NewDiagnosticTraceCollector(cupel.DetailItem, cupel.NewSlogObserver(logger(&buf, slog.LevelDebug), slog.LevelInfo))
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewPriority(), Slicer: slicer.NewGreedy(), Placer: placer.NewChronological(), Overflow: cupel.OverflowTruncate})
		Expect(err).NotTo(HaveOccurred())
		items := []*cupel.ContextItem{
			cupel.MustItem(cupel.ItemSpec{Content: "pin", Tokens: 30, Pinned: true}),
			cupel.MustItem(cupel.ItemSpec{Content: "a", Tokens: 40, Priority: cupel.Ptr(5)}),
			cupel.MustItem(cupel.ItemSpec{Content: "a", Tokens: 40, Priority: cupel.Ptr(1)}),
			cupel.MustItem(cupel.ItemSpec{Content: "neg", Tokens: -2}),
			cupel.MustItem(cupel.ItemSpec{Content: strings.Repeat("é", 40), Tokens: 0, Kind: cupel.KindDocument}),
		}
		_, err = p.Run(items, slBudget(100, 100), cupel.WithTrace(col))
		Expect(err).NotTo(HaveOccurred())

		got := records(&buf)
		events := col.Events()
		Expect(got).To(HaveLen(len(events)))
		for i, e := range events {
			r := got[i]
			Expect(r["stage"]).To(Equal(string(e.Stage)))
			if e.Item == nil {
				Expect(r["level"]).To(Equal("INFO"))
				Expect(r["msg"]).To(Equal("cupel stage"))
				Expect(r["item_count"]).To(BeNumerically("==", e.ItemCount))
				Expect(r["duration_ms"]).To(BeNumerically("==", e.DurationMs))
				continue
			}
			Expect(r["level"]).To(Equal("DEBUG"))
			Expect(r["msg"]).To(Equal("cupel item"))
			Expect(r["score"]).To(BeNumerically("==", e.Score))
			item := r["item"].(map[string]any)
			Expect(item["tokens"]).To(BeNumerically("==", e.Item.Tokens()))
			Expect(item["kind"]).To(Equal(string(e.Item.Kind())))
			if e.Exclusion.Variant != "" {
				// The reason's attributes are its JSON envelope's fields.
				env, err := json.Marshal(e.Exclusion)
				Expect(err).NotTo(HaveOccurred())
				var want map[string]any
				Expect(json.Unmarshal(env, &want)).To(Succeed())
				for k, v := range want {
					Expect(r).To(HaveKeyWithValue(k, v))
				}
			} else {
				Expect(r["reason"]).To(Equal(string(e.Inclusion)))
			}
		}
		var reasons []string
		for _, r := range got {
			if s, ok := r["reason"].(string); ok {
				reasons = append(reasons, s)
			}
		}
		Expect(reasons).To(ContainElements("NegativeTokens", "Deduplicated", "Pinned", "Scored", "ZeroToken"))
		var long string
		for _, r := range got {
			if it, ok := r["item"].(map[string]any); ok && it["kind"] == "Document" {
				long = it["content"].(string)
			}
		}
		Expect(long).To(Equal(strings.Repeat("é", 32) + "…"))
	})

	It("builds nothing below the logger's level: an Info logger gets the stage events only", func() {
		var buf bytes.Buffer
		col := cupel.NewDiagnosticTraceCollector(cupel.DetailItem, cupel.NewSlogObserver(logger(&buf, slog.LevelInfo), slog.LevelInfo))
		p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewPriority(), Slicer: slicer.NewGreedy(), Placer: placer.NewChronological()})
		Expect(err).NotTo(HaveOccurred())
		_, err = p.Run(benchItems(50), slBudget(3000, 2000), cupel.WithTrace(col))
		Expect(err).NotTo(HaveOccurred())
		got := records(&buf)
		Expect(got).To(HaveLen(5))
		for _, r := range got {
			Expect(r["msg"]).To(Equal("cupel stage"))
		}
	})

	It("logs unknown exclusion variants with their raw fields and a nil logger to slog.Default", func() {
		var buf bytes.Buffer
		old := slog.Default()
		slog.SetDefault(logger(&buf, slog.LevelDebug))
		defer slog.SetDefault(old)
		obs := cupel.NewSlogObserver(nil, slog.LevelWarn)
		obs(cupel.TraceEvent{Stage: "Filter", ItemCount: 1, Item: slItem("x", 3), Exclusion: cupel.UnknownExclusion("TooOld", `{"age":9}`), Message: "custom"})
		got := records(&buf)
		Expect(got).To(HaveLen(1))
		Expect(got[0]).To(HaveKeyWithValue("level", "INFO"))
		Expect(got[0]).To(HaveKeyWithValue("reason", "TooOld"))
		Expect(got[0]).To(HaveKeyWithValue("fields", `{"age":9}`))
		Expect(got[0]).To(HaveKeyWithValue("message", "custom"))
	})
})
