package runner

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/policy"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// This file is the only one that knows the engine's API: a change of the
// cupel package's API touches it alone.

// engine is go-cupel behind the Implementation interface.
type engine struct{}

// Engine returns go-cupel (package github.com/cupel-go/go-cupel/cupel) as
// an in-process Implementation. `cupel-conform run` uses it by default and
// `cupel-conform adapter` serves it over the protocol.
func Engine() Implementation { return engine{} }

// Fork implements [protocol.Forker]: the engine keeps no state between cases.
func (engine) Fork() Implementation { return engine{} }

// Hello identifies go-cupel.
func (engine) Hello(context.Context) (protocol.Identity, error) {
	return protocol.Identity{Name: "go-cupel", Version: protocol.Version, Language: "go", Homepage: "https://github.com/cupel-go/go-cupel",
		Capabilities: protocol.Capabilities{Stages: casefile.Stages, Scorers: policy.ScorerTypes(), Slicers: policy.SlicerTypes(),
			Placers: policy.PlacerTypes(), Features: []string{"diagnostics", "overflow", "shortfalls"}}}, nil
}

// unsupportedError marks configurations the adapter does not know.
type unsupportedError struct{ what string }

// Error implements error.
func (e unsupportedError) Error() string { return e.what }

// Run runs one case with the engine.
func (engine) Run(_ context.Context, req protocol.Request) (protocol.Result, error) {
	var out *protocol.Output
	var err error
	switch req.Stage {
	case casefile.StageScoring:
		out, err = engineScore(req.Case)
	case casefile.StageSlicing:
		out, err = engineSlice(req.Case)
	case casefile.StagePlacing:
		out, err = enginePlace(req.Case)
	case casefile.StagePipeline:
		out, err = enginePipeline(req.Case)
	default:
		return protocol.Result{Kind: protocol.ResultUnsupported, Reason: "unknown stage " + req.Stage}, nil
	}
	if err != nil {
		return engineError(err), nil
	}
	return protocol.Result{Kind: protocol.ResultOK, Output: out}, nil
}

// engineErrorKinds are the error kinds of the engine's sentinel errors.
var engineErrorKinds = []struct {
	sentinel error
	kind     string
}{
	{cupel.ErrPinnedExceedsBudget, casefile.KindPinnedExceedsBudget},
	{cupel.ErrOverflow, casefile.KindOverflow},
	{cupel.ErrCountRequirementUnmet, casefile.KindCountRequirementUnmet},
	{cupel.ErrTableTooLarge, casefile.KindTableTooLarge},
	{cupel.ErrInvalidBudget, casefile.KindInvalidBudget},
	{cupel.ErrInvalidConfig, casefile.KindInvalidConfig},
	{cupel.ErrInvalidItem, casefile.KindInvalidItem},
	{cupel.ErrTokenOverflow, casefile.KindInvalidItem},
}

// engineError maps an engine error to a rejected (or error) result.
func engineError(err error) protocol.Result {
	var u unsupportedError
	if errors.As(err, &u) {
		return protocol.Result{Kind: protocol.ResultUnsupported, Reason: u.what}
	}
	for _, k := range engineErrorKinds {
		if errors.Is(err, k.sentinel) {
			return protocol.Result{Kind: protocol.ResultRejected, Error: &protocol.ErrorInfo{Kind: k.kind, Message: err.Error()}}
		}
	}
	return protocol.Result{Kind: protocol.ResultError, Error: &protocol.ErrorInfo{Kind: "internal", Message: err.Error()}}
}

func engineItems(in []casefile.Item) ([]*cupel.ContextItem, error) {
	items := make([]*cupel.ContextItem, len(in))
	// One allocation for the values of all items' pointers.
	vals := make([]struct {
		prio int
		hint float64
	}, len(in))
	for i, it := range in {
		tokens, err := itemInt(i, "tokens", it.Tokens)
		if err != nil {
			return nil, err
		}
		spec := cupel.ItemSpec{
			Content: it.Content, Tokens: tokens,
			Kind: cupel.ContextKind(it.Kind), Source: cupel.ContextSource(it.Source),
			Tags: it.Tags, Metadata: it.Metadata, Timestamp: it.Timestamp, Pinned: it.Pinned,
		}
		if it.Priority != nil {
			p, err := itemInt(i, "priority", *it.Priority)
			if err != nil {
				return nil, err
			}
			vals[i].prio = p
			spec.Priority = &vals[i].prio
		}
		if it.FutureRelevanceHint != nil {
			vals[i].hint = float64(*it.FutureRelevanceHint)
			spec.FutureRelevanceHint = &vals[i].hint
		}
		item, err := cupel.NewItem(spec)
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
		items[i] = item
	}
	return items, nil
}

