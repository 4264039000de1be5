package cupel

import (
	"errors"
	"fmt"
)

// TokenCounter counts the tokens a model's tokenizer makes of a text.
//
// The pipeline never tokenizes: an item's tokens are the caller's count
// (spec chapter 02 (ContextItem), constraint 2). A TokenCounter is how the
// caller gets that count; [NewCountedItem] and [WithCountedTokens] fill an
// item's tokens from one. The method has the signature of the Count method
// of the codecs of github.com/tiktoken-go/tokenizer, so such a codec is a
// TokenCounter as it is; the nested module cupeltiktoken wraps them with a
// cache.
//
// Count must return a count >= 0 or an error, and must be safe for
// concurrent use if the caller counts from several goroutines.
type TokenCounter interface {
	Count(text string) (int, error)
}

// TokenCounterFunc adapts a function to [TokenCounter].
type TokenCounterFunc func(text string) (int, error)

// Count calls f(text).
func (f TokenCounterFunc) Count(text string) (int, error) { return f(text) }

// ErrTokenCount: a [TokenCounter] failed, or returned a negative count. See
// [TokenCountError].
var ErrTokenCount = errors.New("cupel: token count failed")

// TokenCountError reports a count that failed. It wraps [ErrTokenCount] and
// the counter's own error (if any), so errors.Is finds both.
type TokenCountError struct {
	// Index is the position of the item in the slice handed to
	// [WithCountedTokens], or -1 for [NewCountedItem].
	Index int
	// Count is the count returned, when the counter returned a negative one.
	Count int
	// Err is the counter's error, nil when the count was negative.
	Err error
}

// Error names the item and what went wrong.
func (e *TokenCountError) Error() string {
	where := "item"
	if e.Index >= 0 {
		where = fmt.Sprintf("item %d", e.Index)
	}
	if e.Err != nil {
		return fmt.Sprintf("%v: %s: %v", ErrTokenCount, where, e.Err)
	}
	return fmt.Sprintf("%v: %s: the counter returned %d, a negative count", ErrTokenCount, where, e.Count)
}

// Unwrap returns ErrTokenCount and the counter's error.
func (e *TokenCountError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrTokenCount, e.Err}
	}
	return []error{ErrTokenCount}
}

func count(counter TokenCounter, text string, index int) (int, error) {
	n, err := counter.Count(text)
	if err != nil {
		return 0, &TokenCountError{Index: index, Err: err}
	}
	if n < 0 {
		return 0, &TokenCountError{Index: index, Count: n}
	}
	return n, nil
}

// NewCountedItem is [NewItem] with spec.Tokens replaced by counter's count of
// spec.Content. spec itself is not changed. An invalid spec gives NewItem's
// error (before anything is counted), a nil counter an error wrapping
// [ErrInvalidArgument], and a failed count a [*TokenCountError].
func NewCountedItem(spec ItemSpec, counter TokenCounter) (*ContextItem, error) {
	if counter == nil {
		return nil, invalidArgument("NewCountedItem", "counter", nil, "must not be nil")
	}
	if spec.Content == "" {
		return NewItem(spec)
	}
	n, err := count(counter, spec.Content, -1)
	if err != nil {
		return nil, err
	}
	spec.Tokens = n
	return NewItem(spec)
}

// WithCountedTokens returns new items, one per input item and in the same
// order, equal to their originals except that their tokens are counter's count
// of their content. Items are immutable, so the originals are left as they
// were; every other field, OriginalTokens included, is carried over.
//
// A nil item gives an error wrapping [ErrInvalidItem] naming its index, and a
// failed count a [*TokenCountError] naming it; nothing is returned then.
func WithCountedTokens(items []*ContextItem, counter TokenCounter) ([]*ContextItem, error) {
	if counter == nil {
		return nil, invalidArgument("WithCountedTokens", "counter", nil, "must not be nil")
	}
	out := make([]*ContextItem, len(items))
	for i, it := range items {
		if it == nil {
			return nil, invalidItem(fmt.Sprintf("items[%d]", i), nil, "must not be nil")
		}
		n, err := count(counter, it.content, i)
		if err != nil {
			return nil, err
		}
		c := *it // fields are never written after construction; tags and metadata stay shared, read-only
		c.tokens = n
		out[i] = &c
	}
	return out, nil
}
