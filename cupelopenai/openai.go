package cupelopenai

import (
	"errors"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/chat"
)

// ErrUnsupportedMessage: a message or turn cannot be converted. The error
// names its index and why.
var ErrUnsupportedMessage = errors.New("cupelopenai: unsupported message")

func unsupported(index int, format string, args ...any) error {
	return fmt.Errorf("%w: message %d: %s", ErrUnsupportedMessage, index, fmt.Sprintf(format, args...))
}

// legacyFunctionID is the tool call ID given to the legacy function_call of
// an assistant message and to the function message answering it, which the
// API pairs by name.
func legacyFunctionID(name string) string { return "function_call:" + name }

// ToTurns converts messages to turns (see [ToTurn]). msgs is not modified.
func ToTurns(msgs []openai.ChatCompletionMessageParamUnion) ([]chat.Turn, error) {
	turns := make([]chat.Turn, len(msgs))
	for i, m := range msgs {
		t, err := toTurn(m, i)
		if err != nil {
			return nil, err
		}
		turns[i] = t
	}
	return turns, nil
}

// ToTurn converts one message: its role, its text (text and refusal parts
// joined by newlines, the assistant's refusal included), its name, its tool
// calls (function and custom) or the tool call it answers, and the message
// itself in Raw. A message with no variant set gives an error wrapping
// [ErrUnsupportedMessage].
func ToTurn(msg openai.ChatCompletionMessageParamUnion) (chat.Turn, error) { return toTurn(msg, 0) }

func toTurn(m openai.ChatCompletionMessageParamUnion, index int) (chat.Turn, error) {
	// The variant, not its Role field, says the role: a param built in Go
	// leaves Role empty and the SDK writes the default when marshalling.
	var role chat.Role
	switch {
	case m.OfSystem != nil:
		role = chat.RoleSystem
	case m.OfDeveloper != nil:
		role = chat.RoleDeveloper
	case m.OfUser != nil:
		role = chat.RoleUser
	case m.OfAssistant != nil:
		role = chat.RoleAssistant
	case m.OfTool != nil:
		role = chat.RoleTool
	case m.OfFunction != nil:
		role = "function"
	default:
		return chat.Turn{}, unsupported(index, "no variant set (OfSystem, OfUser, OfAssistant, ...)")
	}
	t := chat.Turn{Role: role, Raw: m}
	if n := m.GetName(); n != nil {
		t.Name = *n
	}
	var text []string
	add := func(s string) {
		if s != "" {
			text = append(text, s)
		}
	}
	switch c := m.GetContent().AsAny().(type) {
	case *string:
		add(*c)
	case *[]openai.ChatCompletionContentPartTextParam:
		for _, p := range *c {
			add(p.Text)
		}
	case *[]openai.ChatCompletionContentPartUnionParam:
		for _, p := range *c {
			if p.OfText != nil {
				add(p.OfText.Text)
			}
		}
	case *[]openai.ChatCompletionAssistantMessageParamContentArrayOfContentPartUnion:
		for _, p := range *c {
			if p.OfText != nil {
				add(p.OfText.Text)
			}
			if p.OfRefusal != nil {
				add(p.OfRefusal.Refusal)
			}
		}
	}
	switch {
	case m.OfAssistant != nil:
		a := m.OfAssistant
		if a.Refusal.Valid() {
			add(a.Refusal.Value)
		}
		for k, tc := range a.ToolCalls {
			switch {
			case tc.OfFunction != nil:
				t.ToolCalls = append(t.ToolCalls, chat.ToolCall{ID: tc.OfFunction.ID, Name: tc.OfFunction.Function.Name, Arguments: tc.OfFunction.Function.Arguments})
			case tc.OfCustom != nil:
				t.ToolCalls = append(t.ToolCalls, chat.ToolCall{ID: tc.OfCustom.ID, Name: tc.OfCustom.Custom.Name, Arguments: tc.OfCustom.Custom.Input})
			default:
				return chat.Turn{}, unsupported(index, "tool_calls[%d] has no variant set", k)
			}
		}
		//lint:ignore SA1019 conversations written before tool calls still hold function_call; it is read, never written
		if fc := a.FunctionCall; fc.Name != "" {
			t.ToolCalls = append(t.ToolCalls, chat.ToolCall{ID: legacyFunctionID(fc.Name), Name: fc.Name, Arguments: fc.Arguments})
		}
	case m.OfTool != nil:
		t.ToolCallID = m.OfTool.ToolCallID
	case m.OfFunction != nil:
		t.ToolCallID = legacyFunctionID(m.OfFunction.Name)
	}
	t.Content = strings.Join(text, "\n")
	return t, nil
}

