package cupel

import (
	"maps"
	"slices"
	"time"
)

// ItemSpec holds the fields of a [ContextItem] to be built by [NewItem]
// (spec chapter 02 (ContextItem)). Optional fields whose absence matters (null in
// the spec) are pointers; the zero value of every other optional field is its
// spec default.
type ItemSpec struct {
	// Content is the item's text. Required, non-empty. Deduplication compares
	// it byte for byte.
	Content string
	// Tokens is the caller's token count. Items with negative counts are
	// accepted here and excluded by the pipeline's Classify stage.
	Tokens int
	// Kind defaults to KindMessage when empty; a non-empty kind must not be
	// white space only.
	Kind ContextKind
	// Source defaults to SourceChat when empty; a non-empty source must not be
	// white space only.
	Source ContextSource
	// Priority is optional; higher is more important (PriorityScorer).
	Priority *int
	// Tags is optional; copied by NewItem.
	Tags []string
	// Metadata is optional and opaque to the pipeline; copied (shallowly) by
	// NewItem. MetadataTrustScorer and MetadataKeyScorer read it.
	Metadata map[string]any
	// Timestamp is optional; it is compared as an instant.
	Timestamp *time.Time
	// FutureRelevanceHint is optional, conventionally in [0, 1] (ReflexiveScorer).
	FutureRelevanceHint *float64
	// Pinned items bypass scoring and slicing and are always included.
	Pinned bool
	// OriginalTokens is optional and not used by the pipeline.
	OriginalTokens *int
}

// ContextItem is one candidate piece of context: a message, document, tool
// output, memory or system prompt. It is immutable: build it with [NewItem],
// read it with its accessors, and derive a changed copy with [ContextItem.Spec]
// and NewItem. Slices and maps handed in or out are copies.
//
// The pipeline identifies items by pointer (ruling 14): two items with
// the same content are different items, and one *ContextItem passed twice is
// the same item twice.
type ContextItem struct {
	content        string
	tokens         int
	kind           ContextKind
	source         ContextSource
	tags           []string
	metadata       map[string]any
	timestamp      time.Time
	hint           float64
	priority       int
	originalTokens int
	// contentHash is dedupHash(content), computed once by NewItem so that
	// the Deduplicate stage of every run does not hash the content again.
	// It never changes after construction (the item stays immutable), is
	// invisible to callers, and results never depend on it: equal hashes
	// are confirmed by comparing contents. A ContextItem not built by
	// NewItem (the zero value) has content "" and hash 0, consistently.
	contentHash  uint32
	hasPriority  bool
	hasTimestamp bool
	hasHint      bool
	hasOriginal  bool
	pinned       bool
}

// NewItem validates spec and returns the item, or a [*ValidationError]
// wrapping [ErrInvalidItem] that names the offending field.
func NewItem(spec ItemSpec) (*ContextItem, error) {
	if spec.Content == "" {
		return nil, invalidItem("content", spec.Content, "must not be empty")
	}
	it := &ContextItem{
		content:     spec.Content,
		contentHash: uint32(dedupHash(spec.Content)),
		tokens:      spec.Tokens,
		kind:        KindMessage,
		source:      SourceChat,
		pinned:      spec.Pinned,
	}
	if spec.Kind != "" {
		if isBlank(string(spec.Kind)) {
			return nil, invalidItem("kind", string(spec.Kind), "must not be white space only")
		}
		it.kind = spec.Kind
	}
	if spec.Source != "" {
		if isBlank(string(spec.Source)) {
			return nil, invalidItem("source", string(spec.Source), "must not be white space only")
		}
		it.source = spec.Source
	}
	if spec.Priority != nil {
		it.priority, it.hasPriority = *spec.Priority, true
	}
	if len(spec.Tags) > 0 {
		it.tags = slices.Clone(spec.Tags)
	}
	if len(spec.Metadata) > 0 {
		it.metadata = maps.Clone(spec.Metadata)
	}
	if spec.Timestamp != nil {
		it.timestamp, it.hasTimestamp = spec.Timestamp.Round(0).UTC(), true
	}
	if spec.FutureRelevanceHint != nil {
		it.hint, it.hasHint = *spec.FutureRelevanceHint, true
	}
	if spec.OriginalTokens != nil {
		it.originalTokens, it.hasOriginal = *spec.OriginalTokens, true
	}
	return it, nil
}

