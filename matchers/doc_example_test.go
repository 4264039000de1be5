package matchers_test

import (
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/matchers"
)

// The package documentation's example (compiled, not run: report is the
// SelectionReport of a run, in a Ginkgo spec).
func Example_spec() {
	var report *cupel.SelectionReport
	Expect(report).To(matchers.IncludeItemWithKind(cupel.KindSystemPrompt))
	Expect(report).NotTo(matchers.HaveNoExclusionsForKind(cupel.KindMemory))
	Expect(report).To(And(
		matchers.HaveKindCoverageCount(3),
		matchers.PlaceTopNScoredAtEdges(2),
	))
}
