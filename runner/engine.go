package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
)

// This file is the only one that knows the engine's API: a change of the
// cupel package's API touches it alone.

// engine is go-cupel behind the Implementation interface.
type engine struct{}

// Engine returns go-cupel (package github.com/cupel-go/go-cupel/cupel) as
// an in-process Implementation. `cupel-conform run` uses it by default and
// `cupel-conform adapter` serves it over the protocol.
func Engine() Implementation { return engine{} }

var engineScorers = []string{"recency", "priority", "kind", "tag", "frequency", "reflexive", "composite", "scaled", "decay", "metadata_trust", "metadata_key"}
var engineSlicers = []string{"greedy", "knapsack", "quota", "count_quota", "count_constrained_knapsack"}

// Hello identifies go-cupel.
func (engine) Hello(context.Context) (Info, error) {
	return Info{Name: "go-cupel", Version: Version, Language: "go", Homepage: "https://github.com/cupel-go/go-cupel",
		Capabilities: Capabilities{Stages: Stages, Scorers: engineScorers, Slicers: engineSlicers,
			Placers: []string{"chronological", "u-shaped"}, Features: []string{"diagnostics", "overflow", "shortfalls"}}}, nil
}

// unsupportedError marks configurations the adapter does not know.
type unsupportedError struct{ what string }

// Error implements error.
func (e unsupportedError) Error() string { return e.what }

// Run runs one case with the engine.
func (engine) Run(_ context.Context, req Request) (Result, error) {
	var out *Output
	var err error
	switch req.Stage {
	case StageScoring:
		out, err = engineScore(req.Case)
	case StageSlicing:
		out, err = engineSlice(req.Case)
	case StagePlacing:
		out, err = enginePlace(req.Case)
	case StagePipeline:
		out, err = enginePipeline(req.Case)
	default:
		return Result{Status: ResultUnsupported, Reason: "unknown stage " + req.Stage}, nil
	}
	if err != nil {
		return engineError(err), nil
	}
	return Result{Status: ResultOK, Output: out}, nil
}

// engineError maps an engine error to a rejected (or error) result.
func engineError(err error) Result {
	var u unsupportedError
	if errors.As(err, &u) {
		return Result{Status: ResultUnsupported, Reason: u.what}
	}
	kinds := []struct {
		sentinel error
		kind     string
	}{
		{cupel.ErrPinnedExceedsBudget, KindPinnedExceedsBudget},
		{cupel.ErrOverflow, KindOverflow},
		{cupel.ErrCountRequirementUnmet, KindCountRequirementUnmet},
		{cupel.ErrTableTooLarge, KindTableTooLarge},
		{cupel.ErrInvalidBudget, KindInvalidBudget},
		{cupel.ErrInvalidConfig, KindInvalidConfig},
		{cupel.ErrInvalidItem, KindInvalidItem},
		{cupel.ErrTokenOverflow, KindInvalidItem},
	}
	for _, k := range kinds {
		if errors.Is(err, k.sentinel) {
			return Result{Status: ResultRejected, Error: &ErrorInfo{Kind: k.kind, Message: err.Error()}}
		}
	}
	return Result{Status: ResultError, Error: &ErrorInfo{Kind: "internal", Message: err.Error()}}
}

func engineItems(in []Item) ([]*cupel.ContextItem, error) {
	items := make([]*cupel.ContextItem, len(in))
	for i, it := range in {
		spec := cupel.ItemSpec{
			Content: it.Content, Tokens: int(it.Tokens),
			Kind: cupel.ContextKind(it.Kind), Source: cupel.ContextSource(it.Source),
			Tags: it.Tags, Metadata: it.Metadata, Timestamp: it.Timestamp, Pinned: it.Pinned,
		}
		if it.Priority != nil {
			p := int(*it.Priority)
			spec.Priority = &p
		}
		if it.FutureRelevanceHint != nil {
			h := float64(*it.FutureRelevanceHint)
			spec.FutureRelevanceHint = &h
		}
		item, err := cupel.NewItem(spec)
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
		items[i] = item
	}
	return items, nil
}

func engineScored(in []Item, items []*cupel.ContextItem) []cupel.ScoredItem {
	scored := make([]cupel.ScoredItem, len(items))
	for i, it := range items {
		var s float64
		if in[i].Score != nil {
			s = float64(*in[i].Score)
		}
		scored[i] = cupel.ScoredItem{Item: it, Score: s}
	}
	return scored
}

// indexer maps items back to their input positions.
type indexer map[*cupel.ContextItem]int

