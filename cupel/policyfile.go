package cupel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// PolicySpec is a declarative, serialisable description of a [Policy]: the
// built-in scorer, slicer and placer with their full configuration, the
// deduplication switch and the overflow strategy. It reads and writes as
// JSON (with [ParsePolicyJSON] and encoding/json) and as TOML with any TOML
// library that honours `toml` struct tags and encoding.TextUnmarshaler, such
// as github.com/BurntSushi/toml (see [DecodePolicyFile]). Keys are
// snake_case, the vocabulary of the conformance vectors:
//
//	overflow_strategy = "throw"
//	placer = "u-shaped"
//
//	[scorer]
//	type = "composite"
//	[[scorer.scorers]]
//	type = "recency"
//	weight = 3.0
//	[[scorer.scorers]]
//	type = "decay"
//	weight = 1.0
//	curve = { type = "exponential", half_life = "24h" }
//
//	[slicer]
//	type = "knapsack"
//	bucket_size = 100
//
// [PolicySpec.Build] validates it and returns the Policy; [PolicySpecOf]
// turns a Policy of built-in components back into a spec, so a spec
// round-trips losslessly.
type PolicySpec struct {
	Scorer ScorerSpec `json:"scorer" toml:"scorer"`
	Slicer SlicerSpec `json:"slicer" toml:"slicer"`
	// Placer is "chronological" or "u-shaped".
	Placer string `json:"placer" toml:"placer"`
	// Deduplication defaults to true.
	Deduplication *bool `json:"deduplication,omitempty" toml:"deduplication,omitempty"`
	// OverflowStrategy is "throw" (the default), "truncate" or "proceed".
	OverflowStrategy string `json:"overflow_strategy,omitempty" toml:"overflow_strategy,omitempty"`
}

// ScorerSpec describes one built-in scorer. Type is one of recency,
// priority, kind, tag, frequency, reflexive, composite, scaled, decay,
// metadata_trust, metadata_key; only the fields of that type may be set.
type ScorerSpec struct {
	Type string `json:"type" toml:"type"`
	// Weight is the weight of a composite's child (in Scorers only).
	Weight float64 `json:"weight,omitempty" toml:"weight,omitempty,omitzero"`

	// Weights are a kind scorer's weights; absent means the defaults. An
	// empty list is invalid: it would be omitted when written back.
	Weights []KindWeightSpec `json:"weights,omitempty" toml:"weights,omitempty"`
	// TagWeights are a tag scorer's weights.
	TagWeights []TagWeightSpec `json:"tag_weights,omitempty" toml:"tag_weights,omitempty"`
	// Scorers are a composite's weighted children.
	Scorers []ScorerSpec `json:"scorers,omitempty" toml:"scorers,omitempty"`
	// Inner is a scaled scorer's inner scorer.
	Inner *ScorerSpec `json:"inner,omitempty" toml:"inner,omitempty"`
	// Curve is a decay scorer's curve.
	Curve *CurveSpec `json:"curve,omitempty" toml:"curve,omitempty"`
	// NullTimestampScore is a decay scorer's score for items without a
	// timestamp (default 0.5).
	NullTimestampScore *float64 `json:"null_timestamp_score,omitempty" toml:"null_timestamp_score,omitempty"`
	// DefaultScore is a metadata_trust scorer's default (default 0.5).
	DefaultScore *float64 `json:"default_score,omitempty" toml:"default_score,omitempty"`
	// Key, Value and Boost configure a metadata_key scorer.
	Key   string  `json:"key,omitempty" toml:"key,omitempty"`
	Value string  `json:"value,omitempty" toml:"value,omitempty"`
	Boost float64 `json:"boost,omitempty" toml:"boost,omitempty,omitzero"`
}

// KindWeightSpec is one kind scorer weight.
type KindWeightSpec struct {
	Kind   ContextKind `json:"kind" toml:"kind"`
	Weight float64     `json:"weight" toml:"weight"`
}

