package cupel_test

import (
	"errors"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
)

// words counts white-space separated words: a stand-in tokenizer.
var words = cupel.TokenCounterFunc(func(s string) (int, error) { return len(strings.Fields(s)), nil })

var _ = Describe("token counting", func() {
	errBroken := errors.New("tokenizer broken")
	broken := cupel.TokenCounterFunc(func(string) (int, error) { return 0, errBroken })
	negative := cupel.TokenCounterFunc(func(string) (int, error) { return -3, nil })

	Describe("NewCountedItem", func() {
		It("sets the tokens to the counter's count of the content and keeps every other field", func() {
			spec := cupel.ItemSpec{Content: "three little words", Tokens: 99, Kind: cupel.KindDocument, Tags: []string{"a"}, Priority: cupel.Ptr(2)}
			it, err := cupel.NewCountedItem(spec, words)
			Expect(err).NotTo(HaveOccurred())
			Expect(it.Tokens()).To(Equal(3))
			Expect(it.Kind()).To(Equal(cupel.KindDocument))
			Expect(it.Tags()).To(Equal([]string{"a"}))
			Expect(spec.Tokens).To(Equal(99), "the spec passed by value is the caller's")
		})
		It("rejects a nil counter and an empty content, counting nothing", func() {
			_, err := cupel.NewCountedItem(cupel.ItemSpec{Content: "x"}, nil)
			Expect(err).To(MatchError(cupel.ErrInvalidArgument))
			calls := 0
			_, err = cupel.NewCountedItem(cupel.ItemSpec{}, cupel.TokenCounterFunc(func(string) (int, error) { calls++; return 1, nil }))
			Expect(err).To(MatchError(cupel.ErrInvalidItem))
			Expect(calls).To(Equal(0))
		})
		It("wraps the counter's error and reports negative counts", func() {
			_, err := cupel.NewCountedItem(cupel.ItemSpec{Content: "x"}, broken)
			Expect(err).To(MatchError(cupel.ErrTokenCount))
			Expect(err).To(MatchError(errBroken))
			var tce *cupel.TokenCountError
			Expect(errors.As(err, &tce)).To(BeTrue())
			Expect(tce.Index).To(Equal(-1))

			_, err = cupel.NewCountedItem(cupel.ItemSpec{Content: "x"}, negative)
			Expect(err).To(MatchError(cupel.ErrTokenCount))
			Expect(err.Error()).To(ContainSubstring("returned -3, a negative count"))
		})
	})

	Describe("WithCountedTokens", func() {
		It("returns new items with counted tokens and leaves the originals as they were", func() {
			ts := cupel.Ptr(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
			a := cupel.MustItem(cupel.ItemSpec{Content: "one two", Tokens: 50, Timestamp: ts, Metadata: map[string]any{"k": "v"}, OriginalTokens: cupel.Ptr(80), Pinned: true})
			b := cupel.MustItem(cupel.ItemSpec{Content: "one two three four", Tokens: 1, Kind: cupel.KindToolOutput})
			in := []*cupel.ContextItem{a, b}
			out, err := cupel.WithCountedTokens(in, words)
			Expect(err).NotTo(HaveOccurred())
			Expect(out).To(HaveLen(2))
			Expect(out[0]).NotTo(BeIdenticalTo(a))
			Expect(out[0].Tokens()).To(Equal(2))
			Expect(out[1].Tokens()).To(Equal(4))
			Expect(a.Tokens()).To(Equal(50))
			Expect(b.Tokens()).To(Equal(1))
			Expect(in[0]).To(BeIdenticalTo(a))
			want := a.Spec()
			want.Tokens = 2
			Expect(out[0].Spec()).To(Equal(want))
		})
		It("names the nil item or the item whose count failed, and returns nothing", func() {
			ok := cupel.MustItem(cupel.ItemSpec{Content: "fine"})
			out, err := cupel.WithCountedTokens([]*cupel.ContextItem{ok, nil}, words)
			Expect(out).To(BeNil())
			Expect(err).To(MatchError(cupel.ErrInvalidItem))
			Expect(err.Error()).To(ContainSubstring("items[1]"))

			calls := 0
			failSecond := cupel.TokenCounterFunc(func(s string) (int, error) {
				calls++
				if calls == 2 {
					return 0, errBroken
				}
				return 1, nil
			})
			_, err = cupel.WithCountedTokens([]*cupel.ContextItem{ok, ok, ok}, failSecond)
			var tce *cupel.TokenCountError
			Expect(errors.As(err, &tce)).To(BeTrue())
			Expect(tce.Index).To(Equal(1))
			Expect(err.Error()).To(Equal("cupel: token count failed: item 1: tokenizer broken"))

			_, err = cupel.WithCountedTokens(nil, nil)
			Expect(err).To(MatchError(cupel.ErrInvalidArgument))
		})
	})
})
