package cupel_test

import (
	"context"
	"errors"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

// doneNoErr is a context whose Done channel is closed while its Err is
// still nil, as a custom context may briefly be.
type doneNoErr struct{ done chan struct{} }

func (c doneNoErr) Deadline() (time.Time, bool) { return time.Time{}, false }
func (c doneNoErr) Done() <-chan struct{}       { return c.done }
func (c doneNoErr) Err() error                  { return nil }
func (c doneNoErr) Value(any) any               { return nil }

// countingSlicer is a plain slicer (no SliceContext) that counts its calls.
type countingSlicer struct{ calls int }

func (s *countingSlicer) Slice(sorted []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	s.calls++
	return slicer.NewGreedy().Slice(sorted, b)
}

// disagreeingSlicer's SliceDetailed selects nothing, unlike its Slice.
type disagreeingSlicer struct{}

func (disagreeingSlicer) Slice(sorted []cupel.ScoredItem, b cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	return slicer.NewGreedy().Slice(sorted, b)
}

func (disagreeingSlicer) SliceDetailed([]cupel.ScoredItem, cupel.ContextBudget) (cupel.SliceResult, error) {
	return cupel.SliceResult{Selected: []*cupel.ContextItem{}}, nil
}

var _ = Describe("Cancellation edge cases", func() {
	sorted := func() []cupel.ScoredItem {
		out := []cupel.ScoredItem{}
		for _, it := range stItems(5, 10) {
			out = append(out, cupel.ScoredItem{Item: it, Score: 0.5})
		}
		return out
	}

	It("reports context.Canceled for a context whose Done is closed before its Err is set", func() {
		ctx := doneNoErr{done: make(chan struct{})}
		close(ctx.done)
		_, err := slicer.NewGreedy().SliceContext(ctx, sorted(), slTarget(100))
		Expect(errors.Is(err, context.Canceled)).To(BeTrue())
		var ce *cupel.CanceledError
		Expect(errors.As(err, &ce)).To(BeTrue())
		Expect(ce.Err).To(Equal(context.Canceled))
	})

	It("SliceWithContext does not call a slicer without SliceContext when the context is already done", func() {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		s := &countingSlicer{}
		_, err := cupel.SliceWithContext(ctx, s, sorted(), slTarget(100))
		Expect(errors.Is(err, context.Canceled)).To(BeTrue())
		Expect(s.calls).To(Equal(0))
	})

	It("a built-in decorator calls its inner slicer's Slice, not SliceDetailed, when the run cannot be cancelled", func() {
		qs, err := slicer.NewQuota(ctxMust(slicer.NewQuotaSet(slicer.Require(cupel.KindMessage, 10))), disagreeingSlicer{})
		Expect(err).NotTo(HaveOccurred())
		sel, err := qs.Slice(sorted(), slTarget(100))
		Expect(err).NotTo(HaveOccurred())
		Expect(sel).To(HaveLen(5))
	})
})
