package cupel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"time"
)

// JSON wire formats (CLARIFICATIONS 23). Items and budgets use the data
// model's camelCase names; reports, events, reasons and shortfalls use the
// spec's snake_case names. Absent optional fields are omitted, never null.
// Timestamps are RFC 3339 in UTC. JSON has no NaN or infinities: such float
// values are written as the strings "NaN", "Infinity" and "-Infinity" and
// read back from them.

// jsonFloat is a float64 that survives JSON when it is not finite.
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	switch {
	case math.IsNaN(v):
		return []byte(`"NaN"`), nil
	case math.IsInf(v, 1):
		return []byte(`"Infinity"`), nil
	case math.IsInf(v, -1):
		return []byte(`"-Infinity"`), nil
	}
	return strconv.AppendFloat(nil, v, 'g', -1, 64), nil
}

func (f *jsonFloat) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		switch s {
		case "NaN":
			*f = jsonFloat(math.NaN())
		case "Infinity", "+Infinity":
			*f = jsonFloat(math.Inf(1))
		case "-Infinity":
			*f = jsonFloat(math.Inf(-1))
		default:
			return fmt.Errorf("cupel: invalid number %q", s)
		}
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = jsonFloat(v)
	return nil
}

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
// float64, the type MetadataTrustScorer reads (CLARIFICATIONS 20).
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

// Known reports whether r is one of the variants this package defines.
func (r ExclusionReason) Known() bool { _, ok := exclusionFields[r.Variant]; return ok }

func (r *ExclusionReason) field(name string) any {
	switch name {
	case "item_tokens":
		return &r.ItemTokens
	case "available_tokens":
		return &r.AvailableTokens
	case "score":
		return (*jsonFloat)(&r.Score)
	case "threshold":
		return (*jsonFloat)(&r.Threshold)
	case "deduplicated_against":
		return &r.DeduplicatedAgainst
	case "kind":
		return &r.Kind
	case "cap":
		return &r.Cap
	case "actual":
		return &r.Actual
	case "count":
		return &r.Count
	case "displaced_by_kind":
		return &r.DisplacedByKind
	case "tokens":
		return &r.Tokens
	case "displaced_by":
		return &r.DisplacedBy
	case "filter_name":
		return &r.FilterName
	}
	return nil
}

// MarshalJSON writes the reason envelope: {"reason":"<Variant>", ...fields}
// with only the variant's own fields (spec chapter "Exclusion Reasons").
func (r ExclusionReason) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(`{"reason":`)
	name, _ := json.Marshal(string(r.Variant))
	buf.Write(name)
	write := func(k string, v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		buf.WriteByte(',')
		kb, _ := json.Marshal(k)
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(b)
		return nil
	}
	if fields, ok := exclusionFields[r.Variant]; ok {
		for _, f := range fields {
			if err := write(f, r.field(f)); err != nil {
				return nil, err
			}
		}
	} else {
		keys := make([]string, 0, len(r.Fields))
		for k := range r.Fields {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if err := write(k, r.Fields[k]); err != nil {
				return nil, err
			}
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// UnmarshalJSON reads a reason envelope. An unknown variant is kept with its
// name and raw fields (CLARIFICATIONS 9).
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
	if _, ok := exclusionFields[r.Variant]; !ok {
		if len(raw) > 0 {
			r.Fields = raw
		}
		return nil
	}
	for k, v := range raw {
		dst := r.field(k)
		if dst == nil {
			continue
		}
		if err := json.Unmarshal(v, dst); err != nil {
			return fmt.Errorf("cupel: decoding %s.%s: %w", name, k, err)
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
// implementation: unknown stages, reasons and fields do not fail (CLARIFICATIONS 9).
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
