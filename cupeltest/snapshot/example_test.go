package snapshot_test

import (
	"fmt"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupeltest/snapshot"
)

func ExampleCanonical() {
	turn := cupel.MustItem(cupel.ItemSpec{Content: "user: hello", Tokens: 3})
	report := &cupel.SelectionReport{
		Events:                []cupel.TraceEvent{{Stage: cupel.StagePlace, DurationMs: 0.42, ItemCount: 1}},
		Included:              []cupel.IncludedItem{{Item: turn, Score: 0.5, Reason: cupel.InclusionScored}},
		TotalCandidates:       1,
		TotalTokensConsidered: 3,
	}
	b, _ := snapshot.Canonical(report)
	fmt.Print(string(b))
	// Output:
	// {
	//   "events": [
	//     {
	//       "stage": "Place",
	//       "duration_ms": 0,
	//       "item_count": 1
	//     }
	//   ],
	//   "included": [
	//     {
	//       "item": {
	//         "content": "user: hello",
	//         "tokens": 3,
	//         "kind": "Message",
	//         "source": "Chat"
	//       },
	//       "score": 0.5,
	//       "reason": {
	//         "reason": "Scored"
	//       }
	//     }
	//   ],
	//   "excluded": [],
	//   "total_candidates": 1,
	//   "total_tokens_considered": 3
	// }
}

// In a test, Match compares with testdata/golden/<name>.golden:
//
//	func TestAgentTurn(t *testing.T) {
//		var report cupel.SelectionReport
//		if _, err := pipeline.Run(items, budget, cupel.WithReport(&report)); err != nil {
//			t.Fatal(err)
//		}
//		snapshot.Match(t, "agent_turn", &report)
//	}
//
// and GOLDIE_UPDATE=1 go test ./... writes the file.
func ExampleMatch() {
	fmt.Println(snapshot.Path("agent_turn"))
	// Output: testdata/golden/agent_turn.golden
}