// FromTurns converts turns to messages (see [FromTurn]).
func FromTurns(turns []chat.Turn) ([]openai.ChatCompletionMessageParamUnion, error) {
	msgs := make([]openai.ChatCompletionMessageParamUnion, len(turns))
	for i, t := range turns {
		m, err := fromTurn(t, i)
		if err != nil {
			return nil, err
		}
		msgs[i] = m
	}
	return msgs, nil
}

// FromTurn converts a turn to a message. A turn made by [ToTurn] gives back
// its message unchanged (from Raw). Any other turn is built from its fields:
// a system, developer, user or tool message with its text and name, or an
// assistant message with its text, name and function tool calls. Other roles
// give an error wrapping [ErrUnsupportedMessage].
func FromTurn(t chat.Turn) (openai.ChatCompletionMessageParamUnion, error) { return fromTurn(t, 0) }

func fromTurn(t chat.Turn, index int) (openai.ChatCompletionMessageParamUnion, error) {
	switch raw := t.Raw.(type) {
	case openai.ChatCompletionMessageParamUnion:
		return raw, nil
	case *openai.ChatCompletionMessageParamUnion:
		if raw != nil {
			return *raw, nil
		}
	}
	var m openai.ChatCompletionMessageParamUnion
	switch t.Role {
	case chat.RoleSystem:
		m = openai.SystemMessage(t.Content)
		if t.Name != "" {
			m.OfSystem.Name = openai.String(t.Name)
		}
	case chat.RoleDeveloper:
		m = openai.DeveloperMessage(t.Content)
		if t.Name != "" {
			m.OfDeveloper.Name = openai.String(t.Name)
		}
	case chat.RoleUser:
		m = openai.UserMessage(t.Content)
		if t.Name != "" {
			m.OfUser.Name = openai.String(t.Name)
		}
	case chat.RoleAssistant:
		a := &openai.ChatCompletionAssistantMessageParam{}
		if t.Content != "" {
			a.Content.OfString = openai.String(t.Content)
		}
		if t.Name != "" {
			a.Name = openai.String(t.Name)
		}
		for _, c := range t.ToolCalls {
			a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
					ID:       c.ID,
					Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: c.Arguments},
				},
			})
		}
		m.OfAssistant = a
	case chat.RoleTool:
		if t.ToolCallID == "" {
			return m, unsupported(index, "a tool turn needs a ToolCallID")
		}
		m = openai.ToolMessage(t.Content, t.ToolCallID)
	default:
		return m, unsupported(index, "role %q has no chat completion message", t.Role)
	}
	return m, nil
}

// Items converts messages to items with chat.Items: one per message, one per
// tool exchange, counted with counter.
func Items(msgs []openai.ChatCompletionMessageParamUnion, counter cupel.TokenCounter, opts chat.Options) ([]*cupel.ContextItem, error) {
	turns, err := ToTurns(msgs)
	if err != nil {
		return nil, err
	}
	return chat.Items(turns, counter, opts)
}

// Messages converts selected items (built by [Items], chat.Items or a
// chat.History) back to messages, in the order of items.
func Messages(items []*cupel.ContextItem) ([]openai.ChatCompletionMessageParamUnion, error) {
	turns, err := chat.Turns(items)
	if err != nil {
		return nil, err
	}
	return FromTurns(turns)
}