func newIndexer(items []*cupel.ContextItem) indexer {
	ix := make(indexer, len(items))
	for i, it := range items {
		ix[it] = i
	}
	return ix
}

func (ix indexer) of(list []*cupel.ContextItem) ([]int, error) {
	out := make([]int, 0, len(list))
	for _, it := range list {
		i, ok := ix[it]
		if !ok {
			return nil, errors.New("engine returned an item that is not one of its inputs")
		}
		out = append(out, i)
	}
	return out, nil
}

func engineBudget(b *Budget) (cupel.ContextBudget, error) {
	if b == nil {
		return cupel.ContextBudget{}, fmt.Errorf("%w: no budget", cupel.ErrInvalidBudget)
	}
	spec := cupel.BudgetSpec{MaxTokens: int(b.MaxTokens), TargetTokens: int(b.TargetTokens), OutputReserve: int(b.OutputReserve),
		EstimationSafetyMarginPercent: float64(b.EstimationSafetyMarginPercent)}
	if len(b.ReservedSlots) > 0 {
		spec.ReservedSlots = map[cupel.ContextKind]int{}
		for k, v := range b.ReservedSlots {
			spec.ReservedSlots[cupel.ContextKind(k)] = int(v)
		}
	}
	return cupel.NewBudget(spec)
}

func invalidConfig(format string, args ...any) error {
	return fmt.Errorf("%w: %s", cupel.ErrInvalidConfig, fmt.Sprintf(format, args...))
}

func seconds(name string, f *Float) (time.Duration, error) {
	if f == nil {
		return 0, nil
	}
	v := float64(*f)
	if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > float64(math.MaxInt64)/1e9 {
		return 0, invalidConfig("%s = %v is not a representable duration", name, v)
	}
	return time.Duration(math.Round(v * 1e9)), nil
}

func engineScorer(sc *ScorerConfig) (cupel.Scorer, error) {
	if sc == nil {
		return nil, invalidConfig("no scorer")
	}
	switch sc.Type {
	case "recency":
		return cupel.NewRecencyScorer(), nil
	case "priority":
		return cupel.NewPriorityScorer(), nil
	case "frequency":
		return cupel.NewFrequencyScorer(), nil
	case "reflexive":
		return cupel.NewReflexiveScorer(), nil
	case "kind":
		if sc.UseDefaultWeights {
			return cupel.NewDefaultKindScorer(), nil
		}
		w := map[cupel.ContextKind]float64{}
		for _, kw := range sc.Weights {
			w[cupel.ContextKind(kw.Kind)] = float64(kw.Weight)
		}
		return cupel.NewKindScorer(w)
	case "tag":
		w := map[string]float64{}
		for _, tw := range sc.TagWeights {
			w[tw.Tag] = float64(tw.Weight)
		}
		return cupel.NewTagScorer(w)
	case "composite":
		entries := make([]cupel.WeightedScorer, 0, len(sc.Children))
		for i := range sc.Children {
			child, err := engineScorer(&sc.Children[i].Scorer)
			if err != nil {
				return nil, fmt.Errorf("composite child %d: %w", i, err)
			}
			entries = append(entries, cupel.WeightedScorer{Scorer: child, Weight: float64(sc.Children[i].Weight)})
		}
		return cupel.NewCompositeScorer(entries...)
	case "scaled":
		if sc.Inner == nil {
			return nil, invalidConfig("scaled scorer without an inner scorer")
		}
		inner, err := engineScorer(sc.Inner)
		if err != nil {
			return nil, fmt.Errorf("scaled inner: %w", err)
		}
		return cupel.NewScaledScorer(inner)
	case "decay":
		if sc.ReferenceTime == nil {
			return nil, invalidConfig("decay scorer without reference_time")
		}
		if sc.Curve == nil {
			return nil, invalidConfig("decay scorer without a curve")
		}
		curve, err := engineCurve(sc.Curve)
		if err != nil {
			return nil, err
		}
		now := *sc.ReferenceTime
		var opts []cupel.DecayOption
		if sc.NullTimestampScore != nil {
			opts = append(opts, cupel.WithNullTimestampScore(float64(*sc.NullTimestampScore)))
		}
		return cupel.NewDecayScorer(cupel.ClockFunc(func() time.Time { return now }), curve, opts...)
	case "metadata_trust":
		d := 0.5
		if sc.DefaultScore != nil {
			d = float64(*sc.DefaultScore)
		}
		return cupel.NewMetadataTrustScorer(d)
	case "metadata_key":
		var key, value string
		var boost float64
		if sc.Key != nil {
			key = *sc.Key
		}
		if sc.Value != nil {
			value = *sc.Value
		}
		if sc.Boost != nil {
			boost = float64(*sc.Boost)
		}
		return cupel.NewMetadataKeyScorer(key, value, boost)
	}
	return nil, unsupportedError{"unknown scorer " + sc.Type}
}

