package chat

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
)

// Role is the role of a turn's author. Any non-blank string is a role; the
// constants are the ones the package treats specially.
type Role string

// Roles the package knows.
const (
	// RoleSystem turns are instructions; their items are pinned.
	RoleSystem Role = "system"
	// RoleDeveloper is OpenAI's newer name for system instructions; pinned too.
	RoleDeveloper Role = "developer"
	// RoleUser is the user's turn.
	RoleUser Role = "user"
	// RoleAssistant is the model's turn; it may make tool calls.
	RoleAssistant Role = "assistant"
	// RoleTool carries a tool's result; its ToolCallID names the call.
	RoleTool Role = "tool"
)

// IsSystem reports whether turns of role r are instructions, pinned when
// converted to items: RoleSystem and RoleDeveloper.
func (r Role) IsSystem() bool { return r == RoleSystem || r == RoleDeveloper }

// ToolCall is one call of a tool that an assistant turn makes.
type ToolCall struct {
	// ID identifies the call; the result's Turn.ToolCallID names it. Required.
	ID string
	// Name is the tool's name.
	Name string
	// Arguments are the call's arguments as the model wrote them (JSON text
	// for OpenAI and Anthropic).
	Arguments string
}

// Turn is one message of a conversation.
type Turn struct {
	// Role is the author's role. Required.
	Role Role
	// Content is the message's text. It may be empty (an assistant turn that
	// only calls tools).
	Content string
	// Name is the participant's name or, for a tool result, the tool's name.
	Name string
	// ToolCallID, on a tool result, is the ID of the call it answers. A turn
	// that carries the results of several calls (Anthropic's user message
	// with several tool_result blocks) names any one of them: it is what ties
	// the turn to the assistant turn that made the calls.
	ToolCallID string
	// ToolCalls are the calls an assistant turn makes.
	ToolCalls []ToolCall
	// Raw is carried through unchanged and never read: SDK adapters keep the
	// message the turn came from here, so converting back loses nothing.
	Raw any
}

// Metadata keys of the items [Items] builds.
const (
	// RoleKey holds the role of the item's first turn, as a string.
	RoleKey = "chat.role"
	// IndexKey holds the position of the item's first turn in the
	// conversation, as an int.
	IndexKey = "chat.index"
	// TurnsKey holds the item's turns, as a []Turn: one turn, or a tool
	// exchange (the assistant turn and the results of its calls).
	TurnsKey = "chat.turns"
)

// DefaultStart is the timestamp of turn 0 when Options.Start is zero.
var DefaultStart = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// Options configure how turns become items.
type Options struct {
	// PerTurnTokens is added to every turn's count, for the tokens an API
	// spends on a message besides its text (OpenAI's chat format spends
	// about 3 per message, plus 3 per request). Must be >= 0.
	PerTurnTokens int
	// PerNameTokens is added to the count of every turn with a Name, for
	// the token an API spends on the name field (OpenAI's chat format
	// spends 1). Must be >= 0.
	PerNameTokens int
	// Start is the timestamp of turn 0; turn i is stamped Start + i seconds.
	// Zero means DefaultStart.
	Start time.Time
	// Deduplicate leaves the turn numbers out of the items' content, so that
	// the pipeline's deduplication removes identical turns (keeping the
	// best-scored one). By default every item's content is unique and no
	// turn is ever removed as a duplicate.
	Deduplicate bool
}

// ErrInvalidTurn: a turn cannot be converted. See [TurnError].
var ErrInvalidTurn = errors.New("chat: invalid turn")

// ErrNotChatItem: an item handed to [Turns] was not built by this package.
var ErrNotChatItem = errors.New("chat: item holds no chat turns")

// TurnError names the turn that could not be converted and why. It wraps
// [ErrInvalidTurn].
type TurnError struct {
	// Index is the turn's position in the conversation.
	Index int
	// Field is the offending field, e.g. "Role" or "ToolCalls[1].ID".
	Field string
	// Reason says what is wrong.
	Reason string
}

// Error names the turn, the field and the reason.
func (e *TurnError) Error() string {
	return fmt.Sprintf("%v: turn %d: %s: %s", ErrInvalidTurn, e.Index, e.Field, e.Reason)
}

