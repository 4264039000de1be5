package chat

import (
	"errors"
	"fmt"
	"strconv"
)

// ErrRefused: a conversation breaks a rule that a provider's API enforces
// by refusing the request (HTTP 400). See [ConversationError].
var ErrRefused = errors.New("chat: conversation the provider refuses")

// Rule names a rule of a provider's API that a conversation can break.
type Rule string

// The rules the SDK adapters' Validate functions check. Each is enforced by
// the provider with a 400; the comment says which providers.
const (
	// RuleOrphanResult: a tool result must answer a call of the assistant
	// message right before it (OpenAI: before its run of tool messages;
	// Anthropic: the message before the user message that carries it).
	RuleOrphanResult Rule = "tool result without its call"
	// RuleUnansweredCall: every tool call must be answered, by the tool
	// messages that follow it (OpenAI) or by the next user message
	// (Anthropic).
	RuleUnansweredCall Rule = "tool call without its result"
	// RuleStartsWithResult: no conversation starts with a tool result.
	RuleStartsWithResult Rule = "starts with a tool result"
	// RuleFirstUser (Anthropic): the first message is a user message.
	RuleFirstUser Rule = "first message is not a user message"
	// RuleAlternate (Anthropic, when asked): user and assistant messages
	// alternate. Anthropic's current endpoint merges consecutive messages of
	// one role into one turn; older versions and some gateways refuse them.
	RuleAlternate Rule = "roles do not alternate"
	// RuleResultsFirst (Anthropic): the tool_result blocks come first in
	// their user message, before any other block.
	RuleResultsFirst Rule = "tool results do not lead their message"
	// RuleThinking (Anthropic): with extended thinking, the assistant
	// messages of the current tool loop start with their thinking blocks,
	// and every thinking block keeps its signature.
	RuleThinking Rule = "thinking block missing or unsigned"
	// RuleEmptyText (Anthropic): text blocks are not empty.
	RuleEmptyText Rule = "empty text block"
	// RuleNoMessages (Anthropic): a request has at least one message.
	RuleNoMessages Rule = "no messages"
)

// ConversationError names the message that breaks a rule, the rule and the
// details. It wraps [ErrRefused].
type ConversationError struct {
	// Index is the message's position in the list validated.
	Index int
	// Rule is the rule broken.
	Rule Rule
	// Detail says what was found, e.g. the tool call's ID.
	Detail string
}

// Error names the message, the rule and the details.
func (e *ConversationError) Error() string {
	s := fmt.Sprintf("%v: message %d: %s", ErrRefused, e.Index, e.Rule)
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// Unwrap returns ErrRefused.
func (e *ConversationError) Unwrap() error { return ErrRefused }

// Shape is what the tool-pairing and role rules read of one message: the
// SDK adapters describe each message of a request by its shape and check
// them with [CheckShapes].
type Shape struct {
	// Role is the message's role: RoleUser, RoleAssistant, RoleTool (an
	// OpenAI tool or function message) or a system role.
	Role Role
	// Calls are the IDs of the tool calls the message makes.
	Calls []string
	// Results are the IDs of the calls the message answers.
	Results []string
}

// ShapeRules say which provider's pairing and role rules [CheckShapes]
// applies.
type ShapeRules struct {
	// ResultsInNextMessage: tool results travel in the one message right
	// after the call (Anthropic's user message of tool_result blocks), not
	// in RoleTool messages following it (OpenAI).
	ResultsInNextMessage bool
	// FirstUser: the first message must be a user message ([RuleFirstUser]).
	FirstUser bool
	// Alternate: user and assistant messages must alternate ([RuleAlternate]).
	Alternate bool
}

// CheckShapes checks messages, described by their shapes, against the
// rules on tool results and roles ([RuleStartsWithResult],
// [RuleOrphanResult], [RuleUnansweredCall], and [RuleFirstUser] and
// [RuleAlternate] when asked), and returns the first violation as a
// [*ConversationError], or nil. System messages are skipped.
func CheckShapes(msgs []Shape, rules ShapeRules) error {
	prev := -1 // index of the previous non-system message
	open := -1 // index of the assistant message whose calls are open
	answered := map[string]bool{}
	unanswered := func() error {
		for _, id := range msgs[open].Calls {
			if !answered[id] {
				return &ConversationError{Index: open, Rule: RuleUnansweredCall, Detail: "call " + strconv.Quote(id) + " has no result"}
			}
		}
		return nil
	}
	for i, m := range msgs {
		if m.Role.IsSystem() {
			continue
		}
		isResult := m.Role == RoleTool || len(m.Results) > 0
		if prev < 0 {
			if isResult {
				return &ConversationError{Index: i, Rule: RuleStartsWithResult}
			}
			if rules.FirstUser && m.Role != RoleUser {
				return &ConversationError{Index: i, Rule: RuleFirstUser, Detail: "role " + strconv.Quote(string(m.Role))}
			}
		} else if rules.Alternate && m.Role == msgs[prev].Role {
			return &ConversationError{Index: i, Rule: RuleAlternate, Detail: "two " + string(m.Role) + " messages in a row"}
		}
		// Does the message close the open calls?
		closes := open >= 0 && (rules.ResultsInNextMessage || !isResult)
		if rules.ResultsInNextMessage && open >= 0 {
			for _, id := range m.Results {
				answered[id] = true
			}
		}
		if closes {
			if err := unanswered(); err != nil {
				return err
			}
		}
		for _, id := range m.Results {
			if open < 0 || !contains(msgs[open].Calls, id) || (!rules.ResultsInNextMessage && answered[id]) {
				return &ConversationError{Index: i, Rule: RuleOrphanResult, Detail: "answers " + strconv.Quote(id) + ", no call of the assistant message before it"}
			}
			answered[id] = true
		}
		if closes {
			open = -1
			clear(answered)
		}
		if m.Role == RoleAssistant && len(m.Calls) > 0 {
			open = i
		}
		prev = i
	}
	if open >= 0 {
		return unanswered()
	}
	return nil
}

// Shape returns the turn's shape: its role, the IDs of its calls and the
// call it answers.
func (t Turn) Shape() Shape {
	s := Shape{Role: t.Role}
	for _, c := range t.ToolCalls {
		s.Calls = append(s.Calls, c.ID)
	}
	if t.ToolCallID != "" {
		s.Results = []string{t.ToolCallID}
	}
	return s
}

func contains(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