func engineCurve(c *DecayCurve) (cupel.DecayCurve, error) {
	switch c.Type {
	case "exponential":
		d, err := seconds("half_life_secs", c.HalfLifeSecs)
		if err != nil {
			return cupel.DecayCurve{}, err
		}
		return cupel.NewExponentialCurve(d)
	case "window":
		d, err := seconds("max_age_secs", c.MaxAgeSecs)
		if err != nil {
			return cupel.DecayCurve{}, err
		}
		return cupel.NewWindowCurve(d)
	case "step":
		windows := make([]cupel.StepWindow, 0, len(c.Windows))
		for i, w := range c.Windows {
			d, err := seconds(fmt.Sprintf("windows[%d].max_age_secs", i), &w.MaxAgeSecs)
			if err != nil {
				return cupel.DecayCurve{}, err
			}
			windows = append(windows, cupel.StepWindow{MaxAge: d, Score: float64(w.Score)})
		}
		return cupel.NewStepCurve(windows...)
	}
	return cupel.DecayCurve{}, invalidConfig("unknown decay curve %q", c.Type)
}

func engineSlicer(sc *SlicerConfig) (cupel.Slicer, error) {
	if sc == nil {
		return nil, invalidConfig("no slicer")
	}
	bucket := 100
	if sc.BucketSize != nil {
		bucket = int(*sc.BucketSize)
	}
	entries := func() ([]cupel.CountQuotaEntry, cupel.ScarcityBehavior, error) {
		out := make([]cupel.CountQuotaEntry, 0, len(sc.Entries))
		for _, e := range sc.Entries {
			entry, err := cupel.NewCountQuotaEntry(cupel.ContextKind(e.Kind), int(e.RequireCount), int(e.CapCount))
			if err != nil {
				return nil, 0, err
			}
			out = append(out, entry)
		}
		scarcity, err := cupel.ParseScarcityBehavior(sc.ScarcityBehavior)
		return out, scarcity, err
	}
	switch sc.Type {
	case "greedy":
		return cupel.NewGreedySlice(), nil
	case "knapsack":
		return cupel.NewKnapsackSlice(bucket)
	case "quota":
		inner, err := engineSlicer(sc.Inner)
		if err != nil {
			return nil, err
		}
		qs := make([]cupel.QuotaEntry, 0, len(sc.Quotas))
		for _, q := range sc.Quotas {
			qs = append(qs, cupel.RequireCap(cupel.ContextKind(q.Kind), float64(q.Require), float64(q.Cap)))
		}
		set, err := cupel.NewQuotaSet(qs...)
		if err != nil {
			return nil, err
		}
		return cupel.NewQuotaSlice(set, inner)
	case "count_quota":
		inner, err := engineSlicer(sc.Inner)
		if err != nil {
			return nil, err
		}
		es, scarcity, err := entries()
		if err != nil {
			return nil, err
		}
		return cupel.NewCountQuotaSlice(es, inner, scarcity)
	case "count_constrained_knapsack":
		ks, err := cupel.NewKnapsackSlice(bucket)
		if err != nil {
			return nil, err
		}
		es, scarcity, err := entries()
		if err != nil {
			return nil, err
		}
		return cupel.NewCountConstrainedKnapsackSlice(es, ks, scarcity)
	}
	return nil, unsupportedError{"unknown slicer " + sc.Type}
}

func enginePlacer(name string) (cupel.Placer, error) {
	switch name {
	case "chronological":
		return cupel.NewChronologicalPlacer(), nil
	case "u-shaped":
		return cupel.NewUShapedPlacer(), nil
	}
	return nil, unsupportedError{"unknown placer " + name}
}

func engineScore(in Input) (*Output, error) {
	scorer, err := engineScorer(in.Scorer)
	if err != nil {
		return nil, err
	}
	items, err := engineItems(in.Items)
	if err != nil {
		return nil, err
	}
	out := &Output{Scores: make([]IndexScore, len(items))}
	for i, it := range items {
		out.Scores[i] = IndexScore{Index: i, Score: Float(scorer.Score(it, items))}
	}
	return out, nil
}

