package protocol

import (
	"bytes"
	"encoding/json"
	"math"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/runner/casefile"
)

// The run message is written and read by wire.go, not by encoding/json;
// the bytes and the values must be encoding/json's all the same.
var _ = ginkgo.Describe("a run message on the wire", func() {
	suite, err := casefile.LoadSuite(nil)

	ginkgo.It("is written as encoding/json writes it, and read back as it reads it, for every embedded vector", func() {
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		gomega.Expect(suite.Cases).NotTo(gomega.BeEmpty())
		for i, c := range suite.Cases {
			m := RunMessage{Type: TypeRun, Request: NewRequest(i+1, c)}
			want, werr := json.Marshal(m)
			got, gerr := encodeLine(m)
			if werr != nil {
				gomega.Expect(gerr).To(gomega.MatchError(werr.Error()), c.ID)
				continue
			}
			gomega.Expect(gerr).NotTo(gomega.HaveOccurred(), c.ID)
			gomega.Expect(string(got)).To(gomega.Equal(string(want)), c.ID)

			var slow RunMessage
			gomega.Expect(json.Unmarshal(got, &slow)).To(gomega.Succeed(), c.ID)
			fast, ok := readRun(got)
			if !ok { // escapes in the case: encoding/json reads it
				continue
			}
			again, err := json.Marshal(fast)
			gomega.Expect(err).NotTo(gomega.HaveOccurred(), c.ID)
			gomega.Expect(string(again)).To(gomega.Equal(string(got)), c.ID)
			gomega.Expect(fast.Seq).To(gomega.Equal(slow.Seq))
			gomega.Expect(fast.ID).To(gomega.Equal(slow.ID))
		}
	})

	ginkgo.It("leaves to encoding/json what the fast reader does not accept", func() {
		for _, line := range []string{
			`{"type":"hello","protocol":["cupel-conform/1"]}`,
			`{"type":"run","seq":1,"id":"x","stage":"scoring","case":{"items":[]},"extra":1}`,
			`{"Type":"run","seq":1,"case":{"items":[]}}`,
			`{"type":"run","seq":1.5,"case":{"items":[]}}`,
			`{"type":"run","seq":1,"case":{"items":[}}`,
			`{"type":"run","seq":1,"case":{"items":[]}} {}`,
		} {
			_, ok := readRun([]byte(line))
			gomega.Expect(ok).To(gomega.BeFalse(), line)
		}
		m, ok := readRun([]byte(` {"type":"run","seq":7,"id":"a/b","stage":"placing","case":{"placer":"chronological","items":[]}} `))
		gomega.Expect(ok).To(gomega.BeTrue())
		gomega.Expect(m.Seq).To(gomega.Equal(7))
		gomega.Expect(m.Case.Placer).To(gomega.Equal("chronological"))
		gomega.Expect(m.Case.Items).To(gomega.Equal([]casefile.Item{}))
	})

	ginkgo.It("reads a result line as encoding/json reads it", func() {
		n := 3
		results := []Result{
			{Kind: ResultOK, Output: &Output{Scores: []IndexScore{{0, 0.5}, {1, casefile.Float(math.NaN())}, {2, casefile.Float(math.Inf(-1))}, {3, casefile.Float(math.Copysign(0, -1))}}}},
			{Kind: ResultOK, Output: &Output{Selected: []int{2, 0}, CapExcludedCount: &n, Shortfalls: []casefile.Shortfall{{Kind: "Message", RequiredCount: 2, SatisfiedCount: 1}}}},
			{Kind: ResultOK, Output: &Output{Ordered: []int{}}},
			{Kind: ResultOK, Output: &Output{Ordered: []int{1}, Overflow: &casefile.Overflow{TokensOverBudget: 7}, Diagnostics: &Diagnostics{
				Included:        []DiagnosticItem{{Index: 1, Score: 0.25, Reason: map[string]any{"reason": "Selected"}}},
				Excluded:        []DiagnosticItem{{Index: 0, Score: casefile.Float(math.NaN()), Reason: map[string]any{"reason": "BudgetExceeded", "item_tokens": int64(9), "available_tokens": int64(-2), "score": casefile.Float(math.Inf(1)), "flag": true}}},
				TotalCandidates: 2, TotalTokensConsidered: 12, Shortfalls: []casefile.Shortfall{}}}},
			{Kind: ResultRejected, Error: &ErrorInfo{Kind: "invalid_budget", Message: "target > max <x>"}},
			{Kind: ResultUnsupported, Reason: "unknown scorer x"},
		}
		for i, res := range results {
			m := ResultMessage{Type: TypeResult, Seq: i, ID: "case/1", Result: res}
			line, err := json.Marshal(m)
			gomega.Expect(err).NotTo(gomega.HaveOccurred())
			written, err := encodeLine(m)
			gomega.Expect(err).NotTo(gomega.HaveOccurred())
			gomega.Expect(string(written)).To(gomega.Equal(string(line)))
			// A bool in a reason is left to encoding/json; the rest is not.
			_, fastWrite := appendResult(nil, &m)
			gomega.Expect(fastWrite).To(gomega.Equal(i != 3), string(line))
			var slow ResultMessage
			gomega.Expect(json.Unmarshal(line, &slow)).To(gomega.Succeed())
			fast, ok := readResult(line)
			if bytes.Contains(line, []byte(`\u003c`)) { // an escape: encoding/json reads it
				gomega.Expect(ok).To(gomega.BeFalse(), string(line))
				continue
			}
			gomega.Expect(ok).To(gomega.BeTrue(), string(line))
			a, err := json.Marshal(fast)
			gomega.Expect(err).NotTo(gomega.HaveOccurred())
			b, err := json.Marshal(slow)
			gomega.Expect(err).NotTo(gomega.HaveOccurred())
			gomega.Expect(string(a)).To(gomega.Equal(string(b)))
			if slow.Output != nil && slow.Output.Diagnostics != nil {
				gomega.Expect(fast.Output.Diagnostics.Excluded[0].Reason).To(gomega.HaveKeyWithValue("item_tokens", 9.0))
				gomega.Expect(fast.Output.Diagnostics.Shortfalls).To(gomega.BeNil()) // omitted when empty
			}
		}
		for _, line := range []string{
			`{"type":"result","seq":1,"status":"ok","output":null}`,
			`{"type":"result","seq":1,"status":"ok","output":{"ordered":[1,2],"ordered":[3]}}`,
			`{"type":"result","seq":1,"status":"ok","output":{"diagnostics":{"included":[{"index":0,"score":1,"reason":{"reason":"x","list":[1]}}]}}}`,
			`{"type":"result","seq":1,"status":"ok","extra":true}`,
		} {
			_, ok := readResult([]byte(line))
			gomega.Expect(ok).To(gomega.BeFalse(), line)
		}
	})
})