// Unwrap returns ErrInvalidTurn.
func (e *TurnError) Unwrap() error { return ErrInvalidTurn }

// Items converts a conversation to items, one per turn and one per tool
// exchange, counting tokens with counter (see the package documentation for
// every field). turns is not modified. A turn that cannot be converted gives a
// [*TurnError]: a blank role, a tool call without an ID, a tool turn without
// a ToolCallID, or a tool result whose ToolCallID answers no call of the
// assistant turn before it. A failed count
// gives a [*cupel.TokenCountError].
func Items(turns []Turn, counter cupel.TokenCounter, opts Options) ([]*cupel.ContextItem, error) {
	h, err := NewHistory(counter, HistoryOptions{Options: opts})
	if err != nil {
		return nil, err
	}
	if err := h.Append(turns...); err != nil {
		return nil, err
	}
	return h.items, nil
}

// Turns converts selected items back to turns, in the order of items (the
// placed order of a pipeline result), a tool exchange giving all its turns.
// The turns are copies; Raw values are the ones that went in. An item not
// built by [Items] or [History] gives an error wrapping [ErrNotChatItem] that
// names its index.
func Turns(items []*cupel.ContextItem) ([]Turn, error) {
	out := make([]Turn, 0, len(items))
	for i, it := range items {
		if it == nil {
			return nil, fmt.Errorf("%w: items[%d] is nil", ErrNotChatItem, i)
		}
		v, _ := it.MetadataValue(TurnsKey)
		ts, ok := v.([]Turn)
		if !ok || len(ts) == 0 {
			return nil, fmt.Errorf("%w: items[%d] (%.40q) has no %q metadata", ErrNotChatItem, i, it.Content(), TurnsKey)
		}
		for _, t := range ts {
			t.ToolCalls = slices.Clone(t.ToolCalls)
			out = append(out, t)
		}
	}
	return out, nil
}

// validate checks what a turn needs on its own.
func validate(t Turn, index int) error {
	if strings.TrimSpace(string(t.Role)) == "" {
		return &TurnError{Index: index, Field: "Role", Reason: "must not be blank"}
	}
	if t.Role == RoleTool && t.ToolCallID == "" {
		return &TurnError{Index: index, Field: "ToolCallID", Reason: "must not be empty on a tool turn: it names the call the result answers"}
	}
	for k, c := range t.ToolCalls {
		if c.ID == "" {
			return &TurnError{Index: index, Field: "ToolCalls[" + strconv.Itoa(k) + "].ID", Reason: "must not be empty: the result names its call by ID"}
		}
	}
	return nil
}

// countTurn counts the tokens of one turn: content, name and tool calls,
// plus the per-turn framing.
func countTurn(counter cupel.TokenCounter, t Turn, perTurn, perName, index int) (int, error) {
	n := perTurn
	add := func(s string) error {
		if s == "" {
			return nil
		}
		c, err := counter.Count(s)
		if err != nil {
			return &cupel.TokenCountError{Index: index, Err: err}
		}
		if c < 0 {
			return &cupel.TokenCountError{Index: index, Count: c}
		}
		n += c
		return nil
	}
	if err := add(t.Content); err != nil {
		return 0, err
	}
	if err := add(t.Name); err != nil {
		return 0, err
	}
	if t.Name != "" {
		n += perName
	}
	for _, c := range t.ToolCalls {
		if err := add(c.Name); err != nil {
			return 0, err
		}
		if err := add(c.Arguments); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// render writes a turn's lines of an item's content.
func render(b *strings.Builder, t Turn, index int, numbered bool) {
	line := func() {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		if numbered {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(index))
			b.WriteString("] ")
		}
		b.WriteString(string(t.Role))
		if t.Name != "" {
			b.WriteString(" (")
			b.WriteString(t.Name)
			b.WriteByte(')')
		}
	}
	if t.Content != "" || len(t.ToolCalls) == 0 {
		line()
		b.WriteString(": ")
		b.WriteString(t.Content)
	}
	for _, c := range t.ToolCalls {
		line()
		b.WriteString(" calls ")
		b.WriteString(c.Name)
		b.WriteByte('(')
		b.WriteString(c.Arguments)
		b.WriteString(") id=")
		b.WriteString(c.ID)
	}
}
