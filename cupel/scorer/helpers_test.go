package scorer_test

import (
	"errors"
	"math"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/internal/randitems"
	"github.com/cupel-go/go-cupel/cupel/scorer"
)

// scOpt sets one field of an item built by scItem.
type scOpt func(*cupel.ItemSpec)

// scItem builds a valid item with the given content and options.
func scItem(content string, opts ...scOpt) *cupel.ContextItem {
	spec := cupel.ItemSpec{Content: content, Tokens: 10}
	for _, o := range opts {
		o(&spec)
	}
	return cupel.MustItem(spec)
}

func scAt(t time.Time) scOpt           { return func(s *cupel.ItemSpec) { s.Timestamp = &t } }
func scPriority(p int) scOpt           { return func(s *cupel.ItemSpec) { s.Priority = &p } }
func scTags(tags ...string) scOpt      { return func(s *cupel.ItemSpec) { s.Tags = tags } }
func scHint(h float64) scOpt           { return func(s *cupel.ItemSpec) { s.FutureRelevanceHint = &h } }
func scKind(k cupel.ContextKind) scOpt { return func(s *cupel.ItemSpec) { s.Kind = k } }
func scMeta(key string, v any) scOpt {
	return func(s *cupel.ItemSpec) {
		if s.Metadata == nil {
			s.Metadata = map[string]any{}
		}
		s.Metadata[key] = v
	}
}

// scPerItem scores every item with the spec's per-item path. Like the batch
// path, it does not hand a nil item to a custom scorer (it scores it 0).
func scPerItem(s cupel.Scorer, items []*cupel.ContextItem) []float64 {
	out := make([]float64, len(items))
	for i, it := range items {
		if it == nil && !hasBatchPath(s) {
			continue
		}
		out[i] = s.Score(it, items)
	}
	return out
}

// scBatched scores every item with the batch path.
func scBatched(s cupel.Scorer, items []*cupel.ContextItem) []float64 {
	out := make([]float64, len(items))
	for i := range out {
		out[i] = -12345 // must be overwritten
	}
	cupel.ScoreBatch(s, items, out)
	return out
}

// scSame reports whether a and b are equal within 1e-12, NaN equal to NaN.
func scSame(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	if a == b {
		return true
	}
	return math.Abs(a-b) <= 1e-12
}

// expectScores checks that both the per-item and the batch path give want
// (within 1e-9, the spec's tolerance; NaN matches NaN).
func expectScores(s cupel.Scorer, items []*cupel.ContextItem, want ...float64) {
	GinkgoHelper()
	Expect(want).To(HaveLen(len(items)), "test bug: one expected score per item")
	for name, got := range map[string][]float64{"per-item": scPerItem(s, items), "batch": scBatched(s, items)} {
		for i := range want {
			if math.IsNaN(want[i]) {
				Expect(math.IsNaN(got[i])).To(BeTrue(), "%s score of item %d: %v, want NaN", name, i, got[i])
				continue
			}
			Expect(got[i]).To(BeNumerically("~", want[i], 1e-9), "%s score of item %d", name, i)
		}
	}
}

// expectConfigError checks err is a ValidationError wrapping
// ErrInvalidConfig for field.
func expectConfigError(err error, field string) {
	GinkgoHelper()
	Expect(err).To(HaveOccurred())
	Expect(errors.Is(err, cupel.ErrInvalidConfig)).To(BeTrue(), "errors.Is(%v, ErrInvalidConfig)", err)
	var ve *cupel.ValidationError
	Expect(errors.As(err, &ve)).To(BeTrue())
	Expect(ve.Field).To(Equal(field))
	Expect(ve.Error()).NotTo(BeEmpty())
}

// scFixedClock is a clock stuck at t.
func scFixedClock(t time.Time) scorer.Clock { return scorer.ClockFunc(func() time.Time { return t }) }

// scIdentityScorer scores items by pointer, without a batch path.
type scIdentityScorer map[*cupel.ContextItem]float64

func (m scIdentityScorer) Score(it *cupel.ContextItem, _ []*cupel.ContextItem) float64 { return m[it] }

var scT0 = randitems.T0

// scHours returns scT0 + h hours.
func scHours(h float64) time.Time { return scT0.Add(time.Duration(h * float64(time.Hour))) }

var _ = Describe("scorer test helpers", func() {
	It("compare NaN with NaN", func() {
		Expect(scSame(math.NaN(), math.NaN())).To(BeTrue())
		Expect(scSame(1, math.NaN())).To(BeFalse())
		Expect(scSame(1, 1+1e-13)).To(BeTrue())
	})
})

// hasBatchPath reports whether s has a batch path of its own.
func hasBatchPath(s cupel.Scorer) bool {
	_, ok := s.(cupel.BatchScorer)
	return ok
}
