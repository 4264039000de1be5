package cupel_test

import (
	"strconv"
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
)

// BenchmarkPlacerPipeline runs the pipeline configurations A (UShapedPlacer),
// B and C (ChronologicalPlacer) with the built-in placer ("fast": the
// position fast path) and with the same placer reduced to its Place method
// ("spec", through placeOnly of fastpath_test.go), in the same run.
func BenchmarkPlacerPipeline(b *testing.B) {
	cfgs := benchConfigs(b)
	for _, name := range []string{"A", "B", "C"} {
		for _, n := range benchSizes {
			items := benchItems(n)
			for _, path := range []string{"spec", "fast"} {
				b.Run(name+"/N="+strconv.Itoa(n)+"/"+path, func(b *testing.B) {
					policy, budget, _ := cfgs[name]()
					if path == "spec" {
						policy.Placer = placeOnly{policy.Placer}
					}
					p, err := cupel.NewPipeline(policy)
					if err != nil {
						b.Fatal(err)
					}
					b.ReportAllocs()
					for b.Loop() {
						if _, err := p.Run(items, budget); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}
