package assertions_test

import (
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/internal/assertions"
	"github.com/cupel-go/go-cupel/internal/testcases"
)

// eval replays a table call on the shared implementation.
func eval(r *cupel.SelectionReport, c testcases.Call) assertions.Outcome {
	return assertionOf(c).Eval(r)
}

// assertionOf binds a table call to its pattern.
func assertionOf(c testcases.Call) assertions.Assertion {
	switch c.Pattern {
	case "IncludeItemWithKind":
		return assertions.IncludeItemWithKind(c.Kind)
	case "IncludeItemMatching":
		return assertions.IncludeItemMatching(c.IncPred)
	case "IncludeExactlyNItemsWithKind":
		return assertions.IncludeExactlyNItemsWithKind(c.Kind, c.N)
	case "ExcludeItemWithReason":
		return assertions.ExcludeItemWithReason(c.Reason)
	case "ExcludeItemMatchingWithReason":
		return assertions.ExcludeItemMatchingWithReason(c.ItemPred, c.Reason)
	case "ExcludeItemWithBudgetDetails":
		return assertions.ExcludeItemWithBudgetDetails(c.ItemPred, c.ItemTok, c.AvailTok)
	case "HaveNoExclusionsForKind":
		return assertions.HaveNoExclusionsForKind(c.Kind)
	case "HaveAtLeastNExclusions":
		return assertions.HaveAtLeastNExclusions(c.N)
	case "ExcludedItemsAreSortedByScoreDescending":
		return assertions.ExcludedItemsAreSortedByScoreDescending()
	case "HaveBudgetUtilizationAbove":
		return assertions.HaveBudgetUtilizationAbove(c.Threshold, c.Budget)
	case "HaveKindCoverageCount":
		return assertions.HaveKindCoverageCount(c.N)
	case "PlaceItemAtEdge":
		return assertions.PlaceItemAtEdge(c.IncPred)
	case "PlaceTopNScoredAtEdges":
		return assertions.PlaceTopNScoredAtEdges(c.N)
	}
	panic("unknown pattern " + c.Pattern)
}

func TestTable(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range testcases.Cases() {
		t.Run(c.ID, func(t *testing.T) {
			if seen[c.ID] {
				t.Fatalf("duplicate case id %s", c.ID)
			}
			seen[c.ID] = true
			o := eval(c.Report(), c.Call)
			if o.Assertion != c.Call.Pattern {
				t.Errorf("Assertion = %q, want %q", o.Assertion, c.Call.Pattern)
			}
			if c.Pass() {
				if !o.Holds {
					t.Fatalf("want pass, got %q", o.Message)
				}
				if o.Message != "" {
					t.Errorf("a passing outcome has a message")
				}
				if o.Found == "" {
					t.Errorf("a passing outcome must say what it found")
				}
				return
			}
			if o.Holds {
				t.Fatalf("want failure %q, got pass (%s)", c.Want, o.Found)
			}
			if o.Message != c.Want {
				t.Errorf("message\n got: %s\nwant: %s", o.Message, c.Want)
			}
			if o.Found != "" {
				t.Errorf("a failing outcome has a Found")
			}
		})
	}
}

// Every pattern has at least one passing and one failing case, besides
// the nil report.
func TestTableCoversEveryPattern(t *testing.T) {
	passes, fails := map[string]int{}, map[string]int{}
	for _, c := range testcases.Cases() {
		if c.Pass() {
			passes[c.Call.Pattern]++
		} else if c.Report() != nil {
			fails[c.Call.Pattern]++
		}
	}
	for _, p := range testcases.Patterns {
		if passes[p] == 0 || fails[p] == 0 {
			t.Errorf("%s: %d passing and %d failing cases", p, passes[p], fails[p])
		}
	}
}

func TestEdgePositions(t *testing.T) {
	for _, tc := range []struct {
		n, count int
		want     []int
	}{{0, 3, []int{}}, {1, 1, []int{0}}, {2, 2, []int{0, 1}}, {4, 6, []int{0, 5, 1, 4}}, {5, 5, []int{0, 4, 1, 3, 2}}} {
		got := assertions.EdgePositions(tc.n, tc.count)
		if len(got) != len(tc.want) {
			t.Fatalf("EdgePositions(%d, %d) = %v, want %v", tc.n, tc.count, got, tc.want)
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Fatalf("EdgePositions(%d, %d) = %v, want %v", tc.n, tc.count, got, tc.want)
			}
		}
	}
}
