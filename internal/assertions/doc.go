// Package assertions implements, once, the 13 assertion patterns of the
// Cupel.Testing vocabulary (spec chapter 45) over a [cupel.SelectionReport].
//
// Both front ends of the testing toolkit use it: the cupeltest chain
// (Should / Require / Check) and the Gomega matchers of package matchers.
// Each pattern is a function that binds its arguments into an [Assertion]:
// the pattern's name, its call as messages render it, the validation of its
// arguments, and its evaluation, which returns an [Outcome]: whether the
// assertion holds, the chapter's failure message when it does not, and,
// when it does, a description of what was found (the matchers' negated
// failure message needs it). The chain methods and the matcher types only
// bind their arguments and report the outcome, so every pattern's semantics,
// messages and argument checks live in a single place.
//
// # Conventions shared by every pattern
//
//   - Kinds match with [cupel.ContextKind.Equal] (ASCII case folding,
//     ruling 15). Lists of distinct kinds ({actualKinds}) keep the
//     first spelling met, in list order, and are joined with ", ".
//   - Reasons match by variant ([cupel.ExclusionReason.Variant]), never by
//     string. Lists of distinct reasons keep first-met order.
//   - Scores and thresholds are written as Go's shortest round-tripping
//     decimal (strconv 'g', -1): 0.92, 1, 0.3, NaN. The utilization of
//     HaveBudgetUtilizationAbove is written with six decimals, as the
//     chapter's {actual:.6f} asks.
//   - A nil report fails every pattern with "{Name} failed: the report is
//     nil." (the chapter's "unless SelectionReport was never produced").
//   - A nil predicate fails with "{Name} failed: the predicate is nil."
//   - Invalid arguments (an empty kind or reason, a negative n or token
//     count, a NaN or negative threshold) fail before the report is looked
//     at: "{Call} failed: invalid argument: {why}." A call renders kinds and
//     reasons bare, as the chapter's messages do, and quoted only when bare
//     would be unreadable.
//   - An entry whose Item is nil has no kind: it matches no kind argument
//     and does not appear in kind lists. Predicates still receive it.
package assertions