// TagWeightSpec is one tag scorer weight.
type TagWeightSpec struct {
	Tag    string  `json:"tag" toml:"tag"`
	Weight float64 `json:"weight" toml:"weight"`
}

// CurveSpec describes a decay curve: Type "exponential" (HalfLife),
// "window" (MaxAge) or "step" (Windows).
type CurveSpec struct {
	Type     string       `json:"type" toml:"type"`
	HalfLife Duration     `json:"half_life,omitempty" toml:"half_life,omitempty,omitzero"`
	MaxAge   Duration     `json:"max_age,omitempty" toml:"max_age,omitempty,omitzero"`
	Windows  []WindowSpec `json:"windows,omitempty" toml:"windows,omitempty"`
}

// WindowSpec is one window of a step curve.
type WindowSpec struct {
	MaxAge Duration `json:"max_age" toml:"max_age"`
	Score  float64  `json:"score" toml:"score"`
}

// Duration is a time.Duration written as Go duration text ("24h", "90m").
type Duration time.Duration

// MarshalText writes the duration as Go duration text.
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// UnmarshalText parses Go duration text.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("invalid duration %q: want Go duration text such as \"24h\" or \"90m\"", string(b))
	}
	*d = Duration(v)
	return nil
}

// IsZero reports whether d is zero (so that omitempty omits it).
func (d Duration) IsZero() bool { return d == 0 }

// SlicerSpec describes one built-in slicer. Type is one of greedy, knapsack,
// quota, count_quota, count_constrained_knapsack.
type SlicerSpec struct {
	Type string `json:"type" toml:"type"`
	// BucketSize is a knapsack's bucket size (default 100); also the
	// count_constrained_knapsack's knapsack.
	BucketSize int `json:"bucket_size,omitempty" toml:"bucket_size,omitempty,omitzero"`
	// TableLimit is a knapsack's table cell limit (default 50,000,000).
	TableLimit int64 `json:"table_limit,omitempty" toml:"table_limit,omitempty,omitzero"`
	// Inner is the inner slicer of quota and count_quota (default greedy).
	Inner *SlicerSpec `json:"inner,omitempty" toml:"inner,omitempty"`
	// Quotas are a quota slicer's percentages.
	Quotas []QuotaSpec `json:"quotas,omitempty" toml:"quotas,omitempty"`
	// Entries are a count slicer's count quotas.
	Entries []CountEntrySpec `json:"entries,omitempty" toml:"entries,omitempty"`
	// ScarcityBehavior is "degrade" (the default) or "throw".
	ScarcityBehavior string `json:"scarcity_behavior,omitempty" toml:"scarcity_behavior,omitempty"`
}

// QuotaSpec is one kind's quota percentages; an absent Require is 0 and an
// absent Cap is 100.
type QuotaSpec struct {
	Kind    ContextKind `json:"kind" toml:"kind"`
	Require *float64    `json:"require,omitempty" toml:"require,omitempty"`
	Cap     *float64    `json:"cap,omitempty" toml:"cap,omitempty"`
}

// CountEntrySpec is one kind's count quota.
type CountEntrySpec struct {
	Kind         ContextKind `json:"kind" toml:"kind"`
	RequireCount int         `json:"require_count" toml:"require_count"`
	CapCount     int         `json:"cap_count" toml:"cap_count"`
}

// BuildOption configures [PolicySpec.Build].
type BuildOption func(*buildOptions)

type buildOptions struct{ clock Clock }

// WithClock supplies the clock of decay scorers. A spec with a decay scorer
// cannot be built without one: the spec gives DecayScorer no default clock.
func WithClock(c Clock) BuildOption { return func(o *buildOptions) { o.clock = c } }

