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
package examples
