package casefile

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/cupel-go/go-cupel/cupel/policy"
	"github.com/cupel-go/go-cupel/internal/jsonfloat"
	"github.com/cupel-go/go-cupel/internal/wirejson"
)

// Tiers and stages of the suite.
const (
	TierRequired = "required"
	TierOptional = "optional"

	StageScoring  = "scoring"
	StageSlicing  = "slicing"
	StagePlacing  = "placing"
	StagePipeline = "pipeline"
)

// Tiers lists the tiers in report order.
var Tiers = []string{TierRequired, TierOptional}

// Stages lists the stages in report order.
var Stages = []string{StageScoring, StageSlicing, StagePlacing, StagePipeline}

// Error kinds that a vector may expect and that an implementation reports
// in a rejected result.
const (
	KindPinnedExceedsBudget   = "pinned_exceeds_budget"
	KindOverflow              = "overflow"
	KindCountRequirementUnmet = "count_requirement_unmet"
	KindTableTooLarge         = "table_too_large"
	KindInvalidBudget         = "invalid_budget"
	KindInvalidConfig         = "invalid_config"
	KindInvalidItem           = "invalid_item"
)

// ErrorKinds lists every error kind of the protocol.
var ErrorKinds = []string{
	KindPinnedExceedsBudget, KindOverflow, KindCountRequirementUnmet,
	KindTableTooLarge, KindInvalidBudget, KindInvalidConfig, KindInvalidItem,
}

// Float is a float64 whose JSON form keeps non-finite values: it is the
// engine's codec, [jsonfloat.Float] (finite values are JSON numbers, NaN and the
// infinities the strings "NaN", "Infinity" and "-Infinity"; null is
// refused), so the protocol and the engine's JSON forms cannot disagree.
type Float = jsonfloat.Float

func parseNonFinite(s string) (float64, error) {
	var f Float
	if err := f.UnmarshalJSON([]byte(strconv.Quote(s))); err != nil {
		return 0, err
	}
	return float64(f), nil
}

// FloatPtr returns a pointer to Float(v).
func FloatPtr(v float64) *Float { f := Float(v); return &f }

// Case is one conformance case in canonical form. Input is what an
// implementation receives; Expect is what the runner compares against and
// is never sent.
type Case struct {
	// ID is the vector path relative to the suite root without ".toml".
	ID string `json:"id"`
	// Tier is "required" or "optional" (the first path element).
	Tier string `json:"tier"`
	// Stage is the stage from the path and [test].stage.
	Stage string `json:"stage"`
	// Name is [test].name.
	Name string `json:"name"`
	// Covers is [test].covers: the ids of the spec requirements the case
	// checks (package runner/requirement), as the file lists them. A case
	// covers a requirement only if an implementation that breaks the
	// requirement fails the case.
	Covers []string `json:"covers,omitempty"`
	// CoversLine is the 1-based line of [test] covers in File, 0 when the
	// file has none (lint names it).
	CoversLine int `json:"-"`
	// File is the vector path relative to the suite root.
	File string `json:"file"`
	// Input is the canonical input sent to implementations.
	Input Input `json:"input"`
	// Expect is the expected outcome.
	Expect Expect `json:"expect"`
	// UnknownKeys lists the keys of the file that the loader ignored.
	UnknownKeys []string `json:"unknown_keys,omitempty"`
	// Warnings are the unknown keys with their lines and, for a likely
	// misspelling, the key the loader would have read.
	Warnings []KeyWarning `json:"-"`
}

// KeyWarning is a key of a vector file that the loader ignored: often a
// misspelling (priorty for priority), which leaves the case testing
// something else than its author meant.
type KeyWarning struct {
	// File is the path relative to the suite root; Line is 1-based, 0
	// when unknown.
	File string
	Line int
	// Key is the dotted key path (items.priorty).
	Key string
	// Suggestion is the known key it most likely misspells, "" if none.
	Suggestion string
}

