// Package cupeleino connects go-cupel to eino (github.com/cloudwego/eino):
// it converts []*schema.Message to chat turns and back, and gives a ReAct
// agent a message hook that trims its history to a model's context window
// with the go-cupel pipeline, in place of eino's own trimming.
//
// [ToTurns] and [FromTurns] convert both ways. Each turn keeps the
// *schema.Message it came from in its Raw field and FromTurns returns that
// same pointer, so nothing is lost or copied: multi-part content, reasoning,
// response metadata, Extra maps, tool call indexes and extras. [Trim]
// selects with chat.Policy: system messages always, then the newest messages
// that fit (or, with chat.EvictCache, a stretch that keeps the prompt cache
// warm), opening with a user message, an assistant message with tool calls
// kept or dropped together with the tool messages answering it (package
// chat). [Validate] checks a message list against the tool-pairing rules
// providers enforce with a 400, naming the message that breaks one.
//
// [Rewriter] returns the hook, a func(context.Context, []*schema.Message)
// []*schema.Message that fits react.AgentConfig's MessageRewriter (which
// rewrites the agent's stored history before each model call) or its
// MessageModifier (which changes only what the model is sent). The hook
// cannot return an error: when trimming fails it returns the messages
// unchanged and tells [RewriterOptions].OnError; OnReport receives every
// selection's report.
//
// Counting: each message's text (Content, the text of its multi-part
// content, ReasoningContent), name and tool calls are counted, plus
// chat.Options.PerTurnTokens; images, audio, video and files are not. The
// hook recounts the history on every call, so give it a caching counter
// (the cupeltiktoken module's counters cache by content hash).
package cupeleino
