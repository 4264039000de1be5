package casefile

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cupel-go/go-cupel/cupel/policy"
)

// This file writes a case as a vector file in the suite format of
// vectors/README.md: what the loader reads back into the same inputs and
// expectations. Explore saves what it finds with it.

// Marshal returns c (inputs and expectations) as a vector file whose test
// is named name; LoadCase reads it back into the same inputs and
// expectations.
func Marshal(c *Case, name string) ([]byte, error) {
	var w tomlWriter
	if err := writeCase(&w, c, name); err != nil {
		return nil, err
	}
	return w.buf.Bytes(), nil
}

// writeCase writes c (inputs and expectations) as a vector named name.
func writeCase(w *tomlWriter, c *Case, name string) error {
	in := &c.Input
	w.table("test")
	w.kv("name", name)
	w.kv("stage", c.Stage)
	if len(c.Covers) > 0 {
		w.kv("covers", c.Covers)
	}
	switch c.Stage {
	case StageScoring:
		if len(in.Scorers) != 1 {
			return fmt.Errorf("vector: scoring case without one scorer")
		}
		w.kv("scorer", in.Scorers[0].Type)
		if c.Expect.ConstructionError {
			w.kv("expect_construction_error", true)
		}
		w.blank()
		w.table("config")
		w.scorer("config", &in.Scorers[0], true)
	case StageSlicing:
		if in.Slicer == "" || in.Budget == nil {
			return fmt.Errorf("vector: slicing case without a slicer or budget")
		}
		w.kv("slicer", in.Slicer)
		w.blank()
		w.budget(in.Budget)
		w.table("config")
		w.slicer(&in.Spec)
	case StagePlacing:
		w.kv("placer", in.Placer)
	case StagePipeline:
		if len(in.Scorers) != 1 || in.Slicer == "" || in.Budget == nil {
			return fmt.Errorf("vector: pipeline case without one scorer, a slicer or a budget")
		}
		w.blank()
		w.budget(in.Budget)
		w.table("config")
		w.kv("slicer", in.Slicer)
		w.kv("placer", in.Placer)
		if in.Deduplication != nil {
			w.kv("deduplication", *in.Deduplication)
		}
		if in.OverflowStrategy != "" {
			w.kv("overflow_strategy", in.OverflowStrategy)
		}
		w.slicer(&in.Spec)
		// One entry: that scorer alone (a composite keeps its children).
		w.arrayTable("config.scorers")
		w.kv("type", in.Scorers[0].Type)
		w.kv("weight", Float(1))
		w.scorer("config.scorers", &in.Scorers[0], false)
	default:
		return fmt.Errorf("vector: unknown stage %q", c.Stage)
	}
	itemsKey := "items"
	if c.Stage == StageSlicing {
		itemsKey = "scored_items"
	}
	for i := range in.Items {
		w.item(itemsKey, &in.Items[i], c.Stage)
	}
	return w.expect(c)
}

// tomlWriter writes TOML. Keys of a table come before its sub-tables.
type tomlWriter struct {
	buf bytes.Buffer
}

func (w *tomlWriter) blank() { w.buf.WriteByte('\n') }

func (w *tomlWriter) table(path string) { fmt.Fprintf(&w.buf, "[%s]\n", path) }

func (w *tomlWriter) arrayTable(path string) { fmt.Fprintf(&w.buf, "\n[[%s]]\n", path) }

func (w *tomlWriter) kv(key string, v any) {
	w.buf.WriteString(tomlKey(key))
	w.buf.WriteString(" = ")
	w.buf.WriteString(tomlValue(v))
	w.buf.WriteByte('\n')
}

func tomlKey(k string) string {
	if k == "" {
		return `""`
	}
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return tomlString(k)
		}
	}
	return k
}

func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func tomlFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case f == 0 && math.Signbit(f):
		return "-0.0"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	return s
}