func engineScored(in []casefile.Item, items []*cupel.ContextItem) []cupel.ScoredItem {
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

// indexer maps items back to their input positions: by a map for many
// items, by looking through them for a few (the common case, where
// building a map costs more than the search).
type indexer struct {
	items []*cupel.ContextItem
	m     map[*cupel.ContextItem]int
}

// indexerScan is the most items an indexer looks through instead of
// building a map.
const indexerScan = 16

func newIndexer(items []*cupel.ContextItem) indexer {
	ix := indexer{items: items}
	if len(items) > indexerScan {
		ix.m = make(map[*cupel.ContextItem]int, len(items))
		for i, it := range items {
			ix.m[it] = i
		}
	}
	return ix
}

// index returns the input position of it, and false when it is not an
// input.
func (ix indexer) index(it *cupel.ContextItem) (int, bool) {
	if ix.m != nil {
		i, ok := ix.m[it]
		return i, ok
	}
	for i, x := range ix.items {
		if x == it {
			return i, true
		}
	}
	return 0, false
}

func (ix indexer) of(list []*cupel.ContextItem) ([]int, error) {
	out := make([]int, 0, len(list))
	for _, it := range list {
		i, ok := ix.index(it)
		if !ok {
			return nil, errors.New("engine returned an item that is not one of its inputs")
		}
		out = append(out, i)
	}
	return out, nil
}

func engineBudget(b *casefile.Budget) (cupel.ContextBudget, error) {
	if b == nil {
		return cupel.ContextBudget{}, fmt.Errorf("%w: no budget", cupel.ErrInvalidBudget)
	}
	var spec cupel.BudgetSpec
	var err error
	if spec.MaxTokens, err = budgetInt("maxTokens", b.MaxTokens); err != nil {
		return cupel.ContextBudget{}, err
	}
	if spec.TargetTokens, err = budgetInt("targetTokens", b.TargetTokens); err != nil {
		return cupel.ContextBudget{}, err
	}
	if spec.OutputReserve, err = budgetInt("outputReserve", b.OutputReserve); err != nil {
		return cupel.ContextBudget{}, err
	}
	spec.EstimationSafetyMarginPercent = float64(b.EstimationSafetyMarginPercent)
	if len(b.ReservedSlots) > 0 {
		spec.ReservedSlots = map[cupel.ContextKind]int{}
		for k, v := range b.ReservedSlots {
			n, err := platformInt("budget.reservedSlots."+k, v)
			if err != nil {
				return cupel.ContextBudget{}, err
			}
			spec.ReservedSlots[cupel.ContextKind(k)] = n
		}
	}
	return cupel.NewBudget(spec)
}

// platformInt converts a 64-bit integer of a case to the engine's int. On a
// platform whose int has 32 bits a larger value cannot reach the engine at
// all; the case is then unsupported (with this reason) rather than run with
// a wrapped value.
func platformInt(what string, v int64) (int, error) {
	if int64(int(v)) != v {
		return 0, unsupportedError{fmt.Sprintf("%s = %d does not fit in this platform's %d-bit int", what, v, strconv.IntSize)}
	}
	return int(v), nil
}

// budgetInt is platformInt for a field of the budget, named only when it
// does not fit (joining the name for every case allocates).
func budgetInt(field string, v int64) (int, error) {
	if int64(int(v)) == v {
		return int(v), nil
	}
	return platformInt("budget."+field, v)
}

// itemInt is platformInt for a field of items[i], named only when it does
// not fit (formatting the name of every item's fields is a tenth of the
// cost of a small case).
func itemInt(i int, field string, v int64) (int, error) {
	if int64(int(v)) == v {
		return int(v), nil
	}
	return platformInt(fmt.Sprintf("items[%d].%s", i, field), v)
}

// A case's configuration is a policy.Spec (casefile.Input holds one,
// with the vector's own [config] keys), which builds the components: the
// same path as policy files. The capabilities of Hello are package policy's lists of
// the types a policy.Spec accepts.

// build builds the policy of spec. Stages without a scorer, slicer or
// placer get valid stand-ins (reflexive, greedy, chronological) that they
// never use.
func build(spec policy.Spec) (cupel.Policy, error) {
	if u := unsupported(spec); u != "" {
		return cupel.Policy{}, unsupportedError{u}
	}
	if len(spec.Scorers) == 0 {
		spec.Scorers = standInScorers
	}
	if spec.Slicer == "" {
		spec.Slicer = "greedy"
	}
	if spec.Placer == "" {
		spec.Placer = "chronological"
	}
	return spec.Build()
}

// standInScorers are the scorers of stages without one (Build reads its
// spec and never changes it, so one slice serves every case).
var standInScorers = []policy.ScorerSpec{{Type: "reflexive"}}

// The types a policy.Spec knows (policy returns a copy each call; a case
// asks several times).
var (
	scorerTypes = policy.ScorerTypes()
	slicerTypes = policy.SlicerTypes()
	placerTypes = policy.PlacerTypes()
)

// unsupported names the first component of spec that a policy.Spec does not
// know, or returns "".
func unsupported(spec policy.Spec) string {
	var scorer func(sc *policy.ScorerSpec) string
	scorer = func(sc *policy.ScorerSpec) string {
		if sc == nil {
			return ""
		}
		if !slices.Contains(scorerTypes, sc.Type) {
			return "unknown scorer " + sc.Type
		}
		for i := range sc.Children {
			if u := scorer(&sc.Children[i]); u != "" {
				return u
			}
		}
		return scorer(sc.Inner)
	}
	for i := range spec.Scorers {
		if u := scorer(&spec.Scorers[i]); u != "" {
			return u
		}
	}
	for _, s := range []string{spec.Slicer, spec.InnerSlicer} {
		if s != "" && !slices.Contains(slicerTypes, s) {
			return "unknown slicer " + s
		}
	}
	if spec.Placer != "" && !slices.Contains(placerTypes, spec.Placer) {
		return "unknown placer " + spec.Placer
	}
	return ""
}

func engineScore(in casefile.Input) (*protocol.Output, error) {
	policy, err := build(policy.Spec{Scorers: in.Scorers})
	if err != nil {
		return nil, err
	}
	items, err := engineItems(in.Items)
	if err != nil {
		return nil, err
	}
	scores, err := scoreBoth(policy.Scorer, items)
	if err != nil {
		return nil, err
	}
	return &protocol.Output{Scores: scores}, nil
}

// scoreBoth scores items along both of the engine's paths, the per-item
// Score of the spec's pseudocode and the batch path the pipeline uses
// (cupel.ScoreBatch), and fails when they disagree on any item.
func scoreBoth(scorer cupel.Scorer, items []*cupel.ContextItem) ([]protocol.IndexScore, error) {
	batch := cupel.ScoreBatch(scorer, items, nil)
	out := make([]protocol.IndexScore, len(items))
	for i, it := range items {
		s := scorer.Score(it, items)
		if !sameScore(s, batch[i]) {
			return nil, fmt.Errorf("%w: item %d: Score gives %v but the batch path (cupel.ScoreBatch, which the pipeline uses) gives %v",
				errPathsDisagree, i, s, batch[i])
		}
		out[i] = protocol.IndexScore{Index: i, Score: casefile.Float(s)}
	}
	return out, nil
}

// errPathsDisagree marks a case whose scores differ between the per-item
// Score path and the batch path.
var errPathsDisagree = errors.New("the engine's two scoring paths disagree")

// sameScore reports whether the per-item and the batch score agree: equal
// bit for bit, except that any NaN equals any NaN (the payload of a NaN is
// not a score) and -0 equals +0 (a score is compared by value, and the
// spec's outputs do not tell the two zeros apart).
func sameScore(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return a == b
}

func engineSlice(in casefile.Input) (*protocol.Output, error) {
	policy, err := build(policy.Spec{Slicer: in.Slicer, BucketSize: in.BucketSize, TableLimit: in.TableLimit,
		InnerSlicer: in.InnerSlicer, Quotas: in.Quotas, Entries: in.Entries, ScarcityBehavior: in.ScarcityBehavior})
	if err != nil {
		return nil, err
	}
	slicer := policy.Slicer
	budget, err := engineBudget(in.Budget)
	if err != nil {
		return nil, err
	}
	items, err := engineItems(in.Items)
	if err != nil {
		return nil, err
	}
	scored := engineScored(in.Items, items)
	out := &protocol.Output{}
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

func engineShortfalls(s []cupel.CountRequirementShortfall) []casefile.Shortfall {
	var out []casefile.Shortfall
	for _, x := range s {
		out = append(out, casefile.Shortfall{Kind: string(x.Kind), RequiredCount: int64(x.RequiredCount), SatisfiedCount: int64(x.SatisfiedCount)})
	}
	return out
}

func enginePlace(in casefile.Input) (*protocol.Output, error) {
	policy, err := build(policy.Spec{Placer: in.Placer})
	if err != nil {
		return nil, err
	}
	items, err := engineItems(in.Items)
	if err != nil {
		return nil, err
	}
	placed := policy.Placer.Place(engineScored(in.Items, items))
	ordered, err := newIndexer(items).of(placed)
	if err != nil {
		return nil, err
	}
	return &protocol.Output{Ordered: ordered}, nil
}

func enginePipeline(in casefile.Input) (*protocol.Output, error) {
	policy, err := build(in.Spec)
	if err != nil {
		return nil, err
	}
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
	res, err := p.Run(items, budget, cupel.WithTrace(trace), cupel.WithOnOverflow(func(e cupel.OverflowEvent) { event = &e }))
	if err != nil {
		return nil, err
	}
	ix := newIndexer(items)
	out := &protocol.Output{Shortfalls: engineShortfalls(res.Shortfalls)}
	if out.Ordered, err = ix.of(res.Items); err != nil {
		return nil, err
	}
	if event == nil {
		event = res.Overflow
	}
	if event != nil {
		out.Overflow = &casefile.Overflow{TokensOverBudget: int64(event.TokensOverBudget)}
	}
	rep := trace.Report()
	// One allocation for both lists (never nil: the protocol states an
	// empty list as []).
	nInc := len(rep.Included)
	both := make([]protocol.DiagnosticItem, 0, nInc+len(rep.Excluded))
	d := &protocol.Diagnostics{Included: both[:0:nInc], Excluded: both[nInc:nInc],
		TotalCandidates: int64(rep.TotalCandidates), TotalTokensConsidered: int64(rep.TotalTokensConsidered),
		Shortfalls: engineShortfalls(rep.CountRequirementShortfalls)}
	for _, inc := range rep.Included {
		i, ok := ix.index(inc.Item)
		if !ok {
			return nil, errors.New("report names an item that is not an input")
		}
		d.Included = append(d.Included, protocol.DiagnosticItem{Index: i, Score: casefile.Float(inc.Score), Reason: map[string]any{"reason": inclusionName(inc.Reason)}})
	}
	for _, exc := range rep.Excluded {
		i, ok := ix.index(exc.Item)
		if !ok {
			return nil, errors.New("report names an item that is not an input")
		}
		d.Excluded = append(d.Excluded, protocol.DiagnosticItem{Index: i, Score: casefile.Float(exc.Score), Reason: exclusionReason(exc.Reason)})
	}
	out.Diagnostics = d
	return out, nil
}

// inclusionName is the name of r as an interface value. The known names
// are constants, which go into an interface without an allocation; a
// string variable would be copied to the heap for every included item.
func inclusionName(r cupel.InclusionReason) any {
	switch r {
	case cupel.InclusionScored:
		return string(cupel.InclusionScored)
	case cupel.InclusionPinned:
		return string(cupel.InclusionPinned)
	case cupel.InclusionZeroToken:
		return string(cupel.InclusionZeroToken)
	}
	return string(r)
}

// exclusionReason is the protocol's reason envelope of r, built from its
// accessors: {"reason": "<Variant>", ...the variant's fields}. Integers
// are int64 and floats Float, as a protocol answer decodes them. Each
// known variant's name is put in as a constant (see inclusionName).
func exclusionReason(r cupel.ExclusionReason) map[string]any {
	m := make(map[string]any, 4)
	switch r.Variant {
	case cupel.ExclusionBudgetExceeded:
		m["reason"] = string(cupel.ExclusionBudgetExceeded)
		m["item_tokens"], m["available_tokens"] = int64(r.ItemTokens()), int64(r.AvailableTokens())
	case cupel.ExclusionScoredTooLow:
		m["reason"] = string(cupel.ExclusionScoredTooLow)
		m["score"], m["threshold"] = casefile.Float(r.Score()), casefile.Float(r.Threshold())
	case cupel.ExclusionDeduplicated:
		m["reason"] = string(cupel.ExclusionDeduplicated)
		m["deduplicated_against"] = r.DeduplicatedAgainst()
	case cupel.ExclusionQuotaCapExceeded:
		m["reason"] = string(cupel.ExclusionQuotaCapExceeded)
		m["kind"], m["cap"], m["actual"] = string(r.Kind()), int64(r.Cap()), int64(r.Actual())
	case cupel.ExclusionQuotaRequireDisplaced:
		m["reason"] = string(cupel.ExclusionQuotaRequireDisplaced)
		m["displaced_by_kind"] = string(r.DisplacedByKind())
	case cupel.ExclusionNegativeTokens:
		m["reason"] = string(cupel.ExclusionNegativeTokens)
		m["tokens"] = int64(r.Tokens())
	case cupel.ExclusionPinnedOverride:
		m["reason"] = string(cupel.ExclusionPinnedOverride)
		m["displaced_by"] = r.DisplacedBy()
	case cupel.ExclusionFiltered:
		m["reason"] = string(cupel.ExclusionFiltered)
		m["filter_name"] = r.FilterName()
	case cupel.ExclusionCountCapExceeded:
		m["reason"] = string(cupel.ExclusionCountCapExceeded)
		m["kind"], m["cap"], m["count"] = string(r.Kind()), int64(r.Cap()), int64(r.Count())
	default:
		m["reason"] = string(r.Variant)
	}
	return m
}

// Implementation is what a run drives: go-cupel in process ([Engine]), a
// [protocol.Process] speaking cupel-conform/1 to a program in any
// language, or any Go value with the two methods. It is
// [protocol.Implementation], named here for the gates that use this
// package alone.
type Implementation = protocol.Implementation
