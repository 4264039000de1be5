// Package examples holds application-style tests of a context selection
// written with the testing toolkit:
//
//   - examples/cupeltest_chain: a plain testing test using cupeltest.Should
//     and a report snapshot (cupeltest/snapshot);
//   - examples/ginkgo_matchers: a Ginkgo suite using the Gomega matchers.
//
// Both select the context of a support agent's turn (examples/agentcontext):
// a pinned system prompt, chat turns, tool outputs, retrieved documents and
// a memory.
//
// The conformance toolkit has examples of its own:
//
//   - examples/python-impl: a partial implementation of the spec in Python
//     behind the cupel-conform/1 protocol, and a test of its verdict;
//   - examples/gate: a Go implementation gating itself on conformance from
//     go test with conformtest.Test (package runner/conformtest).
//
// examples/similarity is a custom scorer (embedding similarity read from
// item metadata) written with the pipeline's fast path, cupel.BatchScorer,
// and proved against the scorer contract with cupeltest.RunScorerTests.
//
// examples/quickstart is the README's first program and its tests: the
// README's Go blocks are copies of its declarations (go test
// ./internal/doccheck keeps them equal).
//
// examples/cachesim is a command that simulates a long chat trimmed before
// every model call by a chat.History, with chat.EvictCache or a sliding
// window, and measures how much of each request a prompt cache can serve
// again and what the requests cost under Anthropic's cache prices.
//
// examples/policyfile is a command that reads a selection policy from a
// TOML (or JSON) file with policy.Decode and runs it over the
// agent's turn.
package examples
