package cupelanthropic

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/chat"
)

// ErrUnsupported: a block, message or turn cannot be converted. The error
// names where and why.
var ErrUnsupported = errors.New("cupelanthropic: cannot convert")

func unsupported(where string, format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrUnsupported, where, fmt.Sprintf(format, args...))
}

// ToTurns converts a request's system prompt and messages to turns: one
// system turn per system block, then one turn per message (see [ToTurn]).
// Neither slice is modified.
func ToTurns(system []anthropic.TextBlockParam, msgs []anthropic.MessageParam) ([]chat.Turn, error) {
	turns := make([]chat.Turn, 0, len(system)+len(msgs))
	for _, b := range system {
		turns = append(turns, chat.Turn{Role: chat.RoleSystem, Content: b.Text, Raw: b})
	}
	for i, m := range msgs {
		t, err := toTurn(m, fmt.Sprintf("messages[%d]", i))
		if err != nil {
			return nil, err
		}
		turns = append(turns, t)
	}
	return turns, nil
}

// ToTurn converts one message: its role, its text (text, thinking and
// tool_result text, joined by newlines), its tool_use blocks as tool calls
// (the input as JSON), the first tool_result's tool_use_id as the call it
// answers, and the message itself in Raw. A message without a role gives an
// error wrapping [ErrUnsupported].
func ToTurn(msg anthropic.MessageParam) (chat.Turn, error) { return toTurn(msg, "message") }

func toTurn(m anthropic.MessageParam, where string) (chat.Turn, error) {
	if m.Role == "" {
		return chat.Turn{}, unsupported(where, "no role")
	}
	t := chat.Turn{Role: chat.Role(m.Role), Raw: m}
	var text []string
	add := func(s string) {
		if s != "" {
			text = append(text, s)
		}
	}
	for k, b := range m.Content {
		switch {
		case b.OfText != nil:
			add(b.OfText.Text)
		case b.OfThinking != nil:
			add(b.OfThinking.Thinking)
		case b.OfToolUse != nil:
			args, err := json.Marshal(b.OfToolUse.Input)
			if err != nil {
				return chat.Turn{}, unsupported(fmt.Sprintf("%s.content[%d]", where, k), "tool_use input: %v", err)
			}
			t.ToolCalls = append(t.ToolCalls, chat.ToolCall{ID: b.OfToolUse.ID, Name: b.OfToolUse.Name, Arguments: string(args)})
		case b.OfToolResult != nil:
			if t.ToolCallID == "" {
				t.ToolCallID = b.OfToolResult.ToolUseID
			}
			for _, c := range b.OfToolResult.Content {
				if c.OfText != nil {
					add(c.OfText.Text)
				}
			}
		}
	}
	t.Content = strings.Join(text, "\n")
	return t, nil
}

// FromTurns converts turns back to a system prompt and messages. A turn
// made by [ToTurns] gives back its block or message unchanged (from Raw).
// Any other turn is built from its fields: a system turn as a system text
// block; a user turn as a user message with a text block; an assistant turn
// as an assistant message with a text block and a tool_use block per tool
// call (the arguments as the input's JSON); a tool turn as a user message
// with a tool_result block. Other roles give an error wrapping
// [ErrUnsupported].
func FromTurns(turns []chat.Turn) ([]anthropic.TextBlockParam, []anthropic.MessageParam, error) {
	var system []anthropic.TextBlockParam
	msgs := make([]anthropic.MessageParam, 0, len(turns))
	for i, t := range turns {
		where := fmt.Sprintf("turns[%d]", i)
		switch raw := t.Raw.(type) {
		case anthropic.TextBlockParam:
			system = append(system, raw)
			continue
		case anthropic.MessageParam:
			msgs = append(msgs, raw)
			continue
		}
		switch t.Role {
		case chat.RoleSystem, chat.RoleDeveloper:
			system = append(system, anthropic.TextBlockParam{Text: t.Content})
		case chat.RoleUser:
			msgs = append(msgs, anthropic.NewUserMessage(anthropic.NewTextBlock(t.Content)))
		case chat.RoleAssistant:
			var blocks []anthropic.ContentBlockParamUnion
			if t.Content != "" {
				blocks = append(blocks, anthropic.NewTextBlock(t.Content))
			}
			for k, c := range t.ToolCalls {
				input := json.RawMessage(c.Arguments)
				if c.Arguments == "" {
					input = json.RawMessage("{}")
				}
				if !json.Valid(input) {
					return nil, nil, unsupported(fmt.Sprintf("%s.ToolCalls[%d]", where, k), "arguments are not JSON: %.40q", c.Arguments)
				}
				blocks = append(blocks, anthropic.NewToolUseBlock(c.ID, input, c.Name))
			}
			msgs = append(msgs, anthropic.NewAssistantMessage(blocks...))
		case chat.RoleTool:
			if t.ToolCallID == "" {
				return nil, nil, unsupported(where, "a tool turn needs a ToolCallID")
			}
			msgs = append(msgs, anthropic.NewUserMessage(anthropic.NewToolResultBlock(t.ToolCallID, t.Content, false)))
		default:
			return nil, nil, unsupported(where, "role %q has no Anthropic message", t.Role)
		}
	}
	return system, msgs, nil
}

// Items converts a system prompt and messages to items with chat.Items.
func Items(system []anthropic.TextBlockParam, msgs []anthropic.MessageParam, counter cupel.TokenCounter, opts chat.Options) ([]*cupel.ContextItem, error) {
	turns, err := ToTurns(system, msgs)
	if err != nil {
		return nil, err
	}
	return chat.Items(turns, counter, opts)
}

// Messages converts selected items (built by [Items], chat.Items or a
// chat.History) back to a system prompt and messages, in the order of items.
func Messages(items []*cupel.ContextItem) ([]anthropic.TextBlockParam, []anthropic.MessageParam, error) {
	turns, err := chat.Turns(items)
	if err != nil {
		return nil, nil, err
	}
	return FromTurns(turns)
}

// Trim selects, with chat.Policy, what of a request fits budget: the whole
// system prompt, then the newest messages that fit, tool_use with its
// tool_result. It returns them in conversation order with the report
// explaining every block and message kept or dropped. For a conversation
// that grows a turn at a time, keep a chat.History instead: it counts each
// message once.
func Trim(system []anthropic.TextBlockParam, msgs []anthropic.MessageParam, counter cupel.TokenCounter, budget cupel.ContextBudget, opts chat.Options) ([]anthropic.TextBlockParam, []anthropic.MessageParam, *cupel.SelectionReport, error) {
	turns, err := ToTurns(system, msgs)
	if err != nil {
		return nil, nil, nil, err
	}
	sel, err := chat.Select(turns, counter, budget, chat.HistoryOptions{Options: opts})
	if err != nil {
		return nil, nil, nil, err
	}
	s, m, err := FromTurns(sel.Turns)
	if err != nil {
		return nil, nil, nil, err
	}
	return s, m, sel.Report, nil
}
