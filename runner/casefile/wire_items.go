package casefile

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/cupel-go/go-cupel/internal/wirejson"
)

// This file writes and reads a case's items (and budget) without
// reflection: they are most of a run message's bytes, and explore sends
// thousands of messages a second. Item's MarshalJSON and UnmarshalJSON
// and Input's are these functions; the bytes are encoding/json's (the
// tests compare them with it), and an input the fast reader does not
// accept is read again by wirejson.Strict (encoding/json, keys exactly).

// appendJSON appends the JSON of it: the fields in declaration order, the
// timestamp as RFC 3339 UTC with nanoseconds as needed, and non-finite
// metadata floats in their tagged form (MetadataFloat).
func (it *Item) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"index":`...)
	b = strconv.AppendInt(b, int64(it.Index), 10)
	b = append(b, `,"content":`...)
	b = wirejson.AppendString(b, it.Content)
	b = append(b, `,"tokens":`...)
	b = strconv.AppendInt(b, it.Tokens, 10)
	b = append(b, `,"kind":`...)
	b = wirejson.AppendString(b, it.Kind)
	b = append(b, `,"source":`...)
	b = wirejson.AppendString(b, it.Source)
	if it.Priority != nil {
		b = append(b, `,"priority":`...)
		b = strconv.AppendInt(b, *it.Priority, 10)
	}
	if len(it.Tags) > 0 {
		b = append(b, `,"tags":[`...)
		for i, t := range it.Tags {
			if i > 0 {
				b = append(b, ',')
			}
			b = wirejson.AppendString(b, t)
		}
		b = append(b, ']')
	}
	if it.FutureRelevanceHint != nil {
		b = append(b, `,"futureRelevanceHint":`...)
		b = wirejson.AppendFloat(b, *it.FutureRelevanceHint)
	}
	if it.Pinned {
		b = append(b, `,"pinned":true`...)
	}
	if it.Score != nil {
		b = append(b, `,"score":`...)
		b = wirejson.AppendFloat(b, *it.Score)
	}
	if it.Timestamp != nil {
		b = append(b, `,"timestamp":"`...)
		b = it.Timestamp.UTC().AppendFormat(b, time.RFC3339Nano)
		b = append(b, '"')
	}
	if len(it.Metadata) > 0 {
		b = append(b, `,"metadata":`...)
		var err error
		if b, err = appendMetadata(b, it.Metadata); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendMetadata appends a metadata object: keys sorted, a non-finite float
// as {"float":"NaN"} (MetadataFloat), other values as encoding/json writes
// them.
func appendMetadata(b []byte, m map[string]any) ([]byte, error) {
	var buf [8]string
	keys := buf[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = wirejson.AppendString(b, k)
		b = append(b, ':')
		switch v := m[k].(type) {
		case string:
			b = wirejson.AppendString(b, v)
		case bool:
			b = strconv.AppendBool(b, v)
		case float64:
			if math.IsNaN(v) || math.IsInf(v, 0) {
				s, _ := Float(v).MarshalJSON()
				b = append(b, `{"float":`...)
				b = append(b, s...)
				b = append(b, '}')
				break
			}
			s, err := json.Marshal(v)
			if err != nil {
				return nil, err
			}
			b = append(b, s...)
		default:
			s, err := json.Marshal(v)
			if err != nil {
				return nil, err
			}
			b = append(b, s...)
		}
	}
	return append(b, '}'), nil
}

// itemValues holds the values an item's pointers point to: one allocation
// for the four.
type itemValues struct {
	priority  int64
	timestamp time.Time
	hint      Float
	score     Float
}

// readJSON reads an item as UnmarshalJSON does, or fails r. Its kind,
// source, tags and metadata strings come from strs.
func (it *Item) readJSON(r *wirejson.Reader, strs *wirejson.Strings) {
	*it = Item{}
	var vals *itemValues
	values := func() *itemValues {
		if vals == nil {
			vals = new(itemValues)
		}
		return vals
	}
	r.Object(func(key []byte) {
		switch string(key) {
		case "index":
			it.Index = int(r.Int(strconv.IntSize))
		case "content":
			it.Content = r.String()
		case "tokens":
			it.Tokens = r.Int(64)
		case "kind":
			it.Kind = r.StringIn(strs)
		case "source":
			it.Source = r.StringIn(strs)
		case "priority":
			v := values()
			v.priority = r.Int(64)
			it.Priority = &v.priority
		case "tags":
			it.Tags = []string{}
			r.Array(func() { it.Tags = append(it.Tags, r.StringIn(strs)) })
		case "futureRelevanceHint":
			v := values()
			v.hint = r.Float()
			it.FutureRelevanceHint = &v.hint
		case "pinned":
			it.Pinned = r.Bool()
		case "score":
			v := values()
			v.score = r.Float()
			it.Score = &v.score
		case "timestamp":
			v := values()
			if raw := r.RawString(); r.OK() && v.timestamp.UnmarshalJSON(raw) != nil {
				r.Fail()
			}
			it.Timestamp = &v.timestamp
		case "metadata":
			it.Metadata = wirejson.Map(r, strs, func() any { return readMetadataValue(r, strs) })
		default:
			r.Fail()
		}
	})
}

// readMetadataValue reads a string, number or boolean value, or a tagged
// non-finite float; others fail r (decodeMetadataValue reads them).
func readMetadataValue(r *wirejson.Reader, strs *wirejson.Strings) any {
	if r.Peek() == '{' {
		var v float64
		var n int
		r.Object(func(key []byte) {
			n++
			if string(key) != "float" || n > 1 {
				r.Fail()
				return
			}
			s := r.String()
			if !r.OK() {
				return
			}
			var err error
			if v, err = parseNonFinite(s); err != nil {
				r.Fail()
			}
		})
		if n != 1 {
			r.Fail()
		}
		return v
	}
	if r.Peek() == '"' {
		return r.StringIn(strs)
	}
	return r.Scalar()
}

// readBudget reads a budget as encoding/json does, or fails r.
func readBudget(r *wirejson.Reader) *Budget {
	b := &Budget{}
	r.Object(func(key []byte) {
		switch string(key) {
		case "maxTokens":
			b.MaxTokens = r.Int(64)
		case "targetTokens":
			b.TargetTokens = r.Int(64)
		case "outputReserve":
			b.OutputReserve = r.Int(64)
		case "reservedSlots":
			b.ReservedSlots = wirejson.Map(r, &wirejson.Strings{}, func() int64 { return r.Int(64) })
		case "estimationSafetyMarginPercent":
			b.EstimationSafetyMarginPercent = r.Float()
		default:
			r.Fail()
		}
	})
	return b
}

// readItems reads the items array (null is nil, as encoding/json reads it).
func readItems(r *wirejson.Reader) []Item {
	if r.Null() {
		return nil
	}
	items := make([]Item, 0, 8)
	var strs wirejson.Strings
	r.Array(func() {
		items = append(items, Item{})
		items[len(items)-1].readJSON(r, &strs)
	})
	return items
}

// readWireInput reads the protocol's case object into w, or fails r: the
// items and budget here, the configuration by wirejson.Strict (it is
// small).
func readWireInput(r *wirejson.Reader, w *wireInput) {
	r.Object(func(key []byte) {
		switch string(key) {
		case "scorer":
			if raw := r.Value(); r.OK() && wirejson.Strict(raw, &w.Scorer) != nil {
				r.Fail()
			}
		case "slicer":
			if raw := r.Value(); r.OK() && wirejson.Strict(raw, &w.Slicer) != nil {
				r.Fail()
			}
		case "placer":
			w.Placer = r.String()
		case "budget":
			if r.Null() {
				w.Budget = nil
				break
			}
			w.Budget = readBudget(r)
		case "deduplication":
			d := r.Bool()
			w.Deduplication = &d
		case "overflow_strategy":
			w.OverflowStrategy = r.String()
		case "items":
			w.Items = readItems(r)
		default:
			r.Fail()
		}
	})
}