// Build validates the spec and returns the Policy. An invalid spec is a
// [*ValidationError] wrapping ErrInvalidConfig whose Field is the path of
// the offending value, e.g. "scorer.scorers[1].weight".
func (s PolicySpec) Build(opts ...BuildOption) (Policy, error) {
	var o buildOptions
	for _, opt := range opts {
		opt(&o)
	}
	if s.Scorer.Weight != 0 {
		return Policy{}, specError("scorer.weight", s.Scorer.Weight, "only a composite's children have a weight")
	}
	scorer, err := s.Scorer.build("scorer", &o)
	if err != nil {
		return Policy{}, err
	}
	slicer, err := s.Slicer.build("slicer")
	if err != nil {
		return Policy{}, err
	}
	var placer Placer
	switch s.Placer {
	case "chronological":
		placer = NewChronologicalPlacer()
	case "u-shaped":
		placer = NewUShapedPlacer()
	default:
		return Policy{}, specError("placer", s.Placer, `must be "chronological" or "u-shaped"`)
	}
	p := Policy{Scorer: scorer, Slicer: slicer, Placer: placer}
	if s.Deduplication != nil {
		p.DisableDeduplication = !*s.Deduplication
	}
	if s.OverflowStrategy != "" {
		ov, err := ParseOverflowStrategy(s.OverflowStrategy)
		if err != nil {
			return Policy{}, specError("overflow_strategy", s.OverflowStrategy, `must be "throw", "truncate" or "proceed"`)
		}
		p.Overflow = ov
	}
	return p, nil
}

func specError(path string, value any, reason string) error {
	return &ValidationError{Type: "PolicySpec", Field: path, Value: value, Reason: reason, sentinel: ErrInvalidConfig}
}

// wrapSpecError re-roots a constructor's validation error at path.
func wrapSpecError(path string, err error) error {
	var ve *ValidationError
	if errors.As(err, &ve) {
		field := path
		if ve.Field != "" {
			field = path + "." + ve.Field
		}
		return &ValidationError{Type: "PolicySpec", Field: field, Value: ve.Value, Reason: ve.Reason, sentinel: ErrInvalidConfig}
	}
	return specError(path, nil, err.Error())
}

// onlyFields reports a field set for another scorer or slicer type.
func onlyFields(path, typ string, set map[string]bool, allowed ...string) error {
	for _, name := range slices.Sorted(maps.Keys(set)) {
		if set[name] && !slices.Contains(allowed, name) {
			return specError(path+"."+name, nil, "is not a field of type "+typ)
		}
	}
	return nil
}

func (s *ScorerSpec) setFields() map[string]bool {
	return map[string]bool{
		"weights":              s.Weights != nil,
		"tag_weights":          s.TagWeights != nil,
		"scorers":              s.Scorers != nil,
		"inner":                s.Inner != nil,
		"curve":                s.Curve != nil,
		"null_timestamp_score": s.NullTimestampScore != nil,
		"default_score":        s.DefaultScore != nil,
		"key":                  s.Key != "",
		"value":                s.Value != "",
		"boost":                s.Boost != 0,
	}
}

