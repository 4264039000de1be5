// Package assertions implements, once, the 13 assertion patterns of the
// Cupel.Testing vocabulary (spec chapter 45) over a [cupel.SelectionReport].
//
// Both front ends of the testing toolkit use it: the cupeltest chain
// (Should / Check) and the Gomega matchers of package matchers. Each pattern
// is a function returning an [Outcome]: whether the assertion holds, the
// chapter's failure message when it does not, and, when it does, a
// description of what was found (the matchers' negated failure message
// needs it). Computing both in one function keeps the
// semantics in a single place.
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
//   - An entry whose Item is nil has no kind: it matches no kind argument
//     and does not appear in kind lists. Predicates still receive it.
package assertions
