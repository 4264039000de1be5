package policy

import (
	"time"

	"github.com/cupel-go/go-cupel/cupel"
)

// Spec is a declarative, serialisable description of a [cupel.Policy]: the
// built-in scorers, slicer and placer with their full configuration, the
// deduplication switch and the overflow strategy. [Decode] reads it from a
// TOML or JSON file; encoding/json and github.com/BurntSushi/toml write it.
//
// Its keys are those of a conformance vector's [config] table (spec
// chapter 43, Test vector format, with the keys vectors/README.md lists),
// so the [config] of a pipeline vector is a policy file as it stands:
//
//	slicer = "knapsack"
//	bucket_size = 100
//	placer = "u-shaped"
//	overflow_strategy = "throw"
//
//	[[scorers]]
//	type = "recency"
//	weight = 3.0
//
//	[[scorers]]
//	type = "decay"
//	weight = 1.0
//	curve = { type = "exponential", half_life_secs = 86400.0 }
//
// One [[scorers]] entry is that scorer alone (its weight, if given, is not
// used); two or more are a composite scorer of them with their weights.
// The slicer's keys sit beside its name, as in a vector. A scoring vector's
// [config] is one scorer's table: it becomes a policy file as the only
// [[scorers]] entry, with the type of its [test] scorer; a slicing vector's
// [config] needs the slicer = "..." of its [test]. A spec has one key for
// each thing, and so not the vectors' two shorthands (the conformance
// runner's loader, runner/casefile, reads them): a composite's children
// are children, never scorers, and a scaled scorer's inner scorer is its
// inner table, inner = { type = "kind" } for a vector's
// inner_scorer = "kind". A decay scorer's reference_time fixes its clock;
// decay scorers without one read the clock of [WithClock].
//
// Beyond a vector's keys a policy file has table_limit (a knapsack's table
// cell limit). [Spec.Build] validates it and returns the cupel.Policy;
// [Of] turns a cupel.Policy of built-in components back into a spec, so
// a spec round-trips losslessly.
type Spec struct {
	// Scorers are the policy's scorers: one is that scorer alone, two or
	// more a composite of them with their weights. None is a composite of
	// no children, which is invalid.
	Scorers []ScorerSpec `json:"scorers" toml:"scorers"`

	// Slicer is one of greedy, knapsack, quota, count_quota,
	// count_constrained_knapsack; the keys below configure it.
	Slicer string `json:"slicer" toml:"slicer"`
	// BucketSize is the bucket size of a knapsack (default 100): the
	// knapsack slicer's, count_constrained_knapsack's, or an inner
	// knapsack's. Zero is invalid.
	BucketSize *int `json:"bucket_size,omitempty" toml:"bucket_size,omitempty"`
	// TableLimit is that knapsack's table cell limit (default 50,000,000);
	// not a vector key.
	TableLimit int64 `json:"table_limit,omitempty" toml:"table_limit,omitempty,omitzero"`
	// InnerSlicer is the inner slicer of quota and count_quota: "greedy"
	// (the default) or "knapsack".
	InnerSlicer string `json:"inner_slicer,omitempty" toml:"inner_slicer,omitempty"`
	// Quotas are a quota slicer's percentages.
	Quotas []QuotaSpec `json:"quotas,omitempty" toml:"quotas,omitempty"`
	// Entries are a count slicer's count quotas.
	Entries []CountEntrySpec `json:"entries,omitempty" toml:"entries,omitempty"`
	// ScarcityBehavior is a count slicer's "degrade" (the default) or "throw".
	ScarcityBehavior string `json:"scarcity_behavior,omitempty" toml:"scarcity_behavior,omitempty"`

	// Placer is "chronological" or "u-shaped".
	Placer string `json:"placer" toml:"placer"`
	// Deduplication defaults to true.
	Deduplication *bool `json:"deduplication,omitempty" toml:"deduplication,omitempty"`
	// OverflowStrategy is "throw" (the default), "truncate" or "proceed".
	OverflowStrategy string `json:"overflow_strategy,omitempty" toml:"overflow_strategy,omitempty"`
}

