package cupeltiktoken_test

import (
	"fmt"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/tiktoken-go/tokenizer/codec"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/chat"
	"github.com/cupel-go/go-cupel/cupeltiktoken"
)

// known holds sentences with their token counts. The counts do not come from
// the library under test: the first four are the examples of OpenAI's
// cookbook "How to count tokens with tiktoken" (which publishes their token
// IDs, checked below too), and every count was reproduced with js-tiktoken
// 1.0.21, an independent JavaScript implementation (npm), on 2026-11-23.
var known = []struct {
	text          string
	cl100k, o200k int
}{
	{"tiktoken is great!", 6, 6},
	{"antidisestablishmentarianism", 6, 6},
	{"2 + 2 = 4", 7, 7},
	{"お誕生日おめでとう", 9, 8},
	{"hello world", 2, 2},
	{"The quick brown fox jumps over the lazy dog.", 10, 10},
	{"Cupel selects the context an LLM sees: it scores candidates, removes duplicates, fits a token budget and explains every decision.", 27, 26},
	{"    indented code:\n\tfunc main() { fmt.Println(\"héllo, wörld 🌍\") }\n", 24, 22},
}

var _ = Describe("Counter", func() {
	cl := cupeltiktoken.Cl100kBase()
	o2 := cupeltiktoken.O200kBase()

	It("counts known sentences as OpenAI's tokenizer does, in both encodings", func() {
		for _, k := range known {
			Expect(cl.Count(k.text)).To(Equal(k.cl100k), "cl100k_base: %q", k.text)
			Expect(o2.Count(k.text)).To(Equal(k.o200k), "o200k_base: %q", k.text)
		}
		Expect(cl.Count("")).To(Equal(0))
	})

	It("uses the vocabularies whose token IDs OpenAI publishes", func() {
		ids, _, err := codec.NewCl100kBase().Encode("tiktoken is great!")
		Expect(err).NotTo(HaveOccurred())
		Expect(ids).To(Equal([]uint{83, 1609, 5963, 374, 2294, 0}))
		ids, _, err = codec.NewO200kBase().Encode("tiktoken is great!")
		Expect(err).NotTo(HaveOccurred())
		Expect(ids).To(Equal([]uint{83, 8251, 2488, 382, 2212, 0}))
	})

	It("answers repeated texts from its cache with the same counts", func() {
		c := cupeltiktoken.Cl100kBase()
		for range 3 {
			for _, k := range known {
				Expect(c.Count(k.text)).To(Equal(k.cl100k))
			}
		}
		hits, misses := c.CacheStats()
		Expect(misses).To(Equal(uint64(len(known))))
		Expect(hits).To(Equal(uint64(2 * len(known))))
	})

	It("keeps its cache bounded and still counts right after evicting", func() {
		c := cupeltiktoken.Cl100kBase(cupeltiktoken.WithCacheSize(4))
		for i := range 50 {
			Expect(c.Count(fmt.Sprintf("text number %d", i))).To(Equal(4)) // 3 words and a number of up to 3 digits
		}
		_, misses := c.CacheStats()
		Expect(misses).To(Equal(uint64(50)))
		Expect(c.Count("text number 49")).To(Equal(4))
		hits, _ := c.CacheStats()
		Expect(hits).To(Equal(uint64(1)), "the most recent entries are kept")
		Expect(c.Count("text number 0")).To(Equal(4))
		_, misses = c.CacheStats()
		Expect(misses).To(Equal(uint64(51)), "the oldest was dropped")

		off := cupeltiktoken.Cl100kBase(cupeltiktoken.WithCacheSize(0))
		Expect(off.Count("hello world")).To(Equal(2))
		Expect(off.Count("hello world")).To(Equal(2))
		Expect(off.CacheStats()).To(BeZero())
	})

	It("is safe for concurrent use", func() {
		c := cupeltiktoken.O200kBase(cupeltiktoken.WithCacheSize(8))
		var wg sync.WaitGroup
		errs := make(chan string, 64)
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 40 {
					k := known[(g+i)%len(known)]
					if n, err := c.Count(k.text); err != nil || n != k.o200k {
						errs <- fmt.Sprintf("%q: %d %v", k.text, n, err)
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		Expect(errs).To(BeEmpty())
	})

	DescribeTable("picks the encoding of a model by name",
		func(model string, want cupeltiktoken.Encoding) {
			enc, err := cupeltiktoken.EncodingForModel(model)
			Expect(err).NotTo(HaveOccurred())
			Expect(enc).To(Equal(want))
			c, err := cupeltiktoken.ForModel(model)
			Expect(err).NotTo(HaveOccurred())
			Expect(c.Encoding()).To(Equal(want))
		},
		Entry(nil, "gpt-4o", cupeltiktoken.EncodingO200kBase),
		Entry(nil, "gpt-4o-mini-2024-07-18", cupeltiktoken.EncodingO200kBase),
		Entry(nil, "gpt-4.1-nano", cupeltiktoken.EncodingO200kBase),
		Entry(nil, "gpt-5", cupeltiktoken.EncodingO200kBase),
		Entry(nil, "o3-mini", cupeltiktoken.EncodingO200kBase),
		Entry(nil, "ft:gpt-4o-mini:acme::abc", cupeltiktoken.EncodingO200kBase),
		Entry(nil, "gpt-4", cupeltiktoken.EncodingCl100kBase),
		Entry(nil, "gpt-4-turbo", cupeltiktoken.EncodingCl100kBase),
		Entry(nil, "gpt-3.5-turbo-0125", cupeltiktoken.EncodingCl100kBase),
		Entry(nil, "text-embedding-3-small", cupeltiktoken.EncodingCl100kBase),
	)

	It("names the model it does not know", func() {
		_, err := cupeltiktoken.ForModel("claude-sonnet-4")
		Expect(err).To(MatchError(cupeltiktoken.ErrUnknownModel))
		Expect(err.Error()).To(ContainSubstring(`"claude-sonnet-4"`))
	})

	It("fills items' tokens through the core helpers and the chat package", func() {
		it, err := cupel.NewCountedItem(cupel.ItemSpec{Content: known[0].text}, o2)
		Expect(err).NotTo(HaveOccurred())
		Expect(it.Tokens()).To(Equal(6))
		items, err := chat.Items([]chat.Turn{{Role: chat.RoleUser, Content: known[5].text}}, cl, chat.Options{PerTurnTokens: 3})
		Expect(err).NotTo(HaveOccurred())
		Expect(items[0].Tokens()).To(Equal(10 + 3))
	})

	It("counts long texts", func() {
		// 10 tokens a sentence, the trailing space of the last one an 11th
		// (js-tiktoken agrees: 20001 in both encodings).
		text := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 2000)
		Expect(cl.Count(text)).To(Equal(20001))
		Expect(o2.Count(text)).To(Equal(20001))
	})
})