// String formats the warning as "file:line: unknown key K (did you mean S?)".
func (w KeyWarning) String() string {
	loc := w.File
	if w.Line > 0 {
		loc = fmt.Sprintf("%s:%d", w.File, w.Line)
	}
	s := fmt.Sprintf("%s: unknown key %s, ignored", loc, w.Key)
	if w.Suggestion != "" {
		s += fmt.Sprintf(" (did you mean %s?)", w.Suggestion)
	}
	return s
}

// Input is the canonical input of a case: the "case" object of a run
// message. Its configuration is the [policy.Spec] that go-cupel's
// policy files decode into, with what the case's stage uses set: Scorers
// holds the case's one scorer (a pipeline's several [[config.scorers]]
// are one composite of them), none for slicing and placing; Slicer and its
// keys the slicer, "" for scoring and placing; Placer the placer, "" for
// scoring and slicing; Deduplication and OverflowStrategy the pipeline's.
// The loader fills in the format's defaults, keeps an unknown component id
// as written, and reads the vectors' shorthands as the spec's keys (a
// composite's scorers as Children, a scaled scorer's inner_scorer as
// Inner: load.go is the one place that knows them). MarshalJSON and UnmarshalJSON translate it to and from
// the protocol's form (PROTOCOL.md): a composite's children are {weight,
// scorer} objects, the kind scorer's default weights a flag, and a quota
// slicer's inner slicer an object holding the bucket size.
type Input struct {
	policy.Spec
	// Budget is the budget of slicing and pipeline cases.
	Budget *Budget
	// Items are the input items in file order; Index is their position.
	Items []Item
}

// Item is an input item. Kind and Source always carry a value (the defaults
// "Message" and "Chat" filled in); absent optional fields are omitted.
type Item struct {
	Index               int            `json:"index"`
	Content             string         `json:"content"`
	Tokens              int64          `json:"tokens"`
	Kind                string         `json:"kind"`
	Source              string         `json:"source"`
	Priority            *int64         `json:"priority,omitempty"`
	Tags                []string       `json:"tags,omitempty"`
	Metadata            map[string]any `json:"metadata,omitempty"`
	Timestamp           *time.Time     `json:"timestamp,omitempty"`
	FutureRelevanceHint *Float         `json:"futureRelevanceHint,omitempty"`
	Pinned              bool           `json:"pinned,omitempty"`
	// Score is the pre-computed score of slicing and placing items.
	Score *Float `json:"score,omitempty"`
}

// MarshalJSON writes the timestamp as RFC 3339 UTC with nanoseconds as
// needed and non-finite metadata floats in their tagged form.
func (it Item) MarshalJSON() ([]byte, error) { return it.appendJSON(nil) }

// UnmarshalJSON reads the form MarshalJSON writes.
func (it *Item) UnmarshalJSON(b []byte) error {
	r := wirejson.NewReader(b)
	if it.readJSON(r, &wirejson.Strings{}); r.Done() {
		return nil
	}
	return it.unmarshalSlow(b)
}

// unmarshalSlow is UnmarshalJSON by wirejson.Strict, for what the fast
// reader (readJSON) does not accept.
func (it *Item) unmarshalSlow(b []byte) error {
	type plain Item
	var aux struct {
		plain
		Metadata map[string]json.RawMessage `json:"metadata,omitempty"`
	}
	if err := wirejson.Strict(b, &aux); err != nil {
		return err
	}
	*it = Item(aux.plain)
	if aux.Metadata != nil {
		it.Metadata = map[string]any{}
		for k, raw := range aux.Metadata {
			v, err := decodeMetadataValue(raw)
			if err != nil {
				return fmt.Errorf("metadata %q: %w", k, err)
			}
			it.Metadata[k] = v
		}
	}
	return nil
}

// MetadataFloat is the JSON form of a non-finite float metadata value:
// {"float":"NaN"}. Finite floats are plain JSON numbers and strings are
// JSON strings.
type MetadataFloat struct {
	Float string `json:"float"`
}

