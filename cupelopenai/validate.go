package cupelopenai

import (
	"github.com/openai/openai-go/v3"

	"github.com/cupel-go/go-cupel/cupel/chat"
)

// Validate checks messages against the rules the Chat Completions API
// enforces by refusing the request with a 400, and returns the first
// violation as a *chat.ConversationError naming the message's index and the
// rule (errors.Is(err, chat.ErrRefused)):
//
//   - no conversation starts with a tool message (chat.RuleStartsWithResult);
//   - a tool message answers a call of the assistant message before its
//     run of tool messages (chat.RuleOrphanResult);
//   - every tool call of an assistant message is answered before the next
//     message that is not a tool message, or the end (chat.RuleUnansweredCall).
//
// The legacy function_call and function messages are paired the same way. A
// message with no variant set gives an error wrapping [ErrUnsupportedMessage].
// Whatever [Trim] returns from messages that pass Validate passes it too.
func Validate(msgs []openai.ChatCompletionMessageParamUnion) error {
	turns, err := ToTurns(msgs)
	if err != nil {
		return err
	}
	return chat.CheckShapes(shapes(turns), chat.ShapeRules{})
}

func shapes(turns []chat.Turn) []chat.Shape {
	out := make([]chat.Shape, len(turns))
	for i, t := range turns {
		out[i] = t.Shape()
	}
	return out
}
