// Package matchers provides one Gomega matcher per assertion pattern of
// the Cupel.Testing vocabulary (spec chapter 45), under the pattern's name:
//
//	Expect(report).To(matchers.IncludeItemWithKind(cupel.KindSystemPrompt))
//	Expect(report).NotTo(matchers.HaveNoExclusionsForKind(cupel.KindMemory))
//	Expect(report).To(And(
//		matchers.HaveKindCoverageCount(3),
//		matchers.PlaceTopNScoredAtEdges(2),
//	))
//
// The matchers share their semantics and messages with package cupeltest
// (both call one internal implementation; see cupeltest's documentation for
// the semantics, arguments and the choices made where the chapter leaves
// room).
//
//   - Match accepts a *cupel.SelectionReport or a cupel.SelectionReport and
//     returns an error for anything else, nil included. It also returns an
//     error when the matcher's arguments are invalid (an empty kind or
//     reason, a negative n or token count, a NaN or negative threshold), so
//     that such a matcher fails under To and NotTo alike:
//     "HaveAtLeastNExclusions(-2) failed: invalid argument: n must be >= 0
//     (got -2)."
//   - FailureMessage is exactly the message cupeltest reports, e.g.
//     "IncludeItemWithKind(Memory) failed: Included contained 0 items with
//     Kind=Memory. Included had 3 items with kinds: [SystemPrompt, Message]."
//   - NegatedFailureMessage (under Not, NotTo, ToNot) says what was expected
//     not to hold and what was found, rendering the call as FailureMessage
//     does: "Expected the report not to satisfy IncludeItemWithKind(Message),
//     but Included contained 2 items with Kind=Message (of 3 items)."
//   - Each matcher is a named type embedding [Matcher], which implements
//     Gomega's interface once for all 13 patterns (and shares their one
//     definition with cupeltest's chain). Its GomegaString and String render
//     it as its call inside ContainElement, And, Or or Not:
//     IncludeItemWithKind(Message), IncludeExactlyNItemsWithKind(Tool, 2),
//     IncludeItemMatching(<predicate>). A kind or reason that would be
//     unreadable bare (empty, or with spaces) is quoted: IncludeItemWithKind("").
//   - A matcher keeps only its arguments and evaluates the report anew in
//     every method, so it holds no state between calls and can be reused.
//
// None of the 13 names is one of Gomega's own exported names, so this
// package and gomega can both be dot-imported.
package matchers
