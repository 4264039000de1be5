package cupel

import (
	"fmt"

	"github.com/cupel-go/go-cupel/cupel/internal/rules"
)

// ContextKind classifies a context item (spec chapter 04 (Enumerations)). It is
// an extensible string enumeration: any non-blank string is a valid kind, and
// the well-known values are provided as constants.
//
// Kinds compare case-insensitively with ASCII case folding only
// (ruling 15): "Message", "message" and "MESSAGE" are the same kind,
// but "K" and the Kelvin sign U+212A are different kinds. Use [ContextKind.Equal]
// rather than == to compare kinds.
type ContextKind string

// The well-known context kinds.
const (
	KindMessage      ContextKind = "Message"
	KindDocument     ContextKind = "Document"
	KindToolOutput   ContextKind = "ToolOutput"
	KindMemory       ContextKind = "Memory"
	KindSystemPrompt ContextKind = "SystemPrompt"
)

// NewContextKind returns s as a ContextKind, or an error wrapping
// [ErrInvalidItem] when s is empty or consists only of white space.
func NewContextKind(s string) (ContextKind, error) {
	if isBlank(s) {
		return "", &ValidationError{Type: "ContextKind", Field: "value", Value: s, Reason: "must not be empty or white space", sentinel: ErrInvalidItem}
	}
	return ContextKind(s), nil
}

// Equal reports whether k and other are the same kind under ASCII case folding.
func (k ContextKind) Equal(other ContextKind) bool { return asciiEqualFold(string(k), string(other)) }

// Key returns the canonical map key of k: its ASCII-lower-cased spelling.
// Two kinds are Equal exactly when their keys are equal.
func (k ContextKind) Key() string { return asciiLower(string(k)) }

// String returns the kind as spelled.
func (k ContextKind) String() string { return string(k) }

// ContextSource identifies where a context item came from (spec chapter
// 04 (Enumerations)). Like [ContextKind] it is an extensible string enumeration
// compared with ASCII case folding only.
type ContextSource string

// The well-known context sources.
const (
	SourceChat ContextSource = "Chat"
	SourceTool ContextSource = "Tool"
	SourceRag  ContextSource = "Rag"
)

// NewContextSource returns s as a ContextSource, or an error wrapping
// [ErrInvalidItem] when s is empty or consists only of white space.
func NewContextSource(s string) (ContextSource, error) {
	if isBlank(s) {
		return "", &ValidationError{Type: "ContextSource", Field: "value", Value: s, Reason: "must not be empty or white space", sentinel: ErrInvalidItem}
	}
	return ContextSource(s), nil
}

// Equal reports whether s and other are the same source under ASCII case folding.
func (s ContextSource) Equal(other ContextSource) bool {
	return asciiEqualFold(string(s), string(other))
}

// Key returns the canonical map key of s: its ASCII-lower-cased spelling.
func (s ContextSource) Key() string { return asciiLower(string(s)) }

// String returns the source as spelled.
func (s ContextSource) String() string { return string(s) }

// OverflowStrategy says what the pipeline does when the merged selection
// (pinned plus sliced items) exceeds the budget's targetTokens (spec chapters
// 04 (Enumerations) and 12 (Stage 6: Place)). The zero value is [OverflowThrow], the
// spec's default.
type OverflowStrategy int

// The overflow strategies.
const (
	// OverflowThrow fails the run with an error wrapping [ErrOverflow].
	OverflowThrow OverflowStrategy = iota
	// OverflowTruncate drops non-pinned items from the tail of the merged list
	// until the selection fits targetTokens.
	OverflowTruncate
	// OverflowProceed keeps the over-budget selection and reports an
	// [OverflowEvent] to the run's observer.
	OverflowProceed
)

// String returns "Throw", "Truncate" or "Proceed".
func (s OverflowStrategy) String() string {
	switch s {
	case OverflowThrow:
		return "Throw"
	case OverflowTruncate:
		return "Truncate"
	case OverflowProceed:
		return "Proceed"
	}
	return fmt.Sprintf("OverflowStrategy(%d)", int(s))
}

// ParseOverflowStrategy parses "throw", "truncate" or "proceed" (ASCII case
// insensitive).
func ParseOverflowStrategy(s string) (OverflowStrategy, error) {
	switch asciiLower(s) {
	case "throw":
		return OverflowThrow, nil
	case "truncate":
		return OverflowTruncate, nil
	case "proceed":
		return OverflowProceed, nil
	}
	return 0, &ValidationError{Type: "OverflowStrategy", Field: "value", Value: s, Reason: `must be "throw", "truncate" or "proceed"`, sentinel: ErrInvalidConfig}
}

func (s OverflowStrategy) valid() bool { return s >= OverflowThrow && s <= OverflowProceed }

// asciiEqualFold reports whether a and b are equal under ASCII-only case
// folding. strings.EqualFold is not used because it applies Unicode simple
// folding (it equates "K" with the Kelvin sign), which ruling 15 forbids.
func asciiEqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		ca, cb := a[i], b[i]
		if ca == cb {
			continue
		}
		if 'A' <= ca && ca <= 'Z' {
			ca += 'a' - 'A'
		}
		if 'A' <= cb && cb <= 'Z' {
			cb += 'a' - 'A'
		}
		if ca != cb {
			return false
		}
	}
	return true
}

// asciiLower lower-cases the ASCII letters of s and leaves every other byte
// alone. It does not allocate when s has no upper-case ASCII letter.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; 'A' <= c && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// isBlank is [rules.IsBlank].
func isBlank(s string) bool { return rules.IsBlank(s) }
