package cupeleino

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/cloudwego/eino/schema"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/chat"
)

// ErrUnsupported: a message or turn cannot be converted. The error names its
// index and why.
var ErrUnsupported = errors.New("cupeleino: cannot convert")

func unsupported(index int, format string, args ...any) error {
	return fmt.Errorf("%w: message %d: %s", ErrUnsupported, index, fmt.Sprintf(format, args...))
}

// ToTurns converts messages to turns: the role, the text (Content, the text
// parts of MultiContent, UserInputMultiContent and AssistantGenMultiContent,
// and ReasoningContent, joined by newlines), the name (Name, or ToolName on a
// tool message), the tool calls and the tool call answered, and the message
// pointer in Raw. A nil message or one without a role gives an error wrapping
// [ErrUnsupported]. The messages are not modified.
func ToTurns(msgs []*schema.Message) ([]chat.Turn, error) {
	turns := make([]chat.Turn, len(msgs))
	for i, m := range msgs {
		if m == nil {
			return nil, unsupported(i, "nil")
		}
		if m.Role == "" {
			return nil, unsupported(i, "no role")
		}
		t := chat.Turn{Role: chat.Role(m.Role), Name: m.Name, ToolCallID: m.ToolCallID, Raw: m}
		if t.Name == "" {
			t.Name = m.ToolName
		}
		var text []string
		add := func(s string) {
			if s != "" {
				text = append(text, s)
			}
		}
		add(m.Content)
		for _, p := range m.MultiContent {
			add(p.Text)
		}
		for _, p := range m.UserInputMultiContent {
			add(p.Text)
		}
		for _, p := range m.AssistantGenMultiContent {
			add(p.Text)
		}
		add(m.ReasoningContent)
		t.Content = strings.Join(text, "\n")
		for _, c := range m.ToolCalls {
			t.ToolCalls = append(t.ToolCalls, chat.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
		}
		turns[i] = t
	}
	return turns, nil
}

// FromTurns converts turns to messages. A turn made by [ToTurns] gives back
// its message pointer (from Raw). Any other turn is built from its fields:
// role, content, name (ToolName on a tool message), tool calls (as function
// calls) and the tool call answered. A turn without a role gives an error
// wrapping [ErrUnsupported].
func FromTurns(turns []chat.Turn) ([]*schema.Message, error) {
	msgs := make([]*schema.Message, len(turns))
	for i, t := range turns {
		switch raw := t.Raw.(type) {
		case *schema.Message:
			if raw != nil {
				msgs[i] = raw
				continue
			}
		case schema.Message:
			msgs[i] = &raw
			continue
		}
		if t.Role == "" {
			return nil, unsupported(i, "no role")
		}
		m := &schema.Message{Role: schema.RoleType(t.Role), Content: t.Content, ToolCallID: t.ToolCallID}
		if t.Role == chat.RoleTool {
			m.ToolName = t.Name
		} else {
			m.Name = t.Name
		}
		for _, c := range t.ToolCalls {
			m.ToolCalls = append(m.ToolCalls, schema.ToolCall{ID: c.ID, Type: "function", Function: schema.FunctionCall{Name: c.Name, Arguments: c.Arguments}})
		}
		msgs[i] = m
	}
	return msgs, nil
}

// Items converts messages to items with chat.Items.
func Items(msgs []*schema.Message, counter cupel.TokenCounter, opts chat.Options) ([]*cupel.ContextItem, error) {
	turns, err := ToTurns(msgs)
	if err != nil {
		return nil, err
	}
	return chat.Items(turns, counter, opts)
}

// Messages converts selected items (built by [Items], chat.Items or a
// chat.History) back to messages, in the order of items.
func Messages(items []*cupel.ContextItem) ([]*schema.Message, error) {
	turns, err := chat.Turns(items)
	if err != nil {
		return nil, err
	}
	return FromTurns(turns)
}

// TrimOptions configure [Trim].
type TrimOptions struct {
	// HistoryOptions say how messages become items and how they are
	// selected: set Eviction to chat.EvictCache to keep the provider's
	// prompt cache warm. OpenWithUser is always on: eino serves models of
	// every provider, and Anthropic's refuses a conversation whose first
	// message is not a user message, while every provider accepts one that
	// opens with a user message.
	chat.HistoryOptions
	// ToolTokens are what the request's tool definitions cost, as the
	// model's provider counts them (eino's ToolInfo does not say which
	// provider renders it: count with cupelopenai.ToolTokens for OpenAI, or
	// the tools' JSON for others). They come out of the budget before
	// selection.
	ToolTokens int
	// ReplyReserve is the request's max tokens for the reply: it comes out
	// of the window before selection (as the budget's OutputReserve, if
	// that is smaller).
	ReplyReserve int
}

// Trim selects the messages that fit window, the model's context window,
// after opts.ToolTokens and opts.ReplyReserve come out of it
// (chat.RequestBudget), and returns them (the same pointers) in
// conversation order with the report. The kept messages after the system
// messages open with a user message. If msgs passes [Validate], so does what
// Trim returns, under ValidateOptions{FirstUser: true} too.
func Trim(msgs []*schema.Message, counter cupel.TokenCounter, window cupel.ContextBudget, opts TrimOptions) ([]*schema.Message, *cupel.SelectionReport, error) {
	turns, err := ToTurns(msgs)
	if err != nil {
		return nil, nil, err
	}
	budget, err := chat.RequestBudget(window, opts.ToolTokens, opts.ReplyReserve)
	if err != nil {
		return nil, nil, err
	}
	hopts := opts.HistoryOptions
	hopts.OpenWithUser = true
	sel, err := chat.Select(turns, counter, budget, hopts)
	if err != nil {
		return nil, nil, err
	}
	out, err := FromTurns(sel.Turns)
	if err != nil {
		return nil, nil, err
	}
	return out, sel.Report, nil
}

// ValidateOptions choose the rules [ValidateOptions.Validate] applies
// beyond tool pairing, for the provider behind the model.
type ValidateOptions struct {
	// FirstUser: the first message after the system messages is a user
	// message (chat.RuleFirstUser), as Anthropic requires.
	FirstUser bool
	// Alternate: user and assistant messages alternate (chat.RuleAlternate).
	Alternate bool
}

// Validate is ValidateOptions{}.Validate: tool pairing only.
func Validate(msgs []*schema.Message) error { return ValidateOptions{}.Validate(msgs) }

// Validate checks messages against the tool-pairing rules every provider
// enforces with a 400, and those o asks for, and returns the first
// violation as a *chat.ConversationError naming the message and the rule
// (errors.Is(err, chat.ErrRefused)): no conversation starts with a tool
// message (chat.RuleStartsWithResult); a tool message answers a call of the
// assistant message before its run of tool messages (chat.RuleOrphanResult);
// every tool call is answered before the next other message
// (chat.RuleUnansweredCall). A nil message or one without a role gives an
// error wrapping [ErrUnsupported].
func (o ValidateOptions) Validate(msgs []*schema.Message) error {
	turns, err := ToTurns(msgs)
	if err != nil {
		return err
	}
	shapes := make([]chat.Shape, len(turns))
	for i, t := range turns {
		shapes[i] = t.Shape()
	}
	return chat.CheckShapes(shapes, chat.ShapeRules{FirstUser: o.FirstUser, Alternate: o.Alternate})
}

// RewriterOptions configure [Rewriter].
type RewriterOptions struct {
	// TrimOptions say how messages are selected.
	TrimOptions TrimOptions
	// OnReport, if set, receives the report of every selection.
	OnReport func(ctx context.Context, report *cupel.SelectionReport)
	// OnError, if set, is told when a selection fails; the hook then returns
	// the messages unchanged.
	OnError func(ctx context.Context, err error)
}

// Rewriter returns a hook that trims messages to budget with [Trim], for
// react.AgentConfig's MessageRewriter or MessageModifier (see the
// example):
//
//	cfg := &react.AgentConfig{MessageRewriter: hook}
//
// The hook never fails: on an error (a message it cannot convert, pinned
// system messages over the budget) it calls opts.OnError and returns the
// messages as they came. It is safe for concurrent use when counter is.
func Rewriter(counter cupel.TokenCounter, budget cupel.ContextBudget, opts RewriterOptions) func(context.Context, []*schema.Message) []*schema.Message {
	return func(ctx context.Context, msgs []*schema.Message) []*schema.Message {
		kept, report, err := Trim(msgs, counter, budget, opts.TrimOptions)
		if err != nil {
			if opts.OnError != nil {
				opts.OnError(ctx, err)
			}
			return msgs
		}
		if opts.OnReport != nil {
			opts.OnReport(ctx, report)
		}
		return kept
	}
}
