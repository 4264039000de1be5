package cupel_test

import (
	"errors"
	"math"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

func validationField(err error) string {
	var ve *cupel.ValidationError
	if errors.As(err, &ve) {
		return ve.Field
	}
	return "<not a ValidationError>"
}

var _ = Describe("ContextKind and ContextSource", func() {
	It("compare with ASCII case folding", func() {
		Expect(cupel.ContextKind("mEsSaGe").Equal(cupel.KindMessage)).To(BeTrue())
		Expect(cupel.ContextSource("CHAT").Equal(cupel.SourceChat)).To(BeTrue())
		Expect(cupel.ContextKind("Tool").Key()).To(Equal("tool"))
	})
	It("do not fold non-ASCII letters (ruling 15: K vs the Kelvin sign)", func() {
		Expect(cupel.ContextKind("K").Equal(cupel.ContextKind("\u212A"))).To(BeFalse())
		Expect(cupel.ContextKind("k").Equal(cupel.ContextKind("\u212A"))).To(BeFalse())
		Expect(cupel.ContextSource("\u212Aind").Equal("kind")).To(BeFalse())
	})
	It("reject blank values", func() {
		for _, s := range []string{"", " ", "\t\n"} {
			_, err := cupel.NewContextKind(s)
			Expect(err).To(MatchError(cupel.ErrInvalidItem))
			_, err = cupel.NewContextSource(s)
			Expect(err).To(MatchError(cupel.ErrInvalidItem))
		}
		k, err := cupel.NewContextKind("Custom")
		Expect(err).NotTo(HaveOccurred())
		Expect(k).To(Equal(cupel.ContextKind("Custom")))
	})
	It("parse overflow strategies and scarcity behaviours", func() {
		s, err := cupel.ParseOverflowStrategy("TRUNCATE")
		Expect(err).NotTo(HaveOccurred())
		Expect(s).To(Equal(cupel.OverflowTruncate))
		_, err = cupel.ParseOverflowStrategy("drop")
		Expect(err).To(MatchError(cupel.ErrInvalidConfig))
		Expect(cupel.OverflowStrategy(0)).To(Equal(cupel.OverflowThrow))
		Expect(cupel.OverflowProceed.String()).To(Equal("Proceed"))
		b, err := slicer.ParseScarcityBehavior("throw")
		Expect(err).NotTo(HaveOccurred())
		Expect(b).To(Equal(slicer.ScarcityThrow))
	})
})

var _ = Describe("ContextItem", func() {
	It("applies the spec defaults", func() {
		it, err := cupel.NewItem(cupel.ItemSpec{Content: "hello", Tokens: 3})
		Expect(err).NotTo(HaveOccurred())
		Expect(it.Kind()).To(Equal(cupel.KindMessage))
		Expect(it.Source()).To(Equal(cupel.SourceChat))
		_, ok := it.Priority()
		Expect(ok).To(BeFalse())
		_, ok = it.Timestamp()
		Expect(ok).To(BeFalse())
		_, ok = it.FutureRelevanceHint()
		Expect(ok).To(BeFalse())
		_, ok = it.OriginalTokens()
		Expect(ok).To(BeFalse())
		Expect(it.Tags()).To(BeEmpty())
		Expect(it.Metadata()).To(BeEmpty())
		Expect(it.Pinned()).To(BeFalse())
	})
	It("rejects empty content and blank kinds or sources, naming the field", func() {
		_, err := cupel.NewItem(cupel.ItemSpec{Content: "", Tokens: 1})
		Expect(err).To(MatchError(cupel.ErrInvalidItem))
		Expect(validationField(err)).To(Equal("content"))
		_, err = cupel.NewItem(cupel.ItemSpec{Content: "x", Kind: "  "})
		Expect(validationField(err)).To(Equal("kind"))
		_, err = cupel.NewItem(cupel.ItemSpec{Content: "x", Source: "\t"})
		Expect(validationField(err)).To(Equal("source"))
	})
	It("accepts negative tokens (the pipeline excludes them)", func() {
		it, err := cupel.NewItem(cupel.ItemSpec{Content: "x", Tokens: -5})
		Expect(err).NotTo(HaveOccurred())
		Expect(it.Tokens()).To(Equal(-5))
	})
	It("is immutable: inputs and outputs are copies", func() {
		tags := []string{"a", "b"}
		md := map[string]any{"k": "v"}
		ts := time.Date(2024, 1, 1, 1, 0, 0, 0, time.FixedZone("x", 3600))
		it := cupel.MustItem(cupel.ItemSpec{Content: "x", Tokens: 1, Tags: tags, Metadata: md, Timestamp: &ts, Priority: cupel.Ptr(3)})
		tags[0] = "changed"
		md["k"] = "changed"
		Expect(it.Tags()).To(Equal([]string{"a", "b"}))
		v, _ := it.MetadataValue("k")
		Expect(v).To(Equal("v"))
		out := it.Tags()
		out[1] = "mutated"
		Expect(it.Tag(1)).To(Equal("b"))
		m := it.Metadata()
		m["new"] = 1
		_, ok := it.MetadataValue("new")
		Expect(ok).To(BeFalse())
		got, _ := it.Timestamp()
		Expect(got.Equal(ts)).To(BeTrue())
		Expect(got.Location()).To(Equal(time.UTC))
		spec := it.Spec()
		*spec.Priority = 9
		p, _ := it.Priority()
		Expect(p).To(Equal(3))
	})
	It("round-trips through JSON with the data model's names", func() {
		ts := time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)
		it := cupel.MustItem(cupel.ItemSpec{Content: "doc", Tokens: 10, Kind: cupel.KindDocument, Source: cupel.SourceRag,
			Priority: cupel.Ptr(2), Tags: []string{"t"}, Metadata: map[string]any{"cupel:trust": 0.5}, Timestamp: &ts,
			FutureRelevanceHint: cupel.Ptr(math.NaN()), Pinned: true, OriginalTokens: cupel.Ptr(20)})
		b, err := it.MarshalJSON()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(MatchJSON(`{"content":"doc","tokens":10,"kind":"Document","source":"Rag","priority":2,"tags":["t"],
			"metadata":{"cupel:trust":0.5},"timestamp":"2024-06-01T12:00:00Z","futureRelevanceHint":"NaN","pinned":true,"originalTokens":20}`))
		var back cupel.ContextItem
		Expect(back.UnmarshalJSON(b)).To(Succeed())
		b2, _ := back.MarshalJSON()
		Expect(b2).To(MatchJSON(b))
		Expect(back.UnmarshalJSON([]byte(`{"content":"","tokens":1}`))).To(MatchError(cupel.ErrInvalidItem))
	})
})

