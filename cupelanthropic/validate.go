package cupelanthropic

import (
	"strconv"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"

	"github.com/cupel-go/go-cupel/cupel/chat"
)

// ValidateOptions choose the rules [ValidateOptions.Validate] applies
// beyond those the Messages API always enforces.
type ValidateOptions struct {
	// Alternate refuses two consecutive messages of one role
	// (chat.RuleAlternate), as older API versions and some gateways do.
	// Anthropic's current endpoint accepts them and merges consecutive
	// messages of one role into a single turn, their blocks in order.
	Alternate bool
}

// Validate is ValidateOptions{}.Validate: the rules of the current
// Messages API.
func Validate(msgs []anthropic.MessageParam) error { return ValidateOptions{}.Validate(msgs) }

// Validate checks a request's messages against the rules the Messages API
// enforces by refusing the request with a 400, and returns the violation
// of the lowest message index as a *chat.ConversationError naming the
// message and the rule (errors.Is(err, chat.ErrRefused)):
//
//   - there is at least one message (chat.RuleNoMessages), and the first is
//     a user message (chat.RuleFirstUser) that carries no tool_result
//     (chat.RuleStartsWithResult);
//   - every tool_result answers a tool_use of the assistant message right
//     before it (chat.RuleOrphanResult), and every tool_use is answered by
//     the next message (chat.RuleUnansweredCall);
//   - a message's tool_result blocks come before its other blocks
//     (chat.RuleResultsFirst);
//   - every thinking block keeps its signature, and when the conversation
//     uses extended thinking, the assistant messages of the current tool
//     loop (after the last user message that is not only tool results)
//     that call tools start with their thinking (chat.RuleThinking);
//   - text blocks are not empty or white space (chat.RuleEmptyText);
//   - with o.Alternate, roles alternate (chat.RuleAlternate).
//
// A message without a role gives an error wrapping [ErrUnsupported].
// Whatever [Trim] returns from messages that pass Validate passes it too.
func (o ValidateOptions) Validate(msgs []anthropic.MessageParam) error {
	if len(msgs) == 0 {
		return &chat.ConversationError{Index: 0, Rule: chat.RuleNoMessages}
	}
	shapes := make([]chat.Shape, len(msgs))
	thinking := false
	loop := 0 // the first message of the current tool loop
	for i, m := range msgs {
		if m.Role == "" {
			return unsupported("messages["+strconv.Itoa(i)+"]", "no role")
		}
		s := chat.Shape{Role: chat.Role(m.Role)}
		plain := false // a block other than a tool_result
		for _, b := range m.Content {
			switch {
			case b.OfToolUse != nil:
				s.Calls = append(s.Calls, b.OfToolUse.ID)
			case b.OfToolResult != nil:
				s.Results = append(s.Results, b.OfToolResult.ToolUseID)
			case b.OfThinking != nil, b.OfRedactedThinking != nil:
				thinking = true
			}
			if b.OfToolResult == nil {
				plain = true
			}
		}
		shapes[i] = s
		if m.Role == anthropic.MessageParamRoleUser && (plain || len(s.Results) == 0) {
			loop = i + 1
		}
	}
	first := chat.CheckShapes(shapes, chat.ShapeRules{ResultsInNextMessage: true, FirstUser: true, Alternate: o.Alternate})
	for i, m := range msgs {
		if ce, ok := first.(*chat.ConversationError); ok && ce.Index <= i {
			return first
		}
		if err := blocks(m, i, thinking && i >= loop); err != nil {
			return err
		}
	}
	return first
}

// blocks checks the block rules of message i; inLoop says it belongs to
// the current tool loop of a conversation with extended thinking.
func blocks(m anthropic.MessageParam, i int, inLoop bool) error {
	plainBefore := false
	for k, b := range m.Content {
		where := "content[" + strconv.Itoa(k) + "]"
		switch {
		case b.OfToolResult != nil && plainBefore:
			return &chat.ConversationError{Index: i, Rule: chat.RuleResultsFirst, Detail: where + " is a tool_result after another block"}
		case b.OfText != nil && strings.TrimSpace(b.OfText.Text) == "":
			return &chat.ConversationError{Index: i, Rule: chat.RuleEmptyText, Detail: where}
		case b.OfThinking != nil && b.OfThinking.Signature == "":
			return &chat.ConversationError{Index: i, Rule: chat.RuleThinking, Detail: where + " has no signature"}
		case b.OfToolUse != nil && inLoop && m.Role == anthropic.MessageParamRoleAssistant:
			if first := m.Content[0]; first.OfThinking == nil && first.OfRedactedThinking == nil {
				return &chat.ConversationError{Index: i, Rule: chat.RuleThinking, Detail: "an assistant message of the current tool loop calls tools without its thinking blocks"}
			}
		}
		if b.OfToolResult == nil {
			plainBefore = true
		}
	}
	return nil
}