// TrimOptions configure [Trim].
type TrimOptions struct {
	// HistoryOptions say how messages become items and how they are
	// selected: set Eviction to chat.EvictCache to keep OpenAI's prompt
	// cache warm. PerTurnTokens and PerNameTokens both zero mean OpenAI's
	// framing: TokensPerMessage plus the role's token per message (every
	// role is one token in o200k_base and cl100k_base) and TokensPerName.
	chat.HistoryOptions
	// Tools are the tool definitions sent with the request. [ToolTokens]
	// counts them with ToolCosts, and they come out of the budget before
	// selection.
	Tools []openai.ChatCompletionToolUnionParam
	// ToolCosts are the tool-counting constants; zero means ToolCostsGPT4o.
	ToolCosts ToolCosts
	// ReplyReserve is the request's max_completion_tokens: it comes out of
	// the window before selection (as the budget's OutputReserve, if that
	// is smaller).
	ReplyReserve int
}

// Trim selects the messages of a request that fit window, the model's
// context window (MaxTokens; TargetTokens may ask for less), and returns
// them in conversation order with a *chat.Trimmed: the report explaining
// every message kept or dropped, and the input tokens as estimated (the
// kept messages, the omitted note, the tools and the reply primer), whose
// sum Estimated() pairs with the response's usage.prompt_tokens in a
// chat.Usage for chat.Calibrate. Before selection, the tools (counted by [ToolTokens]), the 3
// tokens that prime the reply ([TokensReplyPrimer]) and opts.ReplyReserve
// come out of the window (chat.RequestBudget); each message is counted with
// OpenAI's framing. System and developer messages are always kept; then the
// newest messages that fit (chat.EvictWindow) or the stretch chat.EvictCache
// keeps, tool calls with their results.
//
// With HistoryOptions.OmittedNote, the note that says how many messages
// were dropped ("[41 earlier messages omitted]") is a system message of its
// own, after the system and developer messages that open the conversation
// and before the first message kept after them.
//
// If msgs passes [Validate], so does what Trim returns. For a conversation
// that grows a turn at a time, keep a chat.History instead: it counts each
// message once and reports the repeated prefix.
//
// OpenAI caches prompt prefixes of 1,024 tokens or more by itself, in steps
// of 128 tokens, and bills the cached input tokens at a discount; no marks
// are needed in the request. With chat.EvictCache each request repeats the
// previous one up to its newest turns until the budget is reached again, so
// those prefixes hit the cache.
func Trim(msgs []openai.ChatCompletionMessageParamUnion, counter cupel.TokenCounter, window cupel.ContextBudget, opts TrimOptions) ([]openai.ChatCompletionMessageParamUnion, *chat.Trimmed, error) {
	turns, err := ToTurns(msgs)
	if err != nil {
		return nil, nil, err
	}
	costs := opts.ToolCosts
	if costs == (ToolCosts{}) {
		costs = ToolCostsGPT4o
	}
	if counter == nil {
		return nil, nil, fmt.Errorf("%w: cupelopenai.Trim: counter must not be nil", cupel.ErrInvalidArgument)
	}
	tools, err := ToolTokens(opts.Tools, counter, costs)
	if err != nil {
		return nil, nil, err
	}
	fixed := tools + TokensReplyPrimer
	budget, err := chat.RequestBudget(window, fixed, opts.ReplyReserve)
	if err != nil {
		return nil, nil, err
	}
	hopts := opts.HistoryOptions
	if hopts.PerTurnTokens == 0 && hopts.PerNameTokens == 0 {
		hopts.PerTurnTokens, hopts.PerNameTokens = TokensPerMessage+1, TokensPerName
	}
	sel, err := chat.Select(turns, counter, budget, hopts)
	if err != nil {
		return nil, nil, err
	}
	out, err := FromTurns(sel.Turns)
	if err != nil {
		return nil, nil, err
	}
	return out, sel.Trimmed(fixed), nil
}