func (s *ScorerSpec) build(path string, o *buildOptions) (Scorer, error) {
	set := s.setFields()
	check := func(allowed ...string) error { return onlyFields(path, s.Type, set, allowed...) }
	switch s.Type {
	case "recency", "priority", "frequency", "reflexive":
		if err := check(); err != nil {
			return nil, err
		}
		switch s.Type {
		case "recency":
			return NewRecencyScorer(), nil
		case "priority":
			return NewPriorityScorer(), nil
		case "frequency":
			return NewFrequencyScorer(), nil
		}
		return NewReflexiveScorer(), nil
	case "kind":
		if err := check("weights"); err != nil {
			return nil, err
		}
		if s.Weights == nil {
			return NewDefaultKindScorer(), nil
		}
		if len(s.Weights) == 0 {
			// Written back, an empty list would be omitted and read as the
			// defaults: refuse it rather than lose it in a round trip.
			return nil, specError(path+".weights", "[]", "must not be empty: omit it for the default weights, or give a kind the weight 0")
		}
		w := make(map[ContextKind]float64, len(s.Weights))
		for i, kw := range s.Weights {
			p := fmt.Sprintf("%s.weights[%d]", path, i)
			if isBlank(string(kw.Kind)) {
				return nil, specError(p+".kind", string(kw.Kind), "must not be empty")
			}
			for k := range w {
				if k.Equal(kw.Kind) {
					return nil, specError(p+".kind", string(kw.Kind), "repeats kind "+string(k))
				}
			}
			w[kw.Kind] = kw.Weight
		}
		sc, err := NewKindScorer(w)
		if err != nil {
			return nil, wrapSpecError(path, err)
		}
		return sc, nil
	case "tag":
		if err := check("tag_weights"); err != nil {
			return nil, err
		}
		w := make(map[string]float64, len(s.TagWeights))
		for i, tw := range s.TagWeights {
			if _, dup := w[tw.Tag]; dup {
				return nil, specError(fmt.Sprintf("%s.tag_weights[%d].tag", path, i), tw.Tag, "repeats a tag")
			}
			w[tw.Tag] = tw.Weight
		}
		sc, err := NewTagScorer(w)
		if err != nil {
			return nil, wrapSpecError(path, err)
		}
		return sc, nil
	case "composite":
		if err := check("scorers"); err != nil {
			return nil, err
		}
		entries := make([]WeightedScorer, len(s.Scorers))
		for i := range s.Scorers {
			p := fmt.Sprintf("%s.scorers[%d]", path, i)
			child, err := s.Scorers[i].build(p, o)
			if err != nil {
				return nil, err
			}
			entries[i] = WeightedScorer{Scorer: child, Weight: s.Scorers[i].Weight}
		}
		sc, err := NewCompositeScorer(entries...)
		if err != nil {
			var ve *ValidationError
			if errors.As(err, &ve) && strings.HasPrefix(ve.Field, "entries[") {
				// entries[i].weight -> scorers[i].weight
				return nil, wrapSpecError(path, &ValidationError{Field: "scorers" + strings.TrimPrefix(ve.Field, "entries"), Value: ve.Value, Reason: ve.Reason, sentinel: ErrInvalidConfig})
			}
			return nil, wrapSpecError(path+".scorers", err)
		}
		return sc, nil
	case "scaled":
		if err := check("inner"); err != nil {
			return nil, err
		}
		if s.Inner == nil {
			return nil, specError(path+".inner", nil, "is required for a scaled scorer")
		}
		if s.Inner.Weight != 0 {
			return nil, specError(path+".inner.weight", s.Inner.Weight, "only a composite's children have a weight")
		}
		inner, err := s.Inner.build(path+".inner", o)
		if err != nil {
			return nil, err
		}
		return NewScaledScorer(inner)
	case "decay":
		if err := check("curve", "null_timestamp_score"); err != nil {
			return nil, err
		}
		if s.Curve == nil {
			return nil, specError(path+".curve", nil, "is required for a decay scorer")
		}
		curve, err := s.Curve.build(path + ".curve")
		if err != nil {
			return nil, err
		}
		if o.clock == nil {
			return nil, specError(path, "decay", "needs a clock: build the policy with cupel.WithClock")
		}
		var dopts []DecayOption
		if s.NullTimestampScore != nil {
			dopts = append(dopts, WithNullTimestampScore(*s.NullTimestampScore))
		}
		sc, err := NewDecayScorer(o.clock, curve, dopts...)
		if err != nil {
			return nil, wrapSpecError(path, err)
		}
		return sc, nil
	case "metadata_trust":
		if err := check("default_score"); err != nil {
			return nil, err
		}
		def := 0.5
		if s.DefaultScore != nil {
			def = *s.DefaultScore
		}
		sc, err := NewMetadataTrustScorer(def)
		if err != nil {
			return nil, wrapSpecError(path, err)
		}
		return sc, nil
	case "metadata_key":
		if err := check("key", "value", "boost"); err != nil {
			return nil, err
		}
		sc, err := NewMetadataKeyScorer(s.Key, s.Value, s.Boost)
		if err != nil {
			return nil, wrapSpecError(path, err)
		}
		return sc, nil
	}
	return nil, specError(path+".type", s.Type, "must be one of recency, priority, kind, tag, frequency, reflexive, composite, scaled, decay, metadata_trust, metadata_key")
}

