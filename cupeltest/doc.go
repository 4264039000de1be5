// Package cupeltest lets application tests state what their context
// selection must do, in the 13 named assertion patterns of the Cupel.Testing
// vocabulary (spec chapter 45), over the [cupel.SelectionReport] of a run.
//
//	var report cupel.SelectionReport
//	if _, err := pipeline.Run(items, budget, cupel.WithReport(&report)); err != nil {
//		t.Fatal(err)
//	}
//	cupeltest.Should(t, &report).
//		IncludeItemWithKind(cupel.KindSystemPrompt).
//		HaveNoExclusionsForKind(cupel.KindSystemPrompt).
//		ExcludeItemWithReason(cupel.ExclusionBudgetExceeded).
//		PlaceItemAtEdge(func(in cupel.IncludedItem) bool { return in.Item.Pinned() })
//
// # Three entry points
//
// [Should] reports every failed assertion to a test through the two methods
// of [TB], which *testing.T, *testing.B and Ginkgo's GinkgoT() all have:
// Helper, so that the failure points at the caller's line, and Errorf with
// the pattern's message.
//
//   - Under plain testing, Errorf marks the test failed and returns, so the
//     chain goes on and every failed assertion of a chain is reported.
//   - Under Ginkgo, GinkgoT().Errorf calls Ginkgo's Fail, which records the
//     failure and panics to end the spec: the spec stops at the first failed
//     assertion of the chain, and the assertions after it do not run. (This
//     package's tests check it by running such a spec in a child process.)
//
// [Require] is Should that stops the test at the first failed assertion, as
// testify's require does: after reporting the failure it calls t.FailNow
// (see [FatalTB]), so the assertions after it, and the rest of the test, do
// not run.
//
// [Audit] is the entry point for code outside go test: it reports to no one,
// and [Chain.Err] returns what failed. All three return the same
// [Chain] type, and all record failures, so Err and [Chain.Failures] work
// on either.
//
// A passing assertion calls nothing on t and changes nothing on the chain.
// A Chain is not safe for concurrent use.
//
// # Failures
//
// Each failure is an [*AssertionError] carrying the pattern name and the
// message of chapter 45's template, filled with the values it names, e.g.
//
//	IncludeItemWithKind(Memory) failed: Included contained 0 items with Kind=Memory. Included had 3 items with kinds: [SystemPrompt, Message].
//
// errors.As finds it in the error Err returns.
//
// # Arguments
//
// Kinds are [cupel.ContextKind] and match with ASCII case folding, as
// everywhere in cupel. Reasons are [cupel.ExclusionVariant] and match the
// variant of the entry's reason, never its text; all variants are valid
// arguments, reserved ones included. Predicates follow the chapter per
// pattern: IncludeItemMatching and PlaceItemAtEdge take the whole
// [cupel.IncludedItem] (PD-1: item, score and reason), while
// ExcludeItemMatchingWithReason and ExcludeItemWithBudgetDetails take the
// *cupel.ContextItem, as their per-pattern specification and the chapter's
// type shape state ("the predicate is the which-item filter, the reason is
// the why filter").
//
// # Choices where the chapter leaves room
//
// Messages follow the chapter's templates word for word. Where it leaves a
// choice open, this package decides as follows.
//
//   - Numbers: scores and thresholds in Go's shortest round-tripping form
//     (0.92, 1, NaN); the utilization of HaveBudgetUtilizationAbove with six
//     decimals ({actual:.6f}).
//   - Lists ([{actualKinds}], [{reasonList}], ...) hold distinct values in
//     the order first met, joined with ", ", and are "[]" when empty.
//   - IncludeItemMatching appends, when Included is not empty, the summary
//     the chapter recommends: " Included items: [(kind=Message, score=0.9,
//     reason=Scored), ...]." listing at most five entries, written
//     " Included items (first 5 of 7): [...]." when there are more.
//   - ExcludeItemWithBudgetDetails, when no predicate-matching item has
//     reason BudgetExceeded, ends the chapter's "... but no matching item had
//     reason BudgetExceeded." with " The predicate matched 0 excluded
//     items." or " The predicate matched 2 excluded item(s) with reasons:
//     [Deduplicated]."; when several matching BudgetExceeded items exist and
//     none has the expected values, the first is reported.
//   - ExcludedItemsAreSortedByScoreDescending ranks NaN after every number
//     and -0 with +0, as the report does (ruling 6).
//   - HaveBudgetUtilizationAbove: a budget with MaxTokens = 0 has
//     utilization 0 (ruling 12).
//   - PlaceTopNScoredAtEdges checks membership, not order (ruling 25): it
//     holds when each of the first n edge positions (0, count-1, 1, count-2,
//     ...) holds an item scored at least the n-th highest score in
//     Included. Which of the top n sits at which edge is not checked, and an
//     item tied with the n-th score may take the n-th item's place; with
//     n = count it always holds. n = 0 passes; n > count fails with
//     "PlaceTopNScoredAtEdges(3) failed: Included had 2 items, fewer than
//     the 3 edge positions to check.". {failCount} is the number of those
//     edge positions holding an item scored below the n-th highest score;
//     the top-n items are listed by score, tied items at an edge position
//     first, then by index.
//   - Invalid arguments fail the assertion, whatever the report, with a
//     message saying so: an empty kind or reason, a negative n or token
//     count, a NaN or negative threshold ("HaveKindCoverageCount(-1)
//     failed: invalid argument: n must be >= 0 (got -1)."). A threshold
//     above 1 is valid, as the chapter says.
//   - A nil report fails every assertion ("IncludeItemWithKind failed: the
//     report is nil."), and a nil predicate fails its assertion ("... failed:
//     the predicate is nil.").
//
// # Checking your own Scorer, Slicer or Placer
//
// [TestScorer], [TestSlicer] and [TestPlacer] prove a component against the
// contract the pipeline relies on, as testing/fstest.TestFS does for a file
// system: determinism, no mutation of the input, safety for concurrent use,
// sane edge cases, and per component finite scores that do not depend on
// the items' order, a budget-fitting subset without duplicates (nothing at
// a target of 0), or a permutation. They also check that an optional
// fast path ([cupel.BatchScorer], [cupel.PositionSlicer],
// [cupel.PositionPlacer]) agrees with the per-item path. Inputs are
// generated from a seed ([WithSeed]), plus the items you pass
// ([WithItems]); the returned error joins one [*ContractViolation] per
// broken property, with the smallest input found that shows it:
//
//	func TestMyScorer(t *testing.T) {
//		if err := cupeltest.TestScorer(MyScorer{}, cupeltest.WithItems(myItems...)); err != nil {
//			t.Fatal(err)
//		}
//	}
//
// [RunScorerTests], [RunSlicerTests] and [RunPlacerTests] run the same
// checks as one subtest per property. Run them under go test -race: the
// ConcurrentUse check calls the component from several goroutines at once,
// so the race detector sees any data race it has.
//
// # Snapshots
//
// Package snapshot, beside this one, compares a report's canonical JSON
// with a golden file. It is a separate package because goldie, which backs
// it, registers command-line flags (-update, -clean, -template) in every
// test binary that imports it.
package cupeltest
