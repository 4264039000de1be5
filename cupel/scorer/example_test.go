package scorer_test

import (
	"fmt"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/scorer"
)

// Compose a scorer: 60% recency, 30% priority and 10% kind. Weights are
// relative; the composite normalizes them.
func ExampleNewComposite() {
	t0 := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	items := []*cupel.ContextItem{
		cupel.MustItem(cupel.ItemSpec{Content: "old note", Tokens: 50, Kind: cupel.KindMemory, Timestamp: cupel.Ptr(t0), Priority: cupel.Ptr(9)}),
		cupel.MustItem(cupel.ItemSpec{Content: "recent chat", Tokens: 20, Timestamp: cupel.Ptr(t0.Add(time.Hour)), Priority: cupel.Ptr(1)}),
		cupel.MustItem(cupel.ItemSpec{Content: "latest doc", Tokens: 300, Kind: cupel.KindDocument, Timestamp: cupel.Ptr(t0.Add(2 * time.Hour))}),
	}
	s, err := scorer.NewComposite(
		scorer.Weighted{Scorer: scorer.NewRecency(), Weight: 6},
		scorer.Weighted{Scorer: scorer.NewPriority(), Weight: 3},
		scorer.Weighted{Scorer: scorer.NewDefaultKind(), Weight: 1},
	)
	if err != nil {
		panic(err)
	}
	fmt.Println(s.NormalizedWeights())
	for _, it := range items {
		fmt.Printf("%-12s %.2f\n", it.Content(), s.Score(it, items))
	}
	// Output:
	// [0.6 0.3 0.1]
	// old note     0.38
	// recent chat  0.32
	// latest doc   0.64
}

// Spread a kind scorer's clustered weights over [0, 1], and combine it
// with a trust value callers store in the item metadata.
func ExampleNewScaled() {
	items := []*cupel.ContextItem{
		cupel.MustItem(cupel.ItemSpec{Content: "a", Tokens: 1, Kind: cupel.KindDocument, Metadata: map[string]any{scorer.MetadataKeyTrust: "0.9"}}),
		cupel.MustItem(cupel.ItemSpec{Content: "b", Tokens: 1, Kind: cupel.KindToolOutput, Metadata: map[string]any{scorer.MetadataKeyTrust: 0.2}}),
		cupel.MustItem(cupel.ItemSpec{Content: "c", Tokens: 1, Kind: cupel.KindMessage}),
	}
	scaled, err := scorer.NewScaled(scorer.NewDefaultKind()) // 0.4, 0.6, 0.2 -> 0.5, 1, 0
	if err != nil {
		panic(err)
	}
	trust, err := scorer.NewMetadataTrust(0.5) // 0.9, 0.2, default 0.5
	if err != nil {
		panic(err)
	}
	s, err := scorer.NewComposite(
		scorer.Weighted{Scorer: scaled, Weight: 1},
		scorer.Weighted{Scorer: trust, Weight: 1},
	)
	if err != nil {
		panic(err)
	}
	for _, it := range items {
		fmt.Printf("%s %.2f\n", it.Content(), s.Score(it, items))
	}
	// Output:
	// a 0.70
	// b 0.60
	// c 0.25
}

// Decay scores by age against an injected clock: pass scorer.SystemClock()
// in production and a fixed clock in tests.
func ExampleNewDecay() {
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	clock := scorer.ClockFunc(func() time.Time { return now })
	halfDay, err := scorer.NewExponentialCurve(12 * time.Hour)
	if err != nil {
		panic(err)
	}
	s, err := scorer.NewDecay(clock, halfDay, scorer.WithNullTimestampScore(0.25))
	if err != nil {
		panic(err)
	}
	for _, age := range []time.Duration{0, 12 * time.Hour, 36 * time.Hour, -time.Hour} {
		it := cupel.MustItem(cupel.ItemSpec{Content: "x", Tokens: 1, Timestamp: cupel.Ptr(now.Add(-age))})
		fmt.Printf("age %-8v %.3f\n", age, s.Score(it, nil))
	}
	fmt.Println("no timestamp", s.Score(cupel.MustItem(cupel.ItemSpec{Content: "x", Tokens: 1}), nil))
	// Output:
	// age 0s       1.000
	// age 12h0m0s  0.500
	// age 36h0m0s  0.125
	// age -1h0m0s  1.000
	// no timestamp 0.25
}

// A step curve scores age windows; an age on a boundary falls in the older window.
func ExampleNewStepCurve() {
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	curve, err := scorer.NewStepCurve(
		scorer.StepWindow{MaxAge: time.Hour, Score: 0.9},
		scorer.StepWindow{MaxAge: 24 * time.Hour, Score: 0.5},
		scorer.StepWindow{MaxAge: 72 * time.Hour, Score: 0.1},
	)
	if err != nil {
		panic(err)
	}
	s, err := scorer.NewDecay(scorer.ClockFunc(func() time.Time { return now }), curve)
	if err != nil {
		panic(err)
	}
	for _, h := range []int{0, 1, 6, 24, 72} {
		it := cupel.MustItem(cupel.ItemSpec{Content: "x", Tokens: 1, Timestamp: cupel.Ptr(now.Add(-time.Duration(h) * time.Hour))})
		fmt.Printf("%dh %.1f\n", h, s.Score(it, nil))
	}
	// Output:
	// 0h 0.9
	// 1h 0.5
	// 6h 0.5
	// 24h 0.1
	// 72h 0.1
}

// MetadataKey returns a multiplier: boost on a match, 1.0 otherwise.
func ExampleNewMetadataKey() {
	boost, err := scorer.NewMetadataKey("cupel:priority", "high", 1.5)
	if err != nil {
		panic(err)
	}
	high := cupel.MustItem(cupel.ItemSpec{Content: "x", Tokens: 1, Metadata: map[string]any{"cupel:priority": "high"}})
	normal := cupel.MustItem(cupel.ItemSpec{Content: "y", Tokens: 1, Metadata: map[string]any{"cupel:priority": "normal"}})
	fmt.Println(boost.Score(high, nil), boost.Score(normal, nil))
	// Output: 1.5 1
}

// Frequency rewards items that share tags with many peers; tags
// compare with ASCII case folding.
func ExampleNewFrequency() {
	items := []*cupel.ContextItem{
		cupel.MustItem(cupel.ItemSpec{Content: "a", Tokens: 1, Tags: []string{"Billing", "refund"}}),
		cupel.MustItem(cupel.ItemSpec{Content: "b", Tokens: 1, Tags: []string{"billing"}}),
		cupel.MustItem(cupel.ItemSpec{Content: "c", Tokens: 1, Tags: []string{"REFUND"}}),
		cupel.MustItem(cupel.ItemSpec{Content: "d", Tokens: 1, Tags: []string{"shipping"}}),
	}
	f := scorer.NewFrequency()
	for _, it := range items {
		fmt.Printf("%s %.3f\n", it.Content(), f.Score(it, items))
	}
	// Output:
	// a 0.667
	// b 0.333
	// c 0.333
	// d 0.000
}
