package cupeltiktoken

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tiktoken-go/tokenizer/codec"

	"github.com/cupel-go/go-cupel/cupel"
)

// Encoding names a BPE vocabulary.
type Encoding string

// The encodings this package counts with.
const (
	EncodingCl100kBase Encoding = "cl100k_base"
	EncodingO200kBase  Encoding = "o200k_base"
)

// DefaultCacheSize is the number of counts a Counter remembers by default.
const DefaultCacheSize = 8192

// ErrUnknownModel: [ForModel] does not know which encoding the model uses.
var ErrUnknownModel = errors.New("cupeltiktoken: unknown model")

// Counter counts tokens with one encoding, caching counts by content hash.
// It implements cupel.TokenCounter.
type Counter struct {
	codec    *codec.Codec
	encoding Encoding
	cache    *cache
}

var _ cupel.TokenCounter = (*Counter)(nil)

// Option configures a Counter.
type Option func(*settings)

type settings struct{ cacheSize int }

// WithCacheSize sets how many counts the Counter remembers; 0 (or less)
// turns the cache off.
func WithCacheSize(n int) Option { return func(s *settings) { s.cacheSize = n } }

func newCounter(c *codec.Codec, enc Encoding, opts []Option) *Counter {
	s := settings{cacheSize: DefaultCacheSize}
	for _, o := range opts {
		o(&s)
	}
	return &Counter{codec: c, encoding: enc, cache: newCache(s.cacheSize)}
}

// Cl100kBase returns a Counter for the cl100k_base encoding. Only that
// vocabulary is linked into a binary that calls it (and not O200kBase or
// ForModel).
func Cl100kBase(opts ...Option) *Counter {
	return newCounter(codec.NewCl100kBase(), EncodingCl100kBase, opts)
}

// O200kBase returns a Counter for the o200k_base encoding. Only that
// vocabulary is linked into a binary that calls it (and not Cl100kBase or
// ForModel).
func O200kBase(opts ...Option) *Counter {
	return newCounter(codec.NewO200kBase(), EncodingO200kBase, opts)
}

// modelPrefixes maps model-name prefixes to encodings, longest prefix first
// where one prefix extends another ("gpt-4o" before "gpt-4"). The mapping
// is tiktoken's (model.py) for the chat and embedding models.
var modelPrefixes = []struct {
	prefix string
	enc    Encoding
}{
	{"gpt-4o", EncodingO200kBase},
	{"gpt-4.1", EncodingO200kBase},
	{"gpt-4.5", EncodingO200kBase},
	{"gpt-5", EncodingO200kBase},
	{"gpt-oss", EncodingO200kBase},
	{"chatgpt-4o", EncodingO200kBase},
	{"o1", EncodingO200kBase},
	{"o3", EncodingO200kBase},
	{"o4", EncodingO200kBase},
	{"ft:gpt-4o", EncodingO200kBase},
	{"gpt-4", EncodingCl100kBase},
	{"gpt-3.5", EncodingCl100kBase},
	{"gpt-35", EncodingCl100kBase},
	{"ft:gpt-4", EncodingCl100kBase},
	{"ft:gpt-3.5", EncodingCl100kBase},
	{"text-embedding-ada-002", EncodingCl100kBase},
	{"text-embedding-3", EncodingCl100kBase},
	{"davinci-002", EncodingCl100kBase},
	{"babbage-002", EncodingCl100kBase},
	{"ft:davinci-002", EncodingCl100kBase},
	{"ft:babbage-002", EncodingCl100kBase},
}

// EncodingForModel returns the encoding an OpenAI model uses, from its name
// ("gpt-4o-mini", "gpt-4.1-2025-04-14", "gpt-3.5-turbo", "o3-mini", ...),
// or an error wrapping [ErrUnknownModel]. It links no vocabulary.
func EncodingForModel(model string) (Encoding, error) {
	for _, p := range modelPrefixes {
		if strings.HasPrefix(model, p.prefix) {
			return p.enc, nil
		}
	}
	return "", fmt.Errorf("%w: %q (known: the gpt-3.5, gpt-4, gpt-4o, gpt-4.1, gpt-4.5, gpt-5, o1, o3, o4 and text-embedding families; use Cl100kBase or O200kBase directly for others)", ErrUnknownModel, model)
}

// ForModel returns a Counter for the encoding of an OpenAI model (see
// [EncodingForModel]). It links both vocabularies into the binary; use
// [Cl100kBase] or [O200kBase] to link one.
func ForModel(model string, opts ...Option) (*Counter, error) {
	enc, err := EncodingForModel(model)
	if err != nil {
		return nil, err
	}
	if enc == EncodingO200kBase {
		return O200kBase(opts...), nil
	}
	return Cl100kBase(opts...), nil
}

// Encoding returns the name of the counter's encoding.
func (c *Counter) Encoding() Encoding { return c.encoding }

// Count returns the number of tokens of text, from the cache when the text
// was counted before. Special tokens written in text ("<|endoftext|>") count
// as one token each, as the tokenizer reads them.
func (c *Counter) Count(text string) (int, error) {
	if text == "" {
		return 0, nil
	}
	k := c.cache.key(text)
	if n, ok := c.cache.get(k); ok {
		return n, nil
	}
	n, err := c.codec.Count(text)
	if err != nil {
		return 0, fmt.Errorf("cupeltiktoken: %s: %w", c.encoding, err)
	}
	c.cache.put(k, n)
	return n, nil
}

// CacheStats returns how many counts the cache answered (hits) and how many
// it did not (misses), since the Counter was made.
func (c *Counter) CacheStats() (hits, misses uint64) { return c.cache.stats() }