func (c *CurveSpec) build(path string) (DecayCurve, error) {
	var curve DecayCurve
	var err error
	switch c.Type {
	case "exponential":
		if c.MaxAge != 0 || c.Windows != nil {
			return DecayCurve{}, specError(path, c.Type, "an exponential curve takes only half_life")
		}
		curve, err = NewExponentialCurve(time.Duration(c.HalfLife))
	case "window":
		if c.HalfLife != 0 || c.Windows != nil {
			return DecayCurve{}, specError(path, c.Type, "a window curve takes only max_age")
		}
		curve, err = NewWindowCurve(time.Duration(c.MaxAge))
	case "step":
		if c.HalfLife != 0 || c.MaxAge != 0 {
			return DecayCurve{}, specError(path, c.Type, "a step curve takes only windows")
		}
		ws := make([]StepWindow, len(c.Windows))
		for i, w := range c.Windows {
			ws[i] = StepWindow{MaxAge: time.Duration(w.MaxAge), Score: w.Score}
		}
		curve, err = NewStepCurve(ws...)
	default:
		return DecayCurve{}, specError(path+".type", c.Type, `must be "exponential", "window" or "step"`)
	}
	if err != nil {
		return DecayCurve{}, wrapSpecError(path, err)
	}
	return curve, nil
}

func (s *SlicerSpec) setFields() map[string]bool {
	return map[string]bool{
		"bucket_size":       s.BucketSize != 0,
		"table_limit":       s.TableLimit != 0,
		"inner":             s.Inner != nil,
		"quotas":            s.Quotas != nil,
		"entries":           s.Entries != nil,
		"scarcity_behavior": s.ScarcityBehavior != "",
	}
}

