// Package chat turns a chat conversation into context items and the items
// the pipeline selects back into the conversation, so that an LLM
// application can fit its history to a model's context window with go-cupel.
//
// A [Turn] is one message of a conversation: a role, the content, the name of
// the participant or tool, the tool calls an assistant turn makes and, for a
// tool result, the id of the call it answers. [Items] builds one item per
// turn, except that an assistant turn with tool calls and the tool results
// that follow it and answer those calls become one item, a tool exchange:
// the OpenAI and Anthropic APIs reject a tool result without the call it
// answers, and the pipeline selects or drops an item whole, so the call and
// its results are kept together or dropped together. [Turns] converts the
// selected items back into turns, in the order the pipeline placed them.
//
// Each item carries its turns in metadata ([TurnsKey]; the role of its first
// turn under [RoleKey] and its position under [IndexKey]), so converting
// back loses nothing: a turn's Raw value, where an SDK adapter keeps the
// message it came from, comes back as it went in.
//
// # Items
//
//   - Kind: SystemPrompt for system and developer turns, which are pinned
//     (always included, spec chapter 02 (ContextItem)); ToolOutput with
//     source Tool for a tool exchange; Message otherwise.
//   - Timestamp: SDK messages carry no time, so turn i is stamped
//     Options.Start + i seconds, increasing with turn order. The chronological
//     placer (spec chapter 32 (ChronologicalPlacer)) then restores the
//     conversation's order, and the recency scorer ranks later turns higher.
//   - Tokens: the counter's count of each turn's content, name and tool calls
//     (name and arguments), plus Options.PerTurnTokens per turn for the
//     framing an API adds to every message.
//   - Content: "[i] role: content", one line per turn (a tool call as
//     "[i] assistant calls name(arguments) id=ID"). The turn number makes
//     every item's content unique, so the pipeline's deduplication (spec
//     chapter 09 (Stage 3: Deduplicate)), which compares content byte for
//     byte, never removes a repeated short turn such as "ok" or "yes". The
//     content is for reading reports; the turns themselves are in metadata.
//     Set Options.Deduplicate to leave the numbers out and let the pipeline
//     remove identical turns, keeping the best-scored one.
//
// # Selecting
//
// [Policy] is the selection that suits a chat: RecencyScorer, the
// [NewestFirstSlice] (the newest turns that fit, without a gap) and the
// ChronologicalPlacer. [History] keeps a growing conversation with the token
// count of every turn cached, so selecting again after a new turn counts only
// that turn.
//
// [HistoryOptions] choose how turns are dropped when the conversation
// outgrows the budget: [EvictWindow], the newest turns that fit, or
// [EvictCache], which drops down to a low-water mark in one step and then
// keeps the prompt's prefix byte-identical while the budget holds, so a
// provider's prompt cache serves it again ([Selection].PrefixTokens says how
// many tokens repeat). OpenWithUser makes the kept turns open with a user
// turn, as Anthropic requires, and OmittedNote says how many turns were
// dropped in one short system turn, after the system turns that open the
// conversation.
//
// # Requests the provider accepts
//
// [CheckShapes] checks messages, described by their [Shape], against the
// tool-pairing and role rules providers enforce with a 400, and returns a
// [*ConversationError] naming the message and the [Rule]; the SDK adapters'
// Validate functions are built on it. [RequestBudget] takes what a request
// spends outside its turns (tool definitions, reply priming) and the reply's
// reserve out of the model's window; [Trimmed] is what the SDK adapters'
// Trim functions return: the report, and the input they estimate in parts;
// and [Calibrate] measures how far token estimates drift from what the
// provider billed, and the margin that covers it.
package chat
