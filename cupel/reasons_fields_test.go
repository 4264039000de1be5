package cupel_test

import (
	"encoding/json"
	"math"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
)

// reasonFields is every accessor of an ExclusionReason, read at once.
type reasonFields struct {
	ItemTokens, AvailableTokens int
	Score, Threshold            float64
	DeduplicatedAgainst         string
	Kind                        cupel.ContextKind
	Cap, Actual, Count          int
	DisplacedByKind             cupel.ContextKind
	Tokens                      int
	DisplacedBy, FilterName     string
	ScoreBits, ThresholdBits    uint64
}

func fieldsOf(r cupel.ExclusionReason) reasonFields {
	return reasonFields{
		ItemTokens: r.ItemTokens(), AvailableTokens: r.AvailableTokens(),
		Score: r.Score(), Threshold: r.Threshold(),
		DeduplicatedAgainst: r.DeduplicatedAgainst(),
		Kind:                r.Kind(), Cap: r.Cap(), Actual: r.Actual(), Count: r.Count(),
		DisplacedByKind: r.DisplacedByKind(), Tokens: r.Tokens(),
		DisplacedBy: r.DisplacedBy(), FilterName: r.FilterName(),
		ScoreBits: math.Float64bits(r.Score()), ThresholdBits: math.Float64bits(r.Threshold()),
	}
}

// scoreFields is the reasonFields of a ScoredTooLow(score, threshold).
func scoreFields(score, threshold float64) reasonFields {
	return reasonFields{Score: score, Threshold: threshold, ScoreBits: math.Float64bits(score), ThresholdBits: math.Float64bits(threshold)}
}

// These run on every GOARCH: .ci/run runs the package with GOARCH=386 too,
// where int is 32 bits and a float64 packed into an int lost its high half
// (ScoredTooLow(0.25, 0.5).Score() was 0).
var _ = Describe("exclusion reasons on every platform", func() {
	// The largest and smallest int of the platform: 32-bit values under 386.
	const maxInt, minInt = math.MaxInt, math.MinInt
	tiny := math.SmallestNonzeroFloat64
	negZero := math.Copysign(0, -1)

	DescribeTable("keep every field of their variant, exactly, and report zero for the others",
		func(r cupel.ExclusionReason, want reasonFields) {
			Expect(fieldsOf(r)).To(Equal(want))
			// Through a DiagnosticTraceCollector, which stores reasons in
			// compact form, and through JSON.
			c := cupel.NewDiagnosticTraceCollector(cupel.DetailItem, nil)
			c.RecordItemEvent(cupel.TraceEvent{Stage: cupel.StageSlice, ItemCount: 1, Item: cupel.MustItem(cupel.ItemSpec{Content: "x", Tokens: 1}), Exclusion: r})
			rep := c.Report()
			Expect(rep.Excluded).To(HaveLen(1))
			Expect(fieldsOf(rep.Excluded[0].Reason)).To(Equal(want))
			Expect(rep.Excluded[0].Reason).To(Equal(r))
			b, err := json.Marshal(r)
			Expect(err).NotTo(HaveOccurred())
			var back cupel.ExclusionReason
			Expect(json.Unmarshal(b, &back)).To(Succeed())
			Expect(fieldsOf(back)).To(Equal(want))
		},
		Entry("ScoredTooLow(0.25, 0.5)", cupel.ScoredTooLow(0.25, 0.5), scoreFields(0.25, 0.5)),
		Entry("ScoredTooLow with every mantissa bit set", cupel.ScoredTooLow(math.Nextafter(1, 0), 0.1), scoreFields(math.Nextafter(1, 0), 0.1)),
		Entry("ScoredTooLow with negative, subnormal and -0 values", cupel.ScoredTooLow(-tiny, negZero), scoreFields(-tiny, negZero)),
		Entry("ScoredTooLow with huge values", cupel.ScoredTooLow(math.MaxFloat64, -math.MaxFloat64), scoreFields(math.MaxFloat64, -math.MaxFloat64)),
		Entry("BudgetExceeded", cupel.BudgetExceeded(2048, 512), reasonFields{ItemTokens: 2048, AvailableTokens: 512}),
		Entry("BudgetExceeded at the int range's ends", cupel.BudgetExceeded(maxInt, minInt), reasonFields{ItemTokens: maxInt, AvailableTokens: minInt}),
		Entry("Deduplicated", cupel.Deduplicated("kept"), reasonFields{DeduplicatedAgainst: "kept"}),
		Entry("QuotaCapExceeded", cupel.QuotaCapExceeded("ToolOutput", 3, maxInt), reasonFields{Kind: "ToolOutput", Cap: 3, Actual: maxInt}),
		Entry("QuotaRequireDisplaced", cupel.QuotaRequireDisplaced("Memory"), reasonFields{DisplacedByKind: "Memory"}),
		Entry("NegativeTokens", cupel.NegativeTokens(minInt), reasonFields{Tokens: minInt}),
		Entry("PinnedOverride", cupel.PinnedOverride("sys"), reasonFields{DisplacedBy: "sys"}),
		Entry("Filtered", cupel.Filtered("max_age"), reasonFields{FilterName: "max_age"}),
		Entry("CountCapExceeded", cupel.CountCapExceeded("Message", maxInt, 7), reasonFields{Kind: "Message", Cap: maxInt, Count: 7}),
	)

	It("render ScoredTooLow's score and threshold", func() {
		Expect(cupel.ScoredTooLow(0.25, 0.5).String()).To(Equal("ScoredTooLow: score 0.25 below threshold 0.5"))
	})

	It("refuse, in JSON, an integer field out of the platform's int range", func() {
		var r cupel.ExclusionReason
		err := json.Unmarshal([]byte(`{"reason":"NegativeTokens","tokens":-9223372036854775809}`), &r)
		Expect(err).To(HaveOccurred())
		if strconv.IntSize == 32 {
			Expect(json.Unmarshal([]byte(`{"reason":"NegativeTokens","tokens":-2147483649}`), &r)).NotTo(Succeed())
		}
	})
})