var _ = Describe("ContextBudget", func() {
	DescribeTable("rejects each of the seven invalid cases, naming the field",
		func(spec cupel.BudgetSpec, field string) {
			_, err := cupel.NewBudget(spec)
			Expect(err).To(MatchError(cupel.ErrInvalidBudget))
			Expect(validationField(err)).To(Equal(field))
		},
		Entry("maxTokens < 0", cupel.BudgetSpec{MaxTokens: -1}, "maxTokens"),
		Entry("targetTokens < 0", cupel.BudgetSpec{MaxTokens: 10, TargetTokens: -1}, "targetTokens"),
		Entry("targetTokens > maxTokens", cupel.BudgetSpec{MaxTokens: 10, TargetTokens: 11}, "targetTokens"),
		Entry("outputReserve < 0", cupel.BudgetSpec{MaxTokens: 10, OutputReserve: -1}, "outputReserve"),
		Entry("outputReserve > maxTokens", cupel.BudgetSpec{MaxTokens: 10, OutputReserve: 11}, "outputReserve"),
		Entry("margin < 0", cupel.BudgetSpec{MaxTokens: 10, EstimationSafetyMarginPercent: -0.1}, "estimationSafetyMarginPercent"),
		Entry("margin > 100", cupel.BudgetSpec{MaxTokens: 10, EstimationSafetyMarginPercent: 100.5}, "estimationSafetyMarginPercent"),
		Entry("margin NaN", cupel.BudgetSpec{MaxTokens: 10, EstimationSafetyMarginPercent: math.NaN()}, "estimationSafetyMarginPercent"),
		Entry("negative reserved slot", cupel.BudgetSpec{MaxTokens: 10, ReservedSlots: map[cupel.ContextKind]int{"Document": -1}}, "reservedSlots[Document]"),
	)
	It("rejects reserved slots for the same kind spelled twice", func() {
		_, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 10, ReservedSlots: map[cupel.ContextKind]int{"Document": 1, "document": 2}})
		Expect(err).To(MatchError(cupel.ErrInvalidBudget))
	})
	It("accepts maxTokens = 0 (ruling 12) and the boundaries", func() {
		_, err := cupel.NewBudget(cupel.BudgetSpec{})
		Expect(err).NotTo(HaveOccurred())
		_, err = cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 10, TargetTokens: 10, OutputReserve: 10, EstimationSafetyMarginPercent: 100})
		Expect(err).NotTo(HaveOccurred())
	})
	It("reports reserved-slot sums that overflow int", func() {
		_, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 10, ReservedSlots: map[cupel.ContextKind]int{"A": math.MaxInt, "B": 1}})
		Expect(err).To(MatchError(cupel.ErrTokenOverflow))
	})
	It("does not keep the caller's map", func() {
		slots := map[cupel.ContextKind]int{"Document": 5}
		b, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 10, ReservedSlots: slots})
		slots["Document"] = 9
		Expect(b.ReservedSlots()).To(Equal(map[cupel.ContextKind]int{"Document": 5}))
		Expect(b.ReservedTokens()).To(Equal(5))
	})

	DescribeTable("computes the effective budget exactly (chapter 11, ruling 10)",
		func(spec cupel.BudgetSpec, pinned, wantMax, wantTarget int) {
			b, err := cupel.NewBudget(spec)
			Expect(err).NotTo(HaveOccurred())
			eff := b.Effective(pinned)
			Expect(eff.MaxTokens()).To(Equal(wantMax))
			Expect(eff.TargetTokens()).To(Equal(wantTarget))
			Expect(eff.OutputReserve()).To(BeZero())
			Expect(eff.ReservedSlots()).To(BeNil())
			Expect(eff.EstimationSafetyMarginPercent()).To(BeZero())
		},
		Entry("plain", cupel.BudgetSpec{MaxTokens: 1000, TargetTokens: 800}, 0, 1000, 800),
		Entry("reserve and pinned", cupel.BudgetSpec{MaxTokens: 1000, TargetTokens: 800, OutputReserve: 300}, 100, 600, 600),
		Entry("target clamped to max", cupel.BudgetSpec{MaxTokens: 1000, TargetTokens: 1000, OutputReserve: 500}, 0, 500, 500),
		Entry("reserved slots", cupel.BudgetSpec{MaxTokens: 1000, TargetTokens: 800, ReservedSlots: map[cupel.ContextKind]int{"Document": 150, "Memory": 50}}, 100, 700, 500),
		Entry("slots exceed what is left", cupel.BudgetSpec{MaxTokens: 100, TargetTokens: 100, ReservedSlots: map[cupel.ContextKind]int{"Document": 150}}, 0, 0, 0),
		Entry("pinned over target", cupel.BudgetSpec{MaxTokens: 1000, TargetTokens: 100}, 200, 800, 0),
		Entry("margin floors both", cupel.BudgetSpec{MaxTokens: 1001, TargetTokens: 999, EstimationSafetyMarginPercent: 10}, 0, 900, 899),
		Entry("margin then clamp", cupel.BudgetSpec{MaxTokens: 105, TargetTokens: 105, OutputReserve: 5, EstimationSafetyMarginPercent: 33.3}, 0, 66, 66),
		Entry("margin 100", cupel.BudgetSpec{MaxTokens: 500, TargetTokens: 400, EstimationSafetyMarginPercent: 100}, 0, 0, 0),
		Entry("huge values do not wrap", cupel.BudgetSpec{MaxTokens: math.MaxInt, TargetTokens: math.MaxInt, EstimationSafetyMarginPercent: 1e-300}, 0, math.MaxInt, math.MaxInt),
	)

	It("round-trips through JSON", func() {
		b, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 4096, TargetTokens: 3072, OutputReserve: 512, ReservedSlots: map[cupel.ContextKind]int{"Document": 100}, EstimationSafetyMarginPercent: 5})
		j, err := b.MarshalJSON()
		Expect(err).NotTo(HaveOccurred())
		Expect(j).To(MatchJSON(`{"maxTokens":4096,"targetTokens":3072,"outputReserve":512,"reservedSlots":{"Document":100},"estimationSafetyMarginPercent":5}`))
		var back cupel.ContextBudget
		Expect(back.UnmarshalJSON(j)).To(Succeed())
		Expect(back.Spec()).To(Equal(b.Spec()))
		Expect(back.UnmarshalJSON([]byte(`{"maxTokens":1,"targetTokens":2}`))).To(MatchError(cupel.ErrInvalidBudget))
	})
})