func (s *SlicerSpec) build(path string) (Slicer, error) {
	set := s.setFields()
	check := func(allowed ...string) error { return onlyFields(path, s.Type, set, allowed...) }
	knapsack := func() (*KnapsackSlice, error) {
		bucket := s.BucketSize
		if bucket == 0 {
			bucket = DefaultBucketSize
		}
		var kopts []KnapsackOption
		if s.TableLimit != 0 {
			kopts = append(kopts, WithTableLimit(s.TableLimit))
		}
		k, err := NewKnapsackSlice(bucket, kopts...)
		if err != nil {
			return nil, wrapSpecError(path, err)
		}
		return k, nil
	}
	inner := func() (Slicer, error) {
		if s.Inner == nil {
			return NewGreedySlice(), nil
		}
		return s.Inner.build(path + ".inner")
	}
	entries := func() ([]CountQuotaEntry, ScarcityBehavior, error) {
		out := make([]CountQuotaEntry, len(s.Entries))
		for i, e := range s.Entries {
			ce, err := NewCountQuotaEntry(e.Kind, e.RequireCount, e.CapCount)
			if err != nil {
				return nil, 0, wrapSpecError(fmt.Sprintf("%s.entries[%d]", path, i), err)
			}
			out[i] = ce
		}
		sc := ScarcityDegrade
		if s.ScarcityBehavior != "" {
			var err error
			if sc, err = ParseScarcityBehavior(s.ScarcityBehavior); err != nil {
				return nil, 0, specError(path+".scarcity_behavior", s.ScarcityBehavior, `must be "degrade" or "throw"`)
			}
		}
		return out, sc, nil
	}
	switch s.Type {
	case "greedy":
		if err := check(); err != nil {
			return nil, err
		}
		return NewGreedySlice(), nil
	case "knapsack":
		if err := check("bucket_size", "table_limit"); err != nil {
			return nil, err
		}
		return knapsack()
	case "quota":
		if err := check("inner", "quotas"); err != nil {
			return nil, err
		}
		qs := make([]QuotaEntry, 0, len(s.Quotas))
		for i, q := range s.Quotas {
			switch {
			case q.Require != nil && q.Cap != nil:
				qs = append(qs, RequireCap(q.Kind, *q.Require, *q.Cap))
			case q.Require != nil:
				qs = append(qs, Require(q.Kind, *q.Require))
			case q.Cap != nil:
				qs = append(qs, Cap(q.Kind, *q.Cap))
			default:
				return nil, specError(fmt.Sprintf("%s.quotas[%d]", path, i), string(q.Kind), "needs require, cap or both")
			}
		}
		set, err := NewQuotaSet(qs...)
		if err != nil {
			return nil, wrapSpecError(path+".quotas", err)
		}
		in, err := inner()
		if err != nil {
			return nil, err
		}
		q, err := NewQuotaSlice(set, in)
		if err != nil {
			return nil, wrapSpecError(path, err)
		}
		return q, nil
	case "count_quota":
		if err := check("inner", "entries", "scarcity_behavior"); err != nil {
			return nil, err
		}
		es, sc, err := entries()
		if err != nil {
			return nil, err
		}
		in, err := inner()
		if err != nil {
			return nil, err
		}
		cq, err := NewCountQuotaSlice(es, in, sc)
		if err != nil {
			return nil, wrapSpecError(path, err)
		}
		return cq, nil
	case "count_constrained_knapsack":
		if err := check("bucket_size", "table_limit", "entries", "scarcity_behavior"); err != nil {
			return nil, err
		}
		es, sc, err := entries()
		if err != nil {
			return nil, err
		}
		k, err := knapsack()
		if err != nil {
			return nil, err
		}
		cck, err := NewCountConstrainedKnapsackSlice(es, k, sc)
		if err != nil {
			return nil, wrapSpecError(path, err)
		}
		return cck, nil
	}
	return nil, specError(path+".type", s.Type, "must be one of greedy, knapsack, quota, count_quota, count_constrained_knapsack")
}

// PolicySpecOf describes a policy built from built-in components as a
// PolicySpec, for writing it to a file. A custom scorer, slicer or placer has
// no description, and neither has a nil or typed-nil scorer or slicer, nor a
// KindScorer without weights (a file cannot tell it from the default weights):
// the error wraps ErrInvalidConfig and names it. Decay
// scorers' clocks are not part of the description.
func PolicySpecOf(p Policy) (PolicySpec, error) {
	sc, err := scorerSpecOf("scorer", p.Scorer)
	if err != nil {
		return PolicySpec{}, err
	}
	sl, err := slicerSpecOf("slicer", p.Slicer)
	if err != nil {
		return PolicySpec{}, err
	}
	spec := PolicySpec{Scorer: sc, Slicer: sl, Deduplication: Ptr(!p.DisableDeduplication), OverflowStrategy: asciiLower(p.Overflow.String())}
	switch p.Placer.(type) {
	case *ChronologicalPlacer:
		spec.Placer = "chronological"
	case *UShapedPlacer:
		spec.Placer = "u-shaped"
	default:
		return PolicySpec{}, specError("placer", typeNameOrNil(p.Placer), "is not a built-in placer")
	}
	return spec, nil
}

func typeNameOrNil(v any) string {
	if v == nil {
		return "nil"
	}
	return typeName(v)
}

