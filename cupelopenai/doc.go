// Package cupelopenai connects go-cupel to the OpenAI Go SDK
// (github.com/openai/openai-go/v3): it converts chat completion message
// params to chat turns and back, so that a conversation held as
// []openai.ChatCompletionMessageParamUnion can be trimmed to a model's
// context window by the go-cupel pipeline.
//
// [ToTurns] and [FromTurns] convert both ways. Each turn keeps the message it
// came from in its Raw field and [FromTurn] returns that message as it was, so
// nothing the package does not read is lost: images, audio, refusals, extra
// fields, prompt-cache marks. [Trim] does the whole round: messages to items
// (counted with a cupel.TokenCounter, e.g. the cupeltiktoken module's),
// selection under a budget with chat.Policy, and the selected messages back,
// in conversation order, with the report.
//
// An assistant message with tool calls and the tool messages that answer them
// become one item (package chat), so they are kept or dropped together: the
// API rejects a tool message whose call is not in the request. The legacy
// function_call and function-role messages are paired the same way.
// [Validate] checks a message list against the pairing rules the API
// enforces with a 400 and names the message that breaks one; whatever Trim
// returns from a valid conversation is valid.
//
// Counting: a message's text parts, name and tool calls are counted, plus
// OpenAI's framing ([TokensPerMessage], [TokensPerName]), and [Trim] takes the tools
// ([ToolTokens]) and the reply reserve out of the window before selection.
// Images, audio and files are not counted: add a margin to the budget
// (cupel.BudgetSpec.EstimationSafetyMarginPercent) when a conversation holds
// them. [Trim] returns a *chat.Trimmed: the selection report, and the input
// it estimates (the kept messages, the omitted note, the tools and the
// reply primer), to pair with the response's usage.prompt_tokens in a
// chat.Usage for chat.Calibrate.
//
// With chat.HistoryOptions.OmittedNote, the note that says how many
// messages were dropped ("[41 earlier messages omitted]") is a system
// message of its own, after the system and developer messages that open the
// conversation.
package cupelopenai
