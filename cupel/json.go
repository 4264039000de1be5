package cupel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/cupel-go/go-cupel/internal/jsonfloat"
)

// JSON wire formats (ruling 23). Items and budgets use the data
// model's camelCase names; reports, events, reasons and shortfalls use the
// spec's snake_case names. Absent optional fields are omitted, never null.
// Timestamps are RFC 3339 in UTC. JSON has no NaN or infinities: such float
// values are written as the strings "NaN", "Infinity" and "-Infinity" and
// read back from them.

// jsonFloat is the module's one JSON codec for floats.
type jsonFloat = jsonfloat.Float

type itemJSON struct {
	Content             string         `json:"content"`
	Tokens              int            `json:"tokens"`
	Kind                ContextKind    `json:"kind,omitempty"`
	Source              ContextSource  `json:"source,omitempty"`
	Priority            *int           `json:"priority,omitempty"`
	Tags                []string       `json:"tags,omitempty"`
	Metadata            map[string]any `json:"metadata,omitempty"`
	Timestamp           *string        `json:"timestamp,omitempty"`
	FutureRelevanceHint *jsonFloat     `json:"futureRelevanceHint,omitempty"`
	Pinned              bool           `json:"pinned,omitempty"`
	OriginalTokens      *int           `json:"originalTokens,omitempty"`
}

// MarshalJSON encodes the item with the data model's field names.
func (it *ContextItem) MarshalJSON() ([]byte, error) {
	j := itemJSON{
		Content:  it.content,
		Tokens:   it.tokens,
		Kind:     it.kind,
		Source:   it.source,
		Tags:     it.tags,
		Metadata: it.metadata,
		Pinned:   it.pinned,
	}
	if it.hasPriority {
		j.Priority = &it.priority
	}
	if it.hasTimestamp {
		s := it.timestamp.UTC().Format(time.RFC3339Nano)
		j.Timestamp = &s
	}
	if it.hasHint {
		h := jsonFloat(it.hint)
		j.FutureRelevanceHint = &h
	}
	if it.hasOriginal {
		j.OriginalTokens = &it.originalTokens
	}
	return json.Marshal(j)
}

// UnmarshalJSON decodes and validates an item, as NewItem would.
func (it *ContextItem) UnmarshalJSON(b []byte) error {
	var j itemJSON
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&j); err != nil {
		return fmt.Errorf("cupel: decoding ContextItem: %w", err)
	}
	spec := ItemSpec{
		Content:        j.Content,
		Tokens:         j.Tokens,
		Kind:           j.Kind,
		Source:         j.Source,
		Priority:       j.Priority,
		Tags:           j.Tags,
		Metadata:       numbersToFloats(j.Metadata),
		Pinned:         j.Pinned,
		OriginalTokens: j.OriginalTokens,
	}
	if j.Timestamp != nil {
		t, err := time.Parse(time.RFC3339Nano, *j.Timestamp)
		if err != nil {
			return invalidItem("timestamp", *j.Timestamp, "must be an RFC 3339 date-time")
		}
		spec.Timestamp = &t
	}
	if j.FutureRelevanceHint != nil {
		spec.FutureRelevanceHint = Ptr(float64(*j.FutureRelevanceHint))
	}
	n, err := NewItem(spec)
	if err != nil {
		return err
	}
	*it = *n
	return nil
}

// numbersToFloats turns the json.Number values of decoded metadata into
// float64, the type MetadataTrustScorer reads (ruling 20).
func numbersToFloats(m map[string]any) map[string]any {
	for k, v := range m {
		if n, ok := v.(json.Number); ok {
			if f, err := n.Float64(); err == nil {
				m[k] = f
			} else {
				m[k] = n.String()
			}
		}
	}
	return m
}

type budgetJSON struct {
	MaxTokens                     int                 `json:"maxTokens"`
	TargetTokens                  int                 `json:"targetTokens"`
	OutputReserve                 int                 `json:"outputReserve,omitempty"`
	ReservedSlots                 map[ContextKind]int `json:"reservedSlots,omitempty"`
	EstimationSafetyMarginPercent float64             `json:"estimationSafetyMarginPercent,omitempty"`
}

// MarshalJSON encodes the budget with the data model's field names.
func (b ContextBudget) MarshalJSON() ([]byte, error) {
	return json.Marshal(budgetJSON{
		MaxTokens:                     b.maxTokens,
		TargetTokens:                  b.targetTokens,
		OutputReserve:                 b.outputReserve,
		ReservedSlots:                 b.ReservedSlots(),
		EstimationSafetyMarginPercent: b.marginPercent,
	})
}

// UnmarshalJSON decodes and validates a budget, as NewBudget would.
func (b *ContextBudget) UnmarshalJSON(data []byte) error {
	var j budgetJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return fmt.Errorf("cupel: decoding ContextBudget: %w", err)
	}
	nb, err := NewBudget(BudgetSpec(j))
	if err != nil {
		return err
	}
	*b = nb
	return nil
}