func tomlValue(v any) string {
	switch x := v.(type) {
	case string:
		return tomlString(x)
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return tomlFloat(x)
	case Float:
		return tomlFloat(float64(x))
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	case []string:
		parts := make([]string, len(x))
		for i, s := range x {
			parts[i] = tomlString(s)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = tomlKey(k) + " = " + tomlValue(x[k])
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	case map[string]int64:
		m := make(map[string]any, len(x))
		for k, n := range x {
			m[k] = n
		}
		return tomlValue(m)
	}
	panic(fmt.Sprintf("tomlValue: unexpected %T", v))
}

// scorer writes the keys of sc into the table at path (opened by the
// caller), then its sub-tables. A composite at the top of a scoring case
// lists its children under "scorers", elsewhere under "children".
func (w *tomlWriter) scorer(path string, sc *policy.ScorerSpec, top bool) {
	switch sc.Type {
	case "kind":
		w.kv("use_default_weights", usesDefaultWeights(sc))
	case "decay":
		if sc.ReferenceTime != nil {
			w.kv("reference_time", *sc.ReferenceTime)
		}
		if sc.NullTimestampScore != nil {
			w.kv("null_timestamp_score", *sc.NullTimestampScore)
		}
	case "metadata_trust":
		if sc.DefaultScore != nil {
			w.kv("default_score", *sc.DefaultScore)
		}
	case "metadata_key":
		w.kv("key", sc.Key)
		w.kv("value", sc.Value)
		w.kv("boost", sc.Boost)
	}
	switch sc.Type {
	case "kind":
		for _, kw := range sc.Weights {
			w.arrayTable(path + ".weights")
			w.kv("kind", string(kw.Kind))
			w.kv("weight", kw.Weight)
		}
	case "tag":
		for _, tw := range sc.TagWeights {
			w.arrayTable(path + ".tag_weights")
			w.kv("tag", tw.Tag)
			w.kv("weight", tw.Weight)
		}
	case "composite":
		key := path + ".children"
		if top {
			key = path + ".scorers"
		}
		for _, ch := range sc.Children {
			w.arrayTable(key)
			w.kv("type", ch.Type)
			if ch.Weight != nil {
				w.kv("weight", *ch.Weight)
			}
			w.scorer(key, &ch, false)
		}
	case "scaled":
		if inner := sc.Inner; inner != nil {
			w.blank()
			w.table(path + ".inner")
			w.kv("type", inner.Type)
			w.scorer(path+".inner", inner, false)
		}
	case "decay":
		if c := sc.Curve; c != nil {
			w.blank()
			w.table(path + ".curve")
			w.kv("type", c.Type)
			if c.HalfLifeSecs != nil {
				w.kv("half_life_secs", *c.HalfLifeSecs)
			}
			if c.MaxAgeSecs != nil {
				w.kv("max_age_secs", *c.MaxAgeSecs)
			}
			for _, win := range c.Windows {
				w.arrayTable(path + ".curve.windows")
				w.kv("max_age_secs", win.MaxAgeSecs)
				w.kv("score", win.Score)
			}
		}
	}
}

// slicer writes a slicer's keys into [config] (opened by the caller), then
// its quotas and entries. The format names the inner slicer only; it
// shares bucket_size.
func (w *tomlWriter) slicer(s *policy.Spec) {
	if s.InnerSlicer != "" {
		w.kv("inner_slicer", s.InnerSlicer)
	}
	if s.BucketSize != nil {
		w.kv("bucket_size", int64(*s.BucketSize))
	}
	if s.ScarcityBehavior != "" {
		w.kv("scarcity_behavior", s.ScarcityBehavior)
	}
	for _, q := range s.Quotas {
		w.arrayTable("config.quotas")
		w.kv("kind", string(q.Kind))
		if q.Require != nil {
			w.kv("require", *q.Require)
		}
		if q.Cap != nil {
			w.kv("cap", *q.Cap)
		}
	}
	for _, e := range s.Entries {
		w.arrayTable("config.entries")
		w.kv("kind", string(e.Kind))
		w.kv("require_count", int64(e.RequireCount))
		w.kv("cap_count", int64(e.CapCount))
	}
}

func (w *tomlWriter) budget(b *Budget) {
	w.table("budget")
	w.kv("max_tokens", b.MaxTokens)
	w.kv("target_tokens", b.TargetTokens)
	if b.OutputReserve != 0 {
		w.kv("output_reserve", b.OutputReserve)
	}
	if len(b.ReservedSlots) > 0 {
		w.kv("reserved_slots", b.ReservedSlots)
	}
	if b.EstimationSafetyMarginPercent != 0 || math.Signbit(float64(b.EstimationSafetyMarginPercent)) {
		w.kv("estimation_safety_margin_percent", b.EstimationSafetyMarginPercent)
	}
	w.blank()
}

func (w *tomlWriter) item(key string, it *Item, stage string) {
	w.arrayTable(key)
	w.kv("content", it.Content)
	w.kv("tokens", it.Tokens)
	if it.Kind != "Message" {
		w.kv("kind", it.Kind)
	}
	if it.Source != "Chat" {
		w.kv("source", it.Source)
	}
	if it.Priority != nil {
		w.kv("priority", *it.Priority)
	}
	if it.Tags != nil {
		w.kv("tags", it.Tags)
	}
	if it.Timestamp != nil {
		w.kv("timestamp", *it.Timestamp)
	}
	if it.FutureRelevanceHint != nil {
		w.kv("futureRelevanceHint", *it.FutureRelevanceHint)
	}
	if it.Pinned {
		w.kv("pinned", true)
	}
	if it.Metadata != nil {
		w.kv("metadata", it.Metadata)
	}
	if it.Score != nil && (stage == StageSlicing || stage == StagePlacing) {
		w.kv("score", *it.Score)
	}
}

func contents(refs []Ref) []string {
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.Content
	}
	return out
}

