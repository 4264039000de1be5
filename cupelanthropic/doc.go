// Package cupelanthropic connects go-cupel to the Anthropic Go SDK
// (github.com/anthropics/anthropic-sdk-go): it converts a Messages request's
// system prompt ([]anthropic.TextBlockParam) and messages
// ([]anthropic.MessageParam) to chat turns and back, so that a conversation
// can be trimmed to a model's context window by the go-cupel pipeline.
//
// [ToTurns] and [FromTurns] convert both ways. Each turn keeps the block or
// message it came from in its Raw field and [FromTurns] returns it as it was,
// so nothing the package does not read is lost: images, documents, citations,
// cache_control marks, thinking signatures, server tool blocks, extra fields.
// [Trim] does the whole round with chat.Policy.
//
// The system prompt, which Anthropic sends apart from the messages, becomes
// one pinned turn per text block, always kept, and goes back into the
// system list. An assistant message with tool_use blocks and the user message
// after it holding their tool_result blocks become one item (package chat),
// kept or dropped together: the API rejects a tool_result whose tool_use is
// not in the request.
//
// # Counting
//
// Claude's tokenizer is not published, so there is no offline counter that
// matches it. Two ways work: count with an approximation and keep a margin
// (for example the cupeltiktoken module's o200k_base counter, with
// cupel.BudgetSpec.EstimationSafetyMarginPercent set to 20), or count each
// message exactly with the API's count_tokens endpoint inside a
// cupel.TokenCounterFunc, once per message since a chat.History caches the
// counts. Text, thinking, tool_use input (as JSON) and tool_result text are
// counted; images, documents and server tool results are not.
//
// # What the API accepts
//
// [Validate] checks messages against the rules the Messages API enforces
// with a 400 (tool_result pairing and position, thinking signatures, a
// first user message, non-empty text) and names the message that breaks
// one. [Trim] never returns what it refuses: its kept stretch opens with a
// user message (the API, Amazon Bedrock and Google Vertex refuse a first
// assistant message), and tool exchanges stay whole.
//
// # Budget and cache
//
// [Trim] takes the tools (as JSON, plus [ToolUseSystemTokens]) and the reply
// reserve (max_tokens) out of the window before selection, applies
// [DefaultMarginPercent] unless the counter is exact, and with
// chat.EvictCache and TrimOptions.CacheBreakpoint keeps the prompt cache
// warm. It returns a *chat.Trimmed: the selection report, and the input it
// estimates (system blocks and messages, the omitted note, the tools), to
// pair with the input tokens the API bills in a chat.Usage for
// chat.Calibrate.
//
// With chat.HistoryOptions.OmittedNote, the note that says how many
// messages were dropped ("[41 earlier messages omitted]") is a system turn:
// [Trim] returns it as one more text block at the end of the system prompt,
// after the request's own blocks.
package cupelanthropic
