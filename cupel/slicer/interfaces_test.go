package slicer_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

var _ = Describe("the optional interfaces of cupel each slicer implements (the package documentation's table)", func() {
	It("are those the table lists", func() {
		qs, err := slicer.NewQuota(slicer.QuotaSet{}, slicer.NewGreedy())
		Expect(err).NotTo(HaveOccurred())
		cq, err := slicer.NewCountQuota(nil, slicer.NewGreedy(), slicer.ScarcityDegrade)
		Expect(err).NotTo(HaveOccurred())
		cck, err := slicer.NewCountConstrainedKnapsack(nil, slKnapsack(100), slicer.ScarcityDegrade)
		Expect(err).NotTo(HaveOccurred())
		st, err := slicer.NewStream(8)
		Expect(err).NotTo(HaveOccurred())
		implements := func(s cupel.Slicer) []string {
			var out []string
			if _, ok := s.(cupel.DetailedSlicer); ok {
				out = append(out, "Detailed")
			}
			if _, ok := s.(cupel.PositionSlicer); ok {
				out = append(out, "Position")
			}
			if _, ok := s.(cupel.ContextSlicer); ok {
				out = append(out, "Context")
			}
			if _, ok := s.(cupel.ContextPositionSlicer); ok {
				out = append(out, "ContextPosition")
			}
			if _, ok := s.(cupel.UnsortedSlicer); ok {
				out = append(out, "Unsorted")
			}
			if w, ok := s.(cupel.WholeSetSlicer); ok && w.NeedsWholeSet() {
				out = append(out, "WholeSet")
			}
			return out
		}
		Expect(implements(slicer.NewGreedy())).To(Equal([]string{"Position", "Context", "Unsorted"}))
		Expect(implements(slKnapsack(100))).To(Equal([]string{"Position", "Context", "ContextPosition"}))
		Expect(implements(qs)).To(Equal([]string{"Context", "WholeSet"}))
		Expect(implements(cq)).To(Equal([]string{"Detailed", "Context", "WholeSet"}))
		Expect(implements(cck)).To(Equal([]string{"Detailed", "Context", "WholeSet"}))
		Expect(implements(st)).To(Equal([]string{"Context"}))
	})
})