// MustItem is like NewItem but panics on an invalid spec. It is meant for
// tests and examples with literal inputs, never for caller-supplied data.
func MustItem(spec ItemSpec) *ContextItem {
	it, err := NewItem(spec)
	if err != nil {
		panic(err)
	}
	return it
}

// Ptr returns a pointer to v, for the optional fields of ItemSpec:
// ItemSpec{Priority: cupel.Ptr(5)}.
func Ptr[T any](v T) *T { return &v }

// Content returns the item's text.
func (it *ContextItem) Content() string { return it.content }

// Tokens returns the caller-provided token count (possibly negative).
func (it *ContextItem) Tokens() int { return it.tokens }

// Kind returns the item's kind (KindMessage by default).
func (it *ContextItem) Kind() ContextKind { return it.kind }

// Source returns the item's source (SourceChat by default).
func (it *ContextItem) Source() ContextSource { return it.source }

// Priority returns the priority and whether the item has one.
func (it *ContextItem) Priority() (int, bool) { return it.priority, it.hasPriority }

// Tags returns a copy of the item's tags (nil when it has none).
func (it *ContextItem) Tags() []string { return slices.Clone(it.tags) }

// NumTags returns the number of tags, and Tag(i) the i-th, for reading tags
// without copying them.
func (it *ContextItem) NumTags() int { return len(it.tags) }

// Tag returns the i-th tag; i must be in [0, NumTags()).
func (it *ContextItem) Tag(i int) string { return it.tags[i] }

// Metadata returns a shallow copy of the item's metadata (nil when empty).
func (it *ContextItem) Metadata() map[string]any { return maps.Clone(it.metadata) }

// MetadataValue returns the metadata value stored under key.
func (it *ContextItem) MetadataValue(key string) (any, bool) {
	v, ok := it.metadata[key]
	return v, ok
}

// Timestamp returns the timestamp (in UTC) and whether the item has one.
func (it *ContextItem) Timestamp() (time.Time, bool) { return it.timestamp, it.hasTimestamp }

// FutureRelevanceHint returns the hint and whether the item has one. The hint
// may be NaN or infinite; ReflexiveScorer maps those to 0.
func (it *ContextItem) FutureRelevanceHint() (float64, bool) { return it.hint, it.hasHint }

// Pinned reports whether the item is pinned.
func (it *ContextItem) Pinned() bool { return it.pinned }

// OriginalTokens returns the original token count and whether it was given.
func (it *ContextItem) OriginalTokens() (int, bool) { return it.originalTokens, it.hasOriginal }

// Spec returns the item's fields as an ItemSpec (with fresh copies of tags,
// metadata and optional values), for building a modified copy with NewItem.
func (it *ContextItem) Spec() ItemSpec {
	s := ItemSpec{
		Content:  it.content,
		Tokens:   it.tokens,
		Kind:     it.kind,
		Source:   it.source,
		Tags:     slices.Clone(it.tags),
		Metadata: maps.Clone(it.metadata),
		Pinned:   it.pinned,
	}
	if it.hasPriority {
		s.Priority = Ptr(it.priority)
	}
	if it.hasTimestamp {
		s.Timestamp = Ptr(it.timestamp)
	}
	if it.hasHint {
		s.FutureRelevanceHint = Ptr(it.hint)
	}
	if it.hasOriginal {
		s.OriginalTokens = Ptr(it.originalTokens)
	}
	return s
}

// ScoredItem pairs an item with its relevance score (spec chapter
// 05 (ScoredItem)). Scores are conventionally in [0, 1] but not restricted.
type ScoredItem struct {
	Item  *ContextItem
	Score float64
}
