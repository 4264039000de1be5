package casefile

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/policy"
	"github.com/cupel-go/go-cupel/internal/wirejson"
)

// This file is the one translation between a case's configuration, a
// policy.Spec, and the protocol's JSON form of it (PROTOCOL.md, the
// "case" object). The types below are that form's shapes, private to it.

// wireInput is the "case" object.
type wireInput struct {
	wireConfig
	Items []Item `json:"items"`
}

// wireConfig is the "case" object without its items.
type wireConfig struct {
	Scorer           *wireScorer `json:"scorer,omitempty"`
	Slicer           *wireSlicer `json:"slicer,omitempty"`
	Placer           string      `json:"placer,omitempty"`
	Budget           *Budget     `json:"budget,omitempty"`
	Deduplication    *bool       `json:"deduplication,omitempty"`
	OverflowStrategy string      `json:"overflow_strategy,omitempty"`
}

// wireScorer is a scorer: a composite's children are {weight, scorer}
// objects and the kind scorer's default weights a flag.
type wireScorer struct {
	Type               string                  `json:"type"`
	UseDefaultWeights  bool                    `json:"use_default_weights,omitempty"`
	Weights            []policy.KindWeightSpec `json:"weights,omitempty"`
	TagWeights         []policy.TagWeightSpec  `json:"tag_weights,omitempty"`
	Children           []wireChild             `json:"children,omitempty"`
	Inner              *wireScorer             `json:"inner,omitempty"`
	ReferenceTime      *time.Time              `json:"reference_time,omitempty"`
	NullTimestampScore *Float                  `json:"null_timestamp_score,omitempty"`
	Curve              *policy.CurveSpec       `json:"curve,omitempty"`
	DefaultScore       *Float                  `json:"default_score,omitempty"`
	Key                *string                 `json:"key,omitempty"`
	Value              *string                 `json:"value,omitempty"`
	Boost              *Float                  `json:"boost,omitempty"`
}

type wireChild struct {
	Weight Float      `json:"weight"`
	Scorer wireScorer `json:"scorer"`
}

// wireSlicer is a slicer: an inner slicer is an object of its own, which
// holds the bucket size of an inner knapsack.
type wireSlicer struct {
	Type             string                  `json:"type"`
	BucketSize       *int                    `json:"bucket_size,omitempty"`
	Inner            *wireSlicer             `json:"inner,omitempty"`
	Quotas           []wireQuota             `json:"quotas,omitempty"`
	Entries          []policy.CountEntrySpec `json:"entries,omitempty"`
	ScarcityBehavior string                  `json:"scarcity_behavior,omitempty"`
}

// wireQuota is a quota with both percentages stated.
type wireQuota struct {
	Kind    cupel.ContextKind `json:"kind"`
	Require Float             `json:"require"`
	Cap     Float             `json:"cap"`
}

// MarshalJSON writes the protocol's form of in. It fails, with an error
// matching [cupel.ErrInvalidConfig] that names the key, for a
// configuration that form cannot state: a table limit, a composite's child
// without a weight, an inner scorer with a weight or given twice.
func (in Input) MarshalJSON() ([]byte, error) {
	w, err := in.config()
	if err != nil {
		return nil, err
	}
	// The configuration by encoding/json, then the items (appendJSON):
	// "items" is the object's last key.
	head, err := json.Marshal(w)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, len(head)+16+200*len(in.Items))
	b = append(b, head[:len(head)-1]...)
	if len(head) > 2 {
		b = append(b, ',')
	}
	b = append(b, `"items":`...)
	if in.Items == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range in.Items {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = in.Items[i].appendJSON(b); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	return append(b, '}'), nil
}

// config is the protocol's form of in's configuration.
func (in Input) config() (wireConfig, error) {
	w := wireConfig{Placer: in.Placer, Budget: in.Budget, Deduplication: in.Deduplication,
		OverflowStrategy: in.OverflowStrategy}
	if in.TableLimit != 0 {
		return wireConfig{}, fmt.Errorf("%w: table_limit: the protocol has no key for it", cupel.ErrInvalidConfig)
	}
	switch n := len(in.Scorers); {
	case n == 1:
		sc, err := toWire("scorer", in.Scorers[0])
		if err != nil {
			return wireConfig{}, err
		}
		w.Scorer = sc
	case n > 1:
		sc, err := toWire("scorer", policy.ScorerSpec{Type: "composite", Children: in.Scorers})
		if err != nil {
			return wireConfig{}, err
		}
		w.Scorer = sc
	}
	if in.Slicer != "" {
		w.Slicer = slicerToWire(&in.Spec)
	}
	return w, nil
}

// UnmarshalJSON reads the protocol's form. An inner slicer may state its
// type and bucket size only (a policy names its inner slicer, and the
// bucket size is one for both): an inner slicer with quotas, entries, a
// scarcity behaviour or an inner slicer of its own is an error matching
// [cupel.ErrInvalidConfig].
func (in *Input) UnmarshalJSON(b []byte) error {
	var w wireInput
	r := wirejson.NewReader(b)
	if readWireInput(r, &w); !r.Done() {
		w = wireInput{}
		if err := wirejson.Strict(b, &w); err != nil {
			return err
		}
	}
	*in = Input{Budget: w.Budget, Items: w.Items}
	in.Placer, in.Deduplication, in.OverflowStrategy = w.Placer, w.Deduplication, w.OverflowStrategy
	if w.Scorer != nil {
		in.Scorers = []policy.ScorerSpec{fromWire(w.Scorer)}
	}
	if w.Slicer != nil {
		return slicerFromWire(&in.Spec, w.Slicer)
	}
	return nil
}