// exclusionFields lists, per known variant, the JSON fields it carries.
var exclusionFields = map[ExclusionVariant][]string{
	ExclusionBudgetExceeded:        {"item_tokens", "available_tokens"},
	ExclusionScoredTooLow:          {"score", "threshold"},
	ExclusionDeduplicated:          {"deduplicated_against"},
	ExclusionQuotaCapExceeded:      {"kind", "cap", "actual"},
	ExclusionQuotaRequireDisplaced: {"displaced_by_kind"},
	ExclusionNegativeTokens:        {"tokens"},
	ExclusionPinnedOverride:        {"displaced_by"},
	ExclusionFiltered:              {"filter_name"},
	ExclusionCountCapExceeded:      {"kind", "cap", "count"},
}

// exclusionField returns the JSON value of one of r's fields.
func (r ExclusionReason) exclusionField(name string) any {
	switch name {
	case "item_tokens", "cap", "tokens":
		return int(r.a)
	case "available_tokens", "actual", "count":
		return int(r.b)
	case "score":
		return jsonFloat(r.Score())
	case "threshold":
		return jsonFloat(r.Threshold())
	}
	return r.s // deduplicated_against, kind, displaced_by_kind, displaced_by, filter_name
}

// setExclusionField decodes one JSON field into r.
func (r *ExclusionReason) setExclusionField(name string, raw json.RawMessage) error {
	switch name {
	case "item_tokens", "cap", "tokens", "available_tokens", "actual", "count":
		// Decoded as int, so that a value out of int's range is an error
		// on 32-bit platforms too, not a truncated accessor.
		var v int
		if err := json.Unmarshal(raw, &v); err != nil {
			return err
		}
		if name == "item_tokens" || name == "cap" || name == "tokens" {
			r.a = int64(v)
		} else {
			r.b = int64(v)
		}
		return nil
	case "score", "threshold":
		var f jsonFloat
		if err := json.Unmarshal(raw, &f); err != nil {
			return err
		}
		bits := int64(math.Float64bits(float64(f)))
		if name == "score" {
			r.a = bits
		} else {
			r.b = bits
		}
		return nil
	}
	return json.Unmarshal(raw, &r.s)
}

// MarshalJSON writes the reason envelope: {"reason":"<Variant>", ...fields}
// with only the variant's own fields (spec chapter 37 (Exclusion Reasons)).
// An unknown variant is written with the fields it was read with.
func (r ExclusionReason) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(`{"reason":`)
	name, _ := json.Marshal(string(r.Variant))
	buf.Write(name)
	fields, known := exclusionFields[r.Variant]
	if !known {
		if r.s != "" {
			var raw map[string]json.RawMessage
			if err := json.Unmarshal([]byte(r.s), &raw); err != nil {
				return nil, fmt.Errorf("cupel: ExclusionReason %s: fields are not a JSON object: %w", r.Variant, err)
			}
			keys := make([]string, 0, len(raw))
			for k := range raw {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				kb, _ := json.Marshal(k)
				buf.WriteByte(',')
				buf.Write(kb)
				buf.WriteByte(':')
				buf.Write(raw[k])
			}
		}
		buf.WriteByte('}')
		return buf.Bytes(), nil
	}
	for _, f := range fields {
		b, err := json.Marshal(r.exclusionField(f))
		if err != nil {
			return nil, err
		}
		buf.WriteString(`,"`)
		buf.WriteString(f)
		buf.WriteString(`":`)
		buf.Write(b)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// UnmarshalJSON reads a reason envelope. An unknown variant is kept with its
// name and raw fields (ruling 9).
func (r *ExclusionReason) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("cupel: decoding ExclusionReason: %w", err)
	}
	var name string
	if err := json.Unmarshal(raw["reason"], &name); err != nil || name == "" {
		return fmt.Errorf("cupel: decoding ExclusionReason: missing \"reason\" discriminator")
	}
	*r = ExclusionReason{Variant: ExclusionVariant(name)}
	delete(raw, "reason")
	fields, known := exclusionFields[r.Variant]
	if !known {
		if len(raw) > 0 {
			rest, err := json.Marshal(raw)
			if err != nil {
				return err
			}
			r.s = string(rest)
		}
		return nil
	}
	for _, f := range fields {
		v, ok := raw[f]
		if !ok {
			continue
		}
		if err := r.setExclusionField(f, v); err != nil {
			return fmt.Errorf("cupel: decoding %s.%s: %w", name, f, err)
		}
	}
	return nil
}

type reasonEnvelope struct {
	Reason string `json:"reason"`
}

type includedJSON struct {
	Item   *ContextItem   `json:"item"`
	Score  jsonFloat      `json:"score"`
	Reason reasonEnvelope `json:"reason"`
}