// expect writes c's expectations.
func (w *tomlWriter) expect(c *Case) error {
	e := &c.Expect
	if e.Epsilon != 0 && e.Epsilon != DefaultEpsilon {
		w.blank()
		w.table("tolerance")
		w.kv("score_epsilon", e.Epsilon)
	}
	if e.ConstructionError && c.Stage == StageScoring {
		return nil // stated in [test]
	}
	if e.Error != "" || e.ConstructionError {
		kind := e.Error
		if kind == "" {
			kind = KindInvalidConfig
		}
		w.blank()
		w.table("expected")
		w.kv("error", kind)
		return nil
	}
	switch c.Stage {
	case StageScoring:
		for _, s := range e.Scores {
			w.arrayTable("expected")
			w.ref(s.Ref)
			w.kv("score_approx", s.Score)
		}
	case StageSlicing:
		w.blank()
		w.table("expected")
		w.kv("selected_contents", contents(e.Selected))
		w.counts(e)
	case StagePlacing:
		w.blank()
		w.table("expected")
		w.kv("ordered_contents", contents(e.Ordered))
	case StagePipeline:
		for _, r := range e.Ordered {
			w.arrayTable("expected_output")
			w.ref(r)
		}
		if e.ShortfallCount != nil || e.CapExcludedCount != nil {
			w.blank()
			w.table("expected")
		}
		w.counts(e)
		if e.Overflow != nil {
			w.blank()
			w.table("expected.overflow")
			w.kv("tokens_over_budget", e.Overflow.TokensOverBudget)
		}
		if d := e.Diagnostics; d != nil {
			if d.TotalCandidates != nil || d.TotalTokensConsidered != nil {
				w.blank()
				w.table("expected.diagnostics.summary")
				if d.TotalCandidates != nil {
					w.kv("total_candidates", *d.TotalCandidates)
				}
				if d.TotalTokensConsidered != nil {
					w.kv("total_tokens_considered", *d.TotalTokensConsidered)
				}
			}
			w.entries("expected.diagnostics.included", "inclusion_reason", d.Included)
			w.entries("expected.diagnostics.excluded", "exclusion_reason", d.Excluded)
		}
	}
	return nil
}

// counts writes the count-slicer expectations into [expected].
func (w *tomlWriter) counts(e *Expect) {
	if e.ShortfallCount != nil {
		w.kv("shortfall_count", *e.ShortfallCount)
	}
	if e.CapExcludedCount != nil {
		w.kv("cap_excluded_count", *e.CapExcludedCount)
	}
	for _, s := range e.Shortfalls {
		w.arrayTable("expected.shortfalls")
		w.kv("kind", s.Kind)
		w.kv("required_count", s.RequiredCount)
		w.kv("satisfied_count", s.SatisfiedCount)
	}
}

func (w *tomlWriter) ref(r Ref) {
	if r.Index != nil {
		w.kv("index", *r.Index)
	}
	w.kv("content", r.Content)
}

func (w *tomlWriter) entries(path, reasonKey string, list []ExpectedDiagnosticItem) {
	for _, e := range list {
		w.arrayTable(path)
		w.ref(e.Ref)
		if e.Score != nil {
			w.kv("score_approx", *e.Score)
		}
		w.kv(reasonKey, e.Reason)
		keys := slices.Sorted(maps.Keys(e.Fields))
		for _, k := range keys {
			w.kv(k, e.Fields[k])
		}
	}
}
