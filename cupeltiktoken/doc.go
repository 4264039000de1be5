// Package cupeltiktoken counts tokens the way OpenAI's models do, for
// go-cupel: a [Counter] is a cupel.TokenCounter over the BPE vocabularies of
// github.com/tiktoken-go/tokenizer, which are compiled into the binary, so
// counting works offline.
//
// The pipeline never tokenizes (spec chapter 02 (ContextItem), constraint
// 2): the caller counts, and a Counter is how. Hand it to
// cupel.NewCountedItem, cupel.WithCountedTokens, chat.Items or
// chat.NewHistory.
//
// # Choosing the vocabulary
//
// [Cl100kBase] (GPT-4, GPT-3.5-turbo, text-embedding-ada-002 and -3) and
// [O200kBase] (GPT-4o, GPT-4.1, GPT-5, o1, o3, o4) each link only their own
// vocabulary into the binary (a program calling only Cl100kBase is 6.7 MB,
// only O200kBase 9.8 MB, ForModel 12.4 MB, the library's tokenizer.Get
// 14.8 MB). The vocabulary is built in memory once per process, when the
// first Counter of its encoding is made: about 40 ms and 3 MB of heap for
// cl100k_base, 150 ms and 6 MB for o200k_base, on 2 cores.
// [ForModel] picks one of the two from a model name, and so links both.
// Neither links the older p50k and r50k vocabularies, which the library's
// own tokenizer.ForModel and tokenizer.Get always link.
//
// # Cache
//
// A Counter remembers the counts of the texts it has counted, keyed by a
// seeded 64-bit hash of the text and its length (not the text itself), so a
// conversation counted again after each new turn costs hashing, not BPE.
// Two different texts of the same length share a key with probability
// about 2^-64 per pair, for hash seeds chosen at random per Counter: in
// practice never, and not something an attacker can aim at. The cache holds
// at most [DefaultCacheSize] entries unless [WithCacheSize] says otherwise,
// dropping the least recently used half when full.
//
// A Counter is safe for concurrent use.
package cupeltiktoken