// usesDefaultWeights reports whether the kind scorer sc uses the default
// weights, as a policy builds it: use_default_weights = true, or neither it
// nor weights given.
func usesDefaultWeights(sc *policy.ScorerSpec) bool {
	if sc.UseDefaultWeights != nil {
		return *sc.UseDefaultWeights
	}
	return sc.Weights == nil
}

func toWire(path string, sc policy.ScorerSpec) (*wireScorer, error) {
	w := &wireScorer{Type: sc.Type, Weights: sc.Weights, TagWeights: sc.TagWeights, ReferenceTime: sc.ReferenceTime,
		NullTimestampScore: sc.NullTimestampScore, Curve: sc.Curve, DefaultScore: sc.DefaultScore}
	if sc.Type == "kind" {
		w.UseDefaultWeights = usesDefaultWeights(&sc)
	} else {
		w.UseDefaultWeights = sc.UseDefaultWeights != nil && *sc.UseDefaultWeights
	}
	for i, ch := range sc.Children {
		p := fmt.Sprintf("%s.children[%d]", path, i)
		if ch.Weight == nil {
			return nil, fmt.Errorf("%w: %s.weight: a composite's child needs a weight", cupel.ErrInvalidConfig, p)
		}
		cw, err := toWire(p, ch)
		if err != nil {
			return nil, err
		}
		w.Children = append(w.Children, wireChild{Weight: *ch.Weight, Scorer: *cw})
	}
	if inner := sc.Inner; inner != nil {
		if inner.Weight != nil {
			return nil, fmt.Errorf("%w: %s.inner.weight: only a composite's children have a weight", cupel.ErrInvalidConfig, path)
		}
		iw, err := toWire(path+".inner", *inner)
		if err != nil {
			return nil, err
		}
		w.Inner = iw
	}
	// A metadata_key scorer states its three keys; other types state them
	// when set (a policy rejects them there).
	key := sc.Type == "metadata_key"
	if key || sc.Key != "" {
		w.Key = &sc.Key
	}
	if key || sc.Value != "" {
		w.Value = &sc.Value
	}
	if key || sc.Boost != 0 {
		w.Boost = &sc.Boost
	}
	return w, nil
}

func fromWire(w *wireScorer) policy.ScorerSpec {
	sc := policy.ScorerSpec{Type: w.Type, Weights: w.Weights, TagWeights: w.TagWeights, ReferenceTime: w.ReferenceTime,
		NullTimestampScore: w.NullTimestampScore, Curve: w.Curve, DefaultScore: w.DefaultScore}
	switch {
	case w.Type == "kind":
		sc.UseDefaultWeights = cupel.Ptr(w.UseDefaultWeights)
		if w.UseDefaultWeights {
			sc.Weights = nil
		}
	case w.UseDefaultWeights:
		sc.UseDefaultWeights = cupel.Ptr(true)
	}
	// The lists of a type are lists, empty when absent, as the loader
	// reads them.
	if w.Children != nil || w.Type == "composite" {
		sc.Children = make([]policy.ScorerSpec, 0, len(w.Children))
	}
	for i := range w.Children {
		ch := fromWire(&w.Children[i].Scorer)
		ch.Weight = cupel.Ptr(w.Children[i].Weight)
		sc.Children = append(sc.Children, ch)
	}
	if w.Inner != nil {
		inner := fromWire(w.Inner)
		sc.Inner = &inner
	}
	if w.Key != nil {
		sc.Key = *w.Key
	}
	if w.Value != nil {
		sc.Value = *w.Value
	}
	if w.Boost != nil {
		sc.Boost = *w.Boost
	}
	return sc
}

func slicerToWire(s *policy.Spec) *wireSlicer {
	w := &wireSlicer{Type: s.Slicer, Entries: s.Entries, ScarcityBehavior: s.ScarcityBehavior}
	for _, q := range s.Quotas {
		wq := wireQuota{Kind: q.Kind, Cap: 100}
		if q.Require != nil {
			wq.Require = *q.Require
		}
		if q.Cap != nil {
			wq.Cap = *q.Cap
		}
		w.Quotas = append(w.Quotas, wq)
	}
	w.BucketSize = s.BucketSize
	if s.InnerSlicer != "" {
		w.Inner = &wireSlicer{Type: s.InnerSlicer, BucketSize: s.BucketSize}
		w.BucketSize = nil
	}
	return w
}

func slicerFromWire(s *policy.Spec, w *wireSlicer) error {
	s.Slicer, s.Entries, s.ScarcityBehavior, s.BucketSize = w.Type, w.Entries, w.ScarcityBehavior, w.BucketSize
	if w.Quotas != nil || w.Type == "quota" {
		s.Quotas = make([]policy.QuotaSpec, 0, len(w.Quotas))
	}
	if s.Entries == nil && (w.Type == "count_quota" || w.Type == "count_constrained_knapsack") {
		s.Entries = []policy.CountEntrySpec{}
	}
	for _, q := range w.Quotas {
		s.Quotas = append(s.Quotas, policy.QuotaSpec{Kind: q.Kind, Require: cupel.Ptr(q.Require), Cap: cupel.Ptr(q.Cap)})
	}
	if in := w.Inner; in != nil {
		if in.Inner != nil || in.Quotas != nil || in.Entries != nil || in.ScarcityBehavior != "" {
			return fmt.Errorf("%w: slicer.inner: an inner slicer %s with a configuration of its own: a policy names its inner slicer, which shares the bucket size", cupel.ErrInvalidConfig, in.Type)
		}
		s.InnerSlicer = in.Type
		if s.BucketSize == nil {
			s.BucketSize = in.BucketSize
		}
	}
	return nil
}