func scorerSpecOf(path string, s Scorer) (ScorerSpec, error) {
	if isNil(s) { // a typed nil has no configuration to read
		return ScorerSpec{}, specError(path, typeNameOrNil(s), "is nil")
	}
	switch s := s.(type) {
	case *RecencyScorer:
		return ScorerSpec{Type: "recency"}, nil
	case *PriorityScorer:
		return ScorerSpec{Type: "priority"}, nil
	case *FrequencyScorer:
		return ScorerSpec{Type: "frequency"}, nil
	case *ReflexiveScorer:
		return ScorerSpec{Type: "reflexive"}, nil
	case *KindScorer:
		w := s.Weights()
		if len(w) == 0 {
			return ScorerSpec{}, specError(path, "kind", "has no weights, which a policy file cannot tell from the default weights")
		}
		kinds := slices.SortedFunc(maps.Keys(w), func(a, b ContextKind) int { return strings.Compare(string(a), string(b)) })
		spec := ScorerSpec{Type: "kind", Weights: []KindWeightSpec{}}
		for _, k := range kinds {
			spec.Weights = append(spec.Weights, KindWeightSpec{Kind: k, Weight: w[k]})
		}
		return spec, nil
	case *TagScorer:
		w := s.Weights()
		spec := ScorerSpec{Type: "tag", TagWeights: []TagWeightSpec{}}
		for _, t := range slices.Sorted(maps.Keys(w)) {
			spec.TagWeights = append(spec.TagWeights, TagWeightSpec{Tag: t, Weight: w[t]})
		}
		return spec, nil
	case *CompositeScorer:
		spec := ScorerSpec{Type: "composite"}
		for i, e := range s.Entries() {
			child, err := scorerSpecOf(fmt.Sprintf("%s.scorers[%d]", path, i), e.Scorer)
			if err != nil {
				return ScorerSpec{}, err
			}
			child.Weight = e.Weight
			spec.Scorers = append(spec.Scorers, child)
		}
		return spec, nil
	case *ScaledScorer:
		inner, err := scorerSpecOf(path+".inner", s.Inner())
		if err != nil {
			return ScorerSpec{}, err
		}
		return ScorerSpec{Type: "scaled", Inner: &inner}, nil
	case *DecayScorer:
		c := s.Curve()
		cs := &CurveSpec{Type: c.Type()}
		switch c.Type() {
		case "exponential":
			cs.HalfLife = Duration(c.HalfLife())
		case "window":
			cs.MaxAge = Duration(c.MaxAge())
		case "step":
			for _, w := range c.Windows() {
				cs.Windows = append(cs.Windows, WindowSpec{MaxAge: Duration(w.MaxAge), Score: w.Score})
			}
		}
		return ScorerSpec{Type: "decay", Curve: cs, NullTimestampScore: Ptr(s.NullTimestampScore())}, nil
	case *MetadataTrustScorer:
		return ScorerSpec{Type: "metadata_trust", DefaultScore: Ptr(s.DefaultScore())}, nil
	case *MetadataKeyScorer:
		return ScorerSpec{Type: "metadata_key", Key: s.Key(), Value: s.Value(), Boost: s.Boost()}, nil
	}
	return ScorerSpec{}, specError(path, typeNameOrNil(s), "is not a built-in scorer")
}