func decodeMetadataValue(raw json.RawMessage) (any, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	if m, ok := v.(map[string]any); ok {
		s, ok := m["float"].(string)
		if !ok || len(m) != 1 {
			return nil, fmt.Errorf("object metadata values must be {\"float\": \"NaN\"|\"Infinity\"|\"-Infinity\"}")
		}
		return parseNonFinite(s)
	}
	return v, nil
}

// Budget is a ContextBudget in the data model's camelCase names, defaults
// filled in.
type Budget struct {
	MaxTokens                     int64            `json:"maxTokens"`
	TargetTokens                  int64            `json:"targetTokens"`
	OutputReserve                 int64            `json:"outputReserve"`
	ReservedSlots                 map[string]int64 `json:"reservedSlots,omitempty"`
	EstimationSafetyMarginPercent Float            `json:"estimationSafetyMarginPercent"`
}

// Ref names an input item in an expectation: by Index when set, otherwise
// by Content. Resolved is the index the loader matched it to.
type Ref struct {
	Content  string `json:"content"`
	Index    *int   `json:"index,omitempty"`
	Resolved int    `json:"resolved"`
}

// Expect is the expected outcome of a case.
type Expect struct {
	// ConstructionError: building the scorer (or slicer) must fail.
	ConstructionError bool `json:"construction_error,omitempty"`
	// Error: the run must fail with this error kind.
	Error string `json:"error,omitempty"`
	// Scores: expected scores (scoring).
	Scores []ExpectedScore `json:"scores,omitempty"`
	// Epsilon is the score tolerance.
	Epsilon float64 `json:"epsilon"`
	// Selected: the expected selection (slicing), a multiset.
	Selected []Ref `json:"selected,omitempty"`
	// Ordered: the expected order (placing, pipeline output).
	Ordered []Ref `json:"ordered,omitempty"`
	// ShortfallCount and CapExcludedCount: count-slicer assertions.
	ShortfallCount   *int `json:"shortfall_count,omitempty"`
	CapExcludedCount *int `json:"cap_excluded_count,omitempty"`
	// Shortfalls, when non-nil, are compared in full and in order with the
	// run's shortfalls (the slicer's, or the pipeline result's).
	Shortfalls []Shortfall `json:"shortfalls,omitempty"`
	// ReportShortfalls (pipeline, the vector key
	// count_requirement_shortfalls), when non-nil, are compared in full
	// and in order with the selection report's shortfalls.
	ReportShortfalls []Shortfall `json:"count_requirement_shortfalls,omitempty"`
	// Overflow asserts the Proceed OverflowEvent.
	Overflow *Overflow `json:"overflow,omitempty"`
	// Diagnostics asserts the selection report.
	Diagnostics *ExpectedDiagnostics `json:"diagnostics,omitempty"`
}

// ExpectedScore is one expected score.
type ExpectedScore struct {
	Ref
	Score Float `json:"score"`
}

// Shortfall is a count-requirement shortfall.
type Shortfall struct {
	Kind           string `json:"kind"`
	RequiredCount  int64  `json:"required_count"`
	SatisfiedCount int64  `json:"satisfied_count"`
}

// Overflow is the Proceed strategy's OverflowEvent.
type Overflow struct {
	TokensOverBudget int64 `json:"tokens_over_budget"`
}

// ExpectedDiagnostics asserts a selection report. A nil list is not
// compared; a non-nil list is compared in full and in order.
type ExpectedDiagnostics struct {
	TotalCandidates       *int64                   `json:"total_candidates,omitempty"`
	TotalTokensConsidered *int64                   `json:"total_tokens_considered,omitempty"`
	Included              []ExpectedDiagnosticItem `json:"included"`
	Excluded              []ExpectedDiagnosticItem `json:"excluded"`
}

// ExpectedDiagnosticItem is one expected included or excluded entry. Fields holds
// every other key the entry states (reason fields), compared with the
// actual reason's field of the same name.
type ExpectedDiagnosticItem struct {
	Ref
	Score  *Float         `json:"score,omitempty"`
	Reason string         `json:"reason"`
	Fields map[string]any `json:"fields,omitempty"`
}
