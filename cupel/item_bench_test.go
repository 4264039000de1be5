package cupel_test

import (
	"strconv"
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
)

// BenchmarkNewItems measures building N items of configuration A and C's
// generator (benchSpecs) with NewItem: the cost an application pays when
// it builds its candidates anew for every call, beside the pipeline's own
// (BenchmarkPipeline, whose items are built once).
func BenchmarkNewItems(b *testing.B) {
	for _, n := range []int{100, 1000} {
		specs := benchSpecs(n)
		b.Run("N="+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, s := range specs {
					if _, err := cupel.NewItem(s); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
