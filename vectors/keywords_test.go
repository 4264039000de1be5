package vectors_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/runner/requirement"
)

// keywords is an independent count of the RFC 2119 keywords in each
// chapter of spec 1.3 (MUST, MUST NOT, SHOULD, SHOULD NOT, MAY; RECOMMENDED
// counted as SHOULD), made over the chapters' text with
//
//	grep -oP '\bMUST\b(?! NOT)' F | wc -l      # and 'MUST NOT',
//	grep -oP '\bSHOULD\b(?! NOT)' F | wc -l    # 'SHOULD NOT', '\bMAY\b',
//	grep -oP '\bRECOMMENDED\b' F | wc -l       # added to SHOULD
//
// Chapters without a keyword are absent. The catalogue holds one entry per
// occurrence, so its counts by chapter and kind must equal these.
var keywords = map[int][5]int{
	0: {1, 1, 0, 0, 0}, 2: {3, 3, 1, 0, 0}, 3: {1, 1, 0, 0, 0}, 4: {6, 0, 1, 0, 0},
	6: {1, 0, 0, 0, 0}, 7: {3, 0, 0, 0, 0}, 8: {3, 0, 0, 0, 0}, 9: {3, 0, 0, 0, 0},
	10: {3, 0, 0, 0, 0}, 11: {1, 0, 0, 0, 0}, 12: {1, 0, 0, 0, 0}, 13: {2, 1, 0, 0, 0},
	16: {6, 0, 0, 0, 1}, 17: {2, 0, 0, 0, 0}, 18: {2, 0, 0, 0, 0}, 19: {2, 0, 0, 0, 0},
	20: {5, 0, 0, 0, 0}, 21: {1, 0, 0, 0, 1}, 22: {12, 2, 2, 0, 2}, 23: {9, 2, 1, 0, 0},
	24: {6, 4, 2, 0, 1}, 25: {2, 1, 0, 1, 1}, 26: {3, 2, 0, 0, 0}, 27: {2, 0, 2, 0, 1},
	28: {2, 1, 0, 0, 0}, 29: {6, 0, 0, 0, 0}, 30: {4, 1, 0, 0, 0}, 31: {2, 1, 0, 0, 0},
	32: {3, 1, 0, 0, 0}, 33: {1, 0, 0, 0, 0}, 35: {5, 1, 0, 0, 1}, 36: {6, 1, 0, 0, 0},
	37: {5, 1, 0, 0, 0}, 38: {6, 0, 0, 0, 0}, 39: {4, 2, 0, 0, 0}, 40: {6, 1, 0, 0, 0},
	41: {3, 0, 0, 0, 0}, 42: {1, 0, 1, 0, 1}, 43: {0, 0, 1, 0, 0}, 44: {1, 0, 0, 0, 0},
	45: {0, 0, 1, 0, 5},
}

var keywordKinds = [5]requirement.Kind{requirement.Must, requirement.MustNot,
	requirement.Should, requirement.ShouldNot, requirement.May}

var _ = Describe("the requirements catalogue", func() {
	It("holds one entry per RFC 2119 keyword of each chapter, and no more", func() {
		cat, err := requirement.Embedded()
		Expect(err).NotTo(HaveOccurred())
		got := map[int][5]int{}
		for _, r := range cat.All() {
			for i, k := range keywordKinds {
				if r.Kind == k {
					n := got[r.Chapter]
					n[i]++
					got[r.Chapter] = n
				}
			}
		}
		Expect(got).To(Equal(keywords))
		total := [5]int{}
		for _, n := range keywords {
			for i := range n {
				total[i] += n[i]
			}
		}
		// The figures (135 MUST, 27 MUST NOT, 10 SHOULD, 1 SHOULD
		// NOT, 14 MAY), with the two RECOMMENDED as SHOULD.
		Expect(total).To(Equal([5]int{135, 27, 12, 1, 14}))
	})
})
