package policy_test

import (
	"fmt"
	"log"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/policy"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

func ExampleDecode() {
	// The keys are a conformance vector's [config]: two scorers make a
	// composite with these weights; the slicer's keys sit beside its name.
	src := []byte(`
slicer = "knapsack"
bucket_size = 50
placer = "chronological"

[[scorers]]
type = "recency"
weight = 3.0

[[scorers]]
type = "decay"
weight = 1.0
curve = { type = "window", max_age_secs = 7200 }
`)
	spec, err := policy.Decode("policy.toml", src)
	if err != nil {
		log.Fatal(err)
	}
	clock := scorer.ClockFunc(func() time.Time { return time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC) })
	p, err := spec.Build(policy.WithClock(clock))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%T %T %T\n", p.Scorer, p.Slicer, p.Placer)
	_, err = policy.Decode("broken.json", []byte(`{"scorers":[{"type":"recency","weight":-1},{"type":"kind","weight":1}],"slicer":"greedy","placer":"chronological"}`))
	fmt.Println(err)
	// Output:
	// *scorer.Composite *slicer.Knapsack *placer.Chronological
	// broken.json: cupel: invalid configuration: policy.Spec: scorers[0].weight: weight must be positive (got -1)
}

func ExamplePreset() {
	spec, err := policy.Preset("rag")
	if err != nil {
		log.Fatal(err)
	}
	for _, sc := range spec.Scorers {
		fmt.Println(sc.Type, *sc.Weight)
	}
	p, err := spec.Build()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%T %T\n", p.Slicer, p.Placer)
	fmt.Println(policy.PresetNames())
	// Output:
	// reflexive 3
	// kind 1
	// *slicer.Greedy *placer.UShaped
	// [chat code-review rag document-qa tool-use long-running debugging]
}

func ExampleOf() {
	kind, err := scorer.NewKind(map[cupel.ContextKind]float64{cupel.KindToolOutput: 2})
	if err != nil {
		log.Fatal(err)
	}
	spec, err := policy.Of(cupel.Policy{Scorer: kind, Slicer: slicer.NewGreedy(), Placer: placer.NewUShaped()})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(spec.Scorers[0].Type, spec.Scorers[0].Weights, spec.Slicer, spec.Placer)
	// Output: kind [{ToolOutput 2}] greedy u-shaped
}
