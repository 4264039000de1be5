package cupel_test

import (
	"encoding/json"
	"math"

	"github.com/cupel-go/go-cupel/cupel"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("exclusion reasons", func() {
	It("carry their variant's data and nothing else", func() {
		r := cupel.BudgetExceeded(2048, 512)
		Expect(r.ItemTokens()).To(Equal(2048))
		Expect(r.AvailableTokens()).To(Equal(512))
		Expect(r.Tokens()).To(BeZero())
		Expect(r.Cap()).To(BeZero())
		Expect(cupel.CountCapExceeded("toolOutput", 2, 3).Kind()).To(Equal(cupel.ContextKind("toolOutput")))
		Expect(cupel.CountCapExceeded("x", 2, 3).Count()).To(Equal(3))
		Expect(cupel.QuotaCapExceeded("x", 2, 5).Actual()).To(Equal(5))
		Expect(cupel.QuotaCapExceeded("x", 2, 5).Count()).To(BeZero())
		Expect(cupel.ScoredTooLow(0.12, 0.25).Score()).To(Equal(0.12))
		Expect(cupel.ScoredTooLow(0.12, 0.25).Threshold()).To(Equal(0.25))
		Expect(cupel.Deduplicated("x").DisplacedBy()).To(BeEmpty())
		Expect(cupel.PinnedOverride("sys").DisplacedBy()).To(Equal("sys"))
		Expect(cupel.QuotaRequireDisplaced("SystemPrompt").DisplacedByKind()).To(Equal(cupel.KindSystemPrompt))
		Expect(cupel.Filtered("max_age").FilterName()).To(Equal("max_age"))
		minusOne, minusOneAgain, minusTwo := cupel.NegativeTokens(-1), cupel.NegativeTokens(-1), cupel.NegativeTokens(-2)
		Expect(minusOne == minusOneAgain).To(BeTrue())
		Expect(minusOne == minusTwo).To(BeFalse())
	})

	DescribeTable("encode in the spec's envelope and decode back",
		func(r cupel.ExclusionReason, want string) {
			b, err := json.Marshal(r)
			Expect(err).NotTo(HaveOccurred())
			Expect(b).To(MatchJSON(want))
			var back cupel.ExclusionReason
			Expect(json.Unmarshal(b, &back)).To(Succeed())
			Expect(back).To(Equal(r))
		},
		Entry("BudgetExceeded", cupel.BudgetExceeded(2048, 512), `{"reason":"BudgetExceeded","item_tokens":2048,"available_tokens":512}`),
		Entry("ScoredTooLow", cupel.ScoredTooLow(0.12, 0.25), `{"reason":"ScoredTooLow","score":0.12,"threshold":0.25}`),
		Entry("Deduplicated", cupel.Deduplicated("tool_output_abc123"), `{"reason":"Deduplicated","deduplicated_against":"tool_output_abc123"}`),
		Entry("QuotaCapExceeded", cupel.QuotaCapExceeded("ToolOutput", 3, 4), `{"reason":"QuotaCapExceeded","kind":"ToolOutput","cap":3,"actual":4}`),
		Entry("QuotaRequireDisplaced", cupel.QuotaRequireDisplaced("SystemPrompt"), `{"reason":"QuotaRequireDisplaced","displaced_by_kind":"SystemPrompt"}`),
		Entry("NegativeTokens", cupel.NegativeTokens(-1), `{"reason":"NegativeTokens","tokens":-1}`),
		Entry("PinnedOverride", cupel.PinnedOverride("sys"), `{"reason":"PinnedOverride","displaced_by":"sys"}`),
		Entry("Filtered", cupel.Filtered("max_age_filter"), `{"reason":"Filtered","filter_name":"max_age_filter"}`),
		Entry("CountCapExceeded", cupel.CountCapExceeded("ToolOutput", 2, 2), `{"reason":"CountCapExceeded","kind":"ToolOutput","cap":2,"count":2}`),
		Entry("ScoredTooLow NaN", cupel.ScoredTooLow(math.Inf(1), 0), `{"reason":"ScoredTooLow","score":"Infinity","threshold":0}`),
	)

	It("decode unknown variants without error, keeping name and fields (ruling 9)", func() {
		var r cupel.ExclusionReason
		Expect(json.Unmarshal([]byte(`{"reason":"TooSpicy","heat":9,"by":"chef"}`), &r)).To(Succeed())
		Expect(r.Variant).To(Equal(cupel.ExclusionVariant("TooSpicy")))
		Expect(r.Known()).To(BeFalse())
		Expect(r.UnknownFields()).To(MatchJSON(`{"heat":9,"by":"chef"}`))
		b, err := json.Marshal(r)
		Expect(err).NotTo(HaveOccurred())
		Expect(b).To(MatchJSON(`{"reason":"TooSpicy","by":"chef","heat":9}`))
		Expect(json.Unmarshal([]byte(`{"heat":9}`), &r)).To(HaveOccurred())
	})

	It("decode the spec's complete report example, unknown stages and inclusion reasons included", func() {
		const example = `{
  "events": [
    { "stage": "Classify", "duration_ms": 0.3, "item_count": 5 },
    { "stage": "Score", "duration_ms": 8.2, "item_count": 3 },
    { "stage": "Deduplicate", "duration_ms": 0.1, "item_count": 3 },
    { "stage": "Slice", "duration_ms": 1.4, "item_count": 3 },
    { "stage": "Place", "duration_ms": 0.2, "item_count": 2 },
    { "stage": "Rerank", "duration_ms": 0.0, "item_count": 1, "message": "custom" }
  ],
  "included": [
    { "item": { "content": "Recent conversation turn", "tokens": 256, "kind": "Message" }, "score": 0.92, "reason": { "reason": "Scored" } },
    { "item": { "content": "System prompt", "tokens": 128, "kind": "SystemPrompt" }, "score": 0.0, "reason": { "reason": "Pinned" } },
    { "item": { "content": "Lucky", "tokens": 1 }, "score": 0.5, "reason": { "reason": "Serendipity" } }
  ],
  "excluded": [
    { "item": { "content": "Old tool output", "tokens": 2048, "kind": "ToolOutput" }, "score": 0.45,
      "reason": { "reason": "BudgetExceeded", "item_tokens": 2048, "available_tokens": 512 } },
    { "item": { "content": "Duplicate message", "tokens": 256, "kind": "Message" }, "score": 0.30,
      "reason": { "reason": "Deduplicated", "deduplicated_against": "Recent conversation turn" } }
  ],
  "total_candidates": 5,
  "total_tokens_considered": 4736
}`
		var rep cupel.SelectionReport
		Expect(json.Unmarshal([]byte(example), &rep)).To(Succeed())
		Expect(rep.Events).To(HaveLen(6))
		Expect(rep.Events[5].Stage).To(Equal(cupel.PipelineStage("Rerank")))
		Expect(rep.Included[2].Reason).To(Equal(cupel.InclusionReason("Serendipity")))
		Expect(rep.Excluded[0].Reason).To(Equal(cupel.BudgetExceeded(2048, 512)))
		Expect(rep.Excluded[1].Reason.DeduplicatedAgainst()).To(Equal("Recent conversation turn"))
		Expect(rep.TotalTokensConsidered).To(Equal(4736))
		b, err := json.Marshal(&rep)
		Expect(err).NotTo(HaveOccurred())
		var again cupel.SelectionReport
		Expect(json.Unmarshal(b, &again)).To(Succeed())
		b2, _ := json.Marshal(&again)
		Expect(b2).To(MatchJSON(b))
	})
})
