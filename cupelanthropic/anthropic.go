package cupelanthropic

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
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

// DefaultMarginPercent is the estimation safety margin (spec chapter 11
// (Stage 5: Slice)) that [Trim] applies when the budget has none and the
// counter is not exact: Claude's tokenizer is not published, and an
// offline counter's estimate drifts from what the API bills. Measure the
// drift of your own counter with chat.Calibrate and set the margin it
// gives on the budget instead.
const DefaultMarginPercent = 20

// ToolUseSystemTokens is what Anthropic's API adds to the system prompt of a
// request with tools and tool_choice auto or none (Anthropic's tool use
// documentation, "Pricing", for the Claude 4 and 3.7 models; 313 for
// tool_choice any or tool). [Trim] counts it with the tools.
const ToolUseSystemTokens = 346

// TrimOptions configure [Trim].
type TrimOptions struct {
	// HistoryOptions say how messages become items and how they are
	// selected: set Eviction to chat.EvictCache to keep the prompt cache
	// warm. OpenWithUser is always on: the Messages API refuses a first
	// message that is not a user message.
	chat.HistoryOptions
	// Tools are the tool definitions sent with the request. Each is
	// counted as its JSON with the counter, plus [ToolUseSystemTokens]
	// once, and they come out of the budget before selection.
	Tools []anthropic.ToolUnionParam
	// ReplyReserve is the request's max_tokens: it comes out of the window
	// before selection (as the budget's OutputReserve, if that is smaller).
	ReplyReserve int
	// Exact says the counter is exact (one that calls the count_tokens
	// endpoint): no [DefaultMarginPercent] is applied.
	Exact bool
	// CacheBreakpoint marks the last block of the last kept message that
	// can carry one with cache_control {"type": "ephemeral"}: the prompt up
	// to it (tools, system, messages) is cached. With chat.EvictCache the
	// next request repeats this one as its prefix until the budget is
	// reached again, so it reads what this one wrote; Anthropic bills cache
	// reads at about a tenth of the input price and writes at 1.25 times
	// (5-minute lifetime), and caches nothing shorter than the model's
	// minimum (1,024 tokens for Sonnet, 2,048 for Haiku 3.x, 4,096 for some
	// newer models). At most 4 breakpoints are allowed per request: this
	// adds one. The message is copied, not modified.
	CacheBreakpoint bool
}

// Trim selects what of a request fits window, the model's context window
// (MaxTokens; TargetTokens may ask for less): the whole system prompt, then
// the newest messages that fit (chat.EvictWindow) or the stretch
// chat.EvictCache keeps, tool_use with its tool_result, opening with a user
// message. Before selection the tools and opts.ReplyReserve come out of the
// window (chat.RequestBudget), and unless opts.Exact or the budget has a
// margin, [DefaultMarginPercent] is applied. It returns the system blocks
// and messages in conversation order, and a *chat.Trimmed: the report
// explaining every block and message kept or dropped, and the input tokens
// as estimated (the kept blocks and messages, the omitted note, the tools
// with [ToolUseSystemTokens]), whose sum Estimated() pairs with the
// response's input_tokens (plus its cache read and write tokens) in a
// chat.Usage for chat.Calibrate.
//
// With HistoryOptions.OmittedNote, the note that says how many messages
// were dropped ("[41 earlier messages omitted]") is a system turn, so it
// becomes one more text block at the end of the returned system prompt,
// after the request's own blocks. EvictCache keeps it unchanged while the
// budget holds, as the rest of the cached prefix.
//
// When the stretch that fits would open with an assistant message, chat.
// EvictCache keeps the user message before it if the budget still holds,
// and otherwise the messages before the next user message are dropped
// (reported Filtered by chat.OpeningFilterName). If no user message fits,
// Trim returns a *chat.ConversationError for chat.RuleNoMessages rather
// than a request the API refuses. If msgs passes [Validate], so does what
// Trim returns.
//
// For a conversation that grows a turn at a time, keep a chat.History
// instead (with OpenWithUser): it counts each message once and reports the
// repeated prefix.
func Trim(system []anthropic.TextBlockParam, msgs []anthropic.MessageParam, counter cupel.TokenCounter, window cupel.ContextBudget, opts TrimOptions) ([]anthropic.TextBlockParam, []anthropic.MessageParam, *chat.Trimmed, error) {
	turns, err := ToTurns(system, msgs)
	if err != nil {
		return nil, nil, nil, err
	}
	if counter == nil {
		return nil, nil, nil, fmt.Errorf("%w: cupelanthropic.Trim: counter must not be nil", cupel.ErrInvalidArgument)
	}
	tools, err := toolTokens(opts.Tools, counter)
	if err != nil {
		return nil, nil, nil, err
	}
	if !opts.Exact && window.EstimationSafetyMarginPercent() == 0 {
		spec := window.Spec()
		spec.EstimationSafetyMarginPercent = DefaultMarginPercent
		if window, err = cupel.NewBudget(spec); err != nil {
			return nil, nil, nil, err
		}
	}
	budget, err := chat.RequestBudget(window, tools, opts.ReplyReserve)
	if err != nil {
		return nil, nil, nil, err
	}
	hopts := opts.HistoryOptions
	hopts.OpenWithUser = true
	sel, err := chat.Select(turns, counter, budget, hopts)
	if err != nil {
		return nil, nil, nil, err
	}
	s, m, err := FromTurns(sel.Turns)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(m) == 0 {
		return nil, nil, sel.Trimmed(tools), &chat.ConversationError{Index: 0, Rule: chat.RuleNoMessages, Detail: "no user message fits the budget"}
	}
	if opts.CacheBreakpoint {
		if err := markLast(m); err != nil {
			return nil, nil, nil, err
		}
	}
	return s, m, sel.Trimmed(tools), nil
}

// toolTokens counts tools as their JSON, plus ToolUseSystemTokens.
func toolTokens(tools []anthropic.ToolUnionParam, counter cupel.TokenCounter) (int, error) {
	if len(tools) == 0 {
		return 0, nil
	}
	n := ToolUseSystemTokens
	for i, t := range tools {
		b, err := json.Marshal(t)
		if err != nil {
			return 0, unsupported(fmt.Sprintf("tools[%d]", i), "%v", err)
		}
		c, err := counter.Count(string(b))
		if err != nil {
			return 0, fmt.Errorf("cupelanthropic: counting tools[%d]: %w", i, err)
		}
		n += c
	}
	return n, nil
}

// markLast puts a cache_control breakpoint on the last block of the last
// message that can carry one, on a copy of the message and the block.
func markLast(msgs []anthropic.MessageParam) error {
	m := msgs[len(msgs)-1]
	for k := len(m.Content) - 1; k >= 0; k-- {
		if m.Content[k].GetCacheControl() == nil {
			continue // thinking blocks carry none
		}
		raw, err := json.Marshal(m.Content[k])
		if err != nil {
			return unsupported(fmt.Sprintf("messages[%d].content[%d]", len(msgs)-1, k), "%v", err)
		}
		var b anthropic.ContentBlockParamUnion
		if err := json.Unmarshal(raw, &b); err != nil {
			return unsupported(fmt.Sprintf("messages[%d].content[%d]", len(msgs)-1, k), "%v", err)
		}
		*b.GetCacheControl() = anthropic.NewCacheControlEphemeralParam()
		m.Content = slices.Clone(m.Content)
		m.Content[k] = b
		msgs[len(msgs)-1] = m
		return nil
	}
	return nil
}