// ScorerSpec describes one built-in scorer: a vector's scorer table. Type
// is one of recency, priority, kind, tag, frequency, reflexive, composite,
// scaled, decay, metadata_trust, metadata_key; only the keys of that type
// may be set.
type ScorerSpec struct {
	Type string `json:"type" toml:"type"`
	// Weight is the weight of a composite's child.
	Weight *Float `json:"weight,omitempty" toml:"weight,omitempty"`

	// UseDefaultWeights (kind) selects the default weights; they are also
	// used when neither it nor Weights is given. false without Weights
	// weighs every kind 0.
	UseDefaultWeights *bool `json:"use_default_weights,omitempty" toml:"use_default_weights,omitempty"`
	// Weights are a kind scorer's weights.
	Weights []KindWeightSpec `json:"weights,omitempty" toml:"weights,omitempty"`
	// TagWeights are a tag scorer's weights.
	TagWeights []TagWeightSpec `json:"tag_weights,omitempty" toml:"tag_weights,omitempty"`
	// Children are a composite's weighted children.
	Children []ScorerSpec `json:"children,omitempty" toml:"children,omitempty"`
	// Inner is a scaled scorer's inner scorer.
	Inner *ScorerSpec `json:"inner,omitempty" toml:"inner,omitempty"`
	// ReferenceTime fixes a decay scorer's clock at this instant (a
	// vector's injected clock); without it the scorer reads the clock of
	// [WithClock].
	ReferenceTime *time.Time `json:"reference_time,omitempty" toml:"reference_time,omitempty"`
	// NullTimestampScore is a decay scorer's score for items without a
	// timestamp (default 0.5).
	NullTimestampScore *Float `json:"null_timestamp_score,omitempty" toml:"null_timestamp_score,omitempty"`
	// Curve is a decay scorer's curve.
	Curve *CurveSpec `json:"curve,omitempty" toml:"curve,omitempty"`
	// DefaultScore is a metadata_trust scorer's default (default 0.5).
	DefaultScore *Float `json:"default_score,omitempty" toml:"default_score,omitempty"`
	// Key, Value and Boost configure a metadata_key scorer.
	Key   string `json:"key,omitempty" toml:"key,omitempty"`
	Value string `json:"value,omitempty" toml:"value,omitempty"`
	Boost Float  `json:"boost,omitempty" toml:"boost,omitempty,omitzero"`
}

// KindWeightSpec is one kind scorer weight.
type KindWeightSpec struct {
	Kind   cupel.ContextKind `json:"kind" toml:"kind"`
	Weight Float             `json:"weight" toml:"weight"`
}

// TagWeightSpec is one tag scorer weight.
type TagWeightSpec struct {
	Tag    string `json:"tag" toml:"tag"`
	Weight Float  `json:"weight" toml:"weight"`
}

// CurveSpec describes a decay curve: Type "exponential" (HalfLifeSecs),
// "window" (MaxAgeSecs) or "step" (Windows). Ages are seconds, rounded to
// the nanosecond.
type CurveSpec struct {
	Type         string       `json:"type" toml:"type"`
	HalfLifeSecs *Float       `json:"half_life_secs,omitempty" toml:"half_life_secs,omitempty"`
	MaxAgeSecs   *Float       `json:"max_age_secs,omitempty" toml:"max_age_secs,omitempty"`
	Windows      []WindowSpec `json:"windows,omitempty" toml:"windows,omitempty"`
}

// WindowSpec is one window of a step curve; MaxAgeSecs is in seconds.
type WindowSpec struct {
	MaxAgeSecs Float `json:"max_age_secs" toml:"max_age_secs"`
	Score      Float `json:"score" toml:"score"`
}

// QuotaSpec is one kind's quota percentages; an absent Require is 0 and an
// absent Cap is 100.
type QuotaSpec struct {
	Kind    cupel.ContextKind `json:"kind" toml:"kind"`
	Require *Float            `json:"require,omitempty" toml:"require,omitempty"`
	Cap     *Float            `json:"cap,omitempty" toml:"cap,omitempty"`
}

// CountEntrySpec is one kind's count quota.
type CountEntrySpec struct {
	Kind         cupel.ContextKind `json:"kind" toml:"kind"`
	RequireCount int               `json:"require_count" toml:"require_count"`
	CapCount     int               `json:"cap_count" toml:"cap_count"`
}