func slicerSpecOf(path string, s Slicer) (SlicerSpec, error) {
	countEntries := func(es []CountQuotaEntry) []CountEntrySpec {
		out := make([]CountEntrySpec, len(es))
		for i, e := range es {
			out[i] = CountEntrySpec{Kind: e.Kind(), RequireCount: e.RequireCount(), CapCount: e.CapCount()}
		}
		return out
	}
	if isNil(s) { // a typed nil has no configuration to read
		return SlicerSpec{}, specError(path, typeNameOrNil(s), "is nil")
	}
	switch s := s.(type) {
	case *GreedySlice:
		return SlicerSpec{Type: "greedy"}, nil
	case *KnapsackSlice:
		return SlicerSpec{Type: "knapsack", BucketSize: s.BucketSize(), TableLimit: s.TableLimit()}, nil
	case *QuotaSlice:
		inner, err := slicerSpecOf(path+".inner", s.Inner())
		if err != nil {
			return SlicerSpec{}, err
		}
		spec := SlicerSpec{Type: "quota", Inner: &inner, Quotas: []QuotaSpec{}}
		for _, e := range s.Quotas().Entries() {
			q := QuotaSpec{Kind: e.Kind()}
			if v, ok := e.Require(); ok {
				q.Require = Ptr(v)
			}
			if v, ok := e.Cap(); ok {
				q.Cap = Ptr(v)
			}
			spec.Quotas = append(spec.Quotas, q)
		}
		return spec, nil
	case *CountQuotaSlice:
		inner, err := slicerSpecOf(path+".inner", s.Inner())
		if err != nil {
			return SlicerSpec{}, err
		}
		return SlicerSpec{Type: "count_quota", Inner: &inner, Entries: countEntries(s.Entries()), ScarcityBehavior: asciiLower(s.Scarcity().String())}, nil
	case *CountConstrainedKnapsackSlice:
		k := s.Knapsack()
		return SlicerSpec{Type: "count_constrained_knapsack", BucketSize: k.BucketSize(), TableLimit: k.TableLimit(), Entries: countEntries(s.Entries()), ScarcityBehavior: asciiLower(s.Scarcity().String())}, nil
	}
	return SlicerSpec{}, specError(path, typeNameOrNil(s), "is not a built-in slicer")
}

// ParsePolicyJSON decodes a JSON policy description strictly: unknown keys
// and trailing data are errors. It does not build the policy; call Build.
func ParsePolicyJSON(data []byte) (PolicySpec, error) {
	var spec PolicySpec
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&spec); err != nil {
		return PolicySpec{}, fmt.Errorf("%w: %w", ErrInvalidConfig, err)
	}
	if dec.More() {
		return PolicySpec{}, fmt.Errorf("%w: trailing data after the policy object", ErrInvalidConfig)
	}
	return spec, nil
}

// PolicyFileError names the file a policy description came from.
type PolicyFileError struct {
	File string
	Err  error
}

// Error names the file and the problem.
func (e *PolicyFileError) Error() string { return e.File + ": " + e.Err.Error() }

// Unwrap returns the underlying error (a *ValidationError for invalid values).
func (e *PolicyFileError) Unwrap() error { return e.Err }

// DecodePolicyFile decodes and builds the policy description in data, read
// from the file named name. Files ending in ".json" are decoded strictly by
// this package. For TOML, pass the decoding function of a TOML library as
// unmarshalTOML (github.com/BurntSushi/toml's toml.Unmarshal fits); it is
// not needed for JSON and may be nil. Every error is a [*PolicyFileError]
// naming the file, wrapping a [*ValidationError] that names the field and the
// value where one is at fault.
func DecodePolicyFile(name string, data []byte, unmarshalTOML func([]byte, any) error, opts ...BuildOption) (Policy, PolicySpec, error) {
	fail := func(err error) (Policy, PolicySpec, error) {
		return Policy{}, PolicySpec{}, &PolicyFileError{File: name, Err: err}
	}
	var spec PolicySpec
	switch {
	case strings.HasSuffix(asciiLower(name), ".json"):
		var err error
		if spec, err = ParsePolicyJSON(data); err != nil {
			return fail(err)
		}
	case strings.HasSuffix(asciiLower(name), ".toml"):
		if unmarshalTOML == nil {
			return fail(fmt.Errorf("%w: a TOML policy needs a TOML decoder (e.g. github.com/BurntSushi/toml's Unmarshal)", ErrInvalidConfig))
		}
		if err := unmarshalTOML(data, &spec); err != nil {
			return fail(fmt.Errorf("%w: %w", ErrInvalidConfig, err))
		}
	default:
		return fail(fmt.Errorf("%w: unknown policy file type (want .json or .toml)", ErrInvalidConfig))
	}
	p, err := spec.Build(opts...)
	if err != nil {
		return fail(err)
	}
	return p, spec, nil
}