// MarshalJSON encodes {"item", "score", "reason": {"reason": ...}}.
func (i IncludedItem) MarshalJSON() ([]byte, error) {
	return json.Marshal(includedJSON{i.Item, jsonFloat(i.Score), reasonEnvelope{string(i.Reason)}})
}

// UnmarshalJSON decodes an included item; unknown reasons keep their name.
func (i *IncludedItem) UnmarshalJSON(b []byte) error {
	var j includedJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return fmt.Errorf("cupel: decoding IncludedItem: %w", err)
	}
	*i = IncludedItem{Item: j.Item, Score: float64(j.Score), Reason: InclusionReason(j.Reason.Reason)}
	return nil
}

type excludedJSON struct {
	Item   *ContextItem    `json:"item"`
	Score  jsonFloat       `json:"score"`
	Reason ExclusionReason `json:"reason"`
}

// MarshalJSON encodes {"item", "score", "reason": {...}}.
func (e ExcludedItem) MarshalJSON() ([]byte, error) {
	return json.Marshal(excludedJSON{e.Item, jsonFloat(e.Score), e.Reason})
}

// UnmarshalJSON decodes an excluded item.
func (e *ExcludedItem) UnmarshalJSON(b []byte) error {
	var j excludedJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return fmt.Errorf("cupel: decoding ExcludedItem: %w", err)
	}
	*e = ExcludedItem{Item: j.Item, Score: float64(j.Score), Reason: j.Reason}
	return nil
}

type eventJSON struct {
	Stage      PipelineStage `json:"stage"`
	DurationMs jsonFloat     `json:"duration_ms"`
	ItemCount  int           `json:"item_count"`
	Message    string        `json:"message,omitempty"`
}

// MarshalJSON encodes the spec's event fields; an item event's message is
// rendered from its decision when it has none (TraceEvent.Text).
func (e TraceEvent) MarshalJSON() ([]byte, error) {
	return json.Marshal(eventJSON{e.Stage, jsonFloat(e.DurationMs), e.ItemCount, e.Text()})
}

// UnmarshalJSON decodes an event; unknown stages keep their name.
func (e *TraceEvent) UnmarshalJSON(b []byte) error {
	var j eventJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return fmt.Errorf("cupel: decoding TraceEvent: %w", err)
	}
	*e = TraceEvent{Stage: j.Stage, DurationMs: float64(j.DurationMs), ItemCount: j.ItemCount, Message: j.Message}
	return nil
}

type reportJSON struct {
	Events                     []TraceEvent                `json:"events"`
	Included                   []IncludedItem              `json:"included"`
	Excluded                   []ExcludedItem              `json:"excluded"`
	TotalCandidates            int                         `json:"total_candidates"`
	TotalTokensConsidered      int                         `json:"total_tokens_considered"`
	CountRequirementShortfalls []CountRequirementShortfall `json:"count_requirement_shortfalls,omitempty"`
}

// MarshalJSON encodes the report in the spec's wire format. The three lists
// are always present (empty rather than null).
func (r *SelectionReport) MarshalJSON() ([]byte, error) {
	j := reportJSON{
		Events:                     r.Events,
		Included:                   r.Included,
		Excluded:                   r.Excluded,
		TotalCandidates:            r.TotalCandidates,
		TotalTokensConsidered:      r.TotalTokensConsidered,
		CountRequirementShortfalls: r.CountRequirementShortfalls,
	}
	if j.Events == nil {
		j.Events = []TraceEvent{}
	}
	if j.Included == nil {
		j.Included = []IncludedItem{}
	}
	if j.Excluded == nil {
		j.Excluded = []ExcludedItem{}
	}
	return json.Marshal(j)
}

// UnmarshalJSON decodes a report, including one written by another
// implementation: unknown stages, reasons and fields do not fail (ruling 9).
func (r *SelectionReport) UnmarshalJSON(b []byte) error {
	var j reportJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return fmt.Errorf("cupel: decoding SelectionReport: %w", err)
	}
	*r = SelectionReport(j)
	return nil
}

type overflowJSON struct {
	TokensOverBudget int            `json:"tokens_over_budget"`
	OverflowingItems []*ContextItem `json:"overflowing_items"`
	Budget           ContextBudget  `json:"budget"`
}

// MarshalJSON encodes the event with the spec's field names.
func (e OverflowEvent) MarshalJSON() ([]byte, error) {
	items := e.OverflowingItems
	if items == nil {
		items = []*ContextItem{}
	}
	return json.Marshal(overflowJSON{e.TokensOverBudget, items, e.Budget})
}

// UnmarshalJSON decodes an overflow event.
func (e *OverflowEvent) UnmarshalJSON(b []byte) error {
	var j overflowJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return fmt.Errorf("cupel: decoding OverflowEvent: %w", err)
	}
	*e = OverflowEvent(j)
	return nil
}