func engineSlice(in Input) (*Output, error) {
	slicer, err := engineSlicer(in.Slicer)
	if err != nil {
		return nil, err
	}
	budget, err := engineBudget(in.Budget)
	if err != nil {
		return nil, err
	}
	items, err := engineItems(in.Items)
	if err != nil {
		return nil, err
	}
	scored := engineScored(in.Items, items)
	out := &Output{}
	var selected []*cupel.ContextItem
	if ds, ok := slicer.(cupel.DetailedSlicer); ok {
		res, err := ds.SliceDetailed(scored, budget)
		if err != nil {
			return nil, err
		}
		selected = res.Selected
		n := len(res.CapExcluded)
		out.CapExcludedCount = &n
		out.Shortfalls = engineShortfalls(res.Shortfalls)
	} else if selected, err = slicer.Slice(scored, budget); err != nil {
		return nil, err
	}
	if out.Selected, err = newIndexer(items).of(selected); err != nil {
		return nil, err
	}
	return out, nil
}

func engineShortfalls(s []cupel.CountRequirementShortfall) []Shortfall {
	var out []Shortfall
	for _, x := range s {
		out = append(out, Shortfall{Kind: string(x.Kind), RequiredCount: int64(x.RequiredCount), SatisfiedCount: int64(x.SatisfiedCount)})
	}
	return out
}

func enginePlace(in Input) (*Output, error) {
	placer, err := enginePlacer(in.Placer)
	if err != nil {
		return nil, err
	}
	items, err := engineItems(in.Items)
	if err != nil {
		return nil, err
	}
	placed := placer.Place(engineScored(in.Items, items))
	ordered, err := newIndexer(items).of(placed)
	if err != nil {
		return nil, err
	}
	return &Output{Ordered: ordered}, nil
}

func enginePipeline(in Input) (*Output, error) {
	scorer, err := engineScorer(in.Scorer)
	if err != nil {
		return nil, err
	}
	slicer, err := engineSlicer(in.Slicer)
	if err != nil {
		return nil, err
	}
	placer, err := enginePlacer(in.Placer)
	if err != nil {
		return nil, err
	}
	overflow, err := cupel.ParseOverflowStrategy(in.OverflowStrategy)
	if err != nil {
		return nil, err
	}
	policy := cupel.Policy{Scorer: scorer, Slicer: slicer, Placer: placer, Overflow: overflow,
		DisableDeduplication: in.Deduplication != nil && !*in.Deduplication}
	p, err := cupel.NewPipeline(policy)
	if err != nil {
		return nil, err
	}
	budget, err := engineBudget(in.Budget)
	if err != nil {
		return nil, err
	}
	items, err := engineItems(in.Items)
	if err != nil {
		return nil, err
	}
	trace := cupel.NewDiagnosticTraceCollector(cupel.DetailItem, nil)
	var event *cupel.OverflowEvent
	res, err := p.RunWithOptions(items, budget, cupel.RunOptions{Trace: trace, OnOverflow: func(e cupel.OverflowEvent) { event = &e }})
	if err != nil {
		return nil, err
	}
	ix := newIndexer(items)
	out := &Output{Shortfalls: engineShortfalls(res.Shortfalls)}
	if out.Ordered, err = ix.of(res.Items); err != nil {
		return nil, err
	}
	if event == nil {
		event = res.Overflow
	}
	if event != nil {
		out.Overflow = &Overflow{TokensOverBudget: int64(event.TokensOverBudget)}
	}
	rep := trace.Report()
	d := &Diagnostics{Included: []ReportEntry{}, Excluded: []ReportEntry{},
		TotalCandidates: int64(rep.TotalCandidates), TotalTokensConsidered: int64(rep.TotalTokensConsidered),
		Shortfalls: engineShortfalls(rep.CountRequirementShortfalls)}
	for _, inc := range rep.Included {
		i, ok := ix[inc.Item]
		if !ok {
			return nil, errors.New("report names an item that is not an input")
		}
		d.Included = append(d.Included, ReportEntry{Index: i, Score: Float(inc.Score), Reason: map[string]any{"reason": string(inc.Reason)}})
	}
	for _, exc := range rep.Excluded {
		i, ok := ix[exc.Item]
		if !ok {
			return nil, errors.New("report names an item that is not an input")
		}
		b, err := json.Marshal(exc.Reason)
		if err != nil {
			return nil, err
		}
		reason := map[string]any{}
		if err := json.Unmarshal(b, &reason); err != nil {
			return nil, err
		}
		d.Excluded = append(d.Excluded, ReportEntry{Index: i, Score: Float(exc.Score), Reason: reason})
	}
	out.Diagnostics = d
	return out, nil
}
