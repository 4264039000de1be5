package protocol

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/cupel-go/go-cupel/internal/wirejson"
	"github.com/cupel-go/go-cupel/runner/casefile"
)

// A run message is written and read once a case on each side of a session.
// encoding/json would check and copy its case, the bulk of it, once more
// than casefile.Input's own MarshalJSON and UnmarshalJSON do; these functions
// write and read the envelope around the case themselves. The bytes are
// encoding/json's, and a line the fast reader does not accept is read by
// wirejson.Strict: encoding/json with PROTOCOL.md's exact reading of keys.

// encodeLine is the JSON of msg, as encoding/json writes it.
func encodeLine(msg any) ([]byte, error) {
	switch m := msg.(type) {
	case RunMessage:
		return encodeRun(m)
	case ResultMessage:
		if b, ok := appendResult(make([]byte, 0, 512), &m); ok {
			return b, nil
		}
	}
	return json.Marshal(msg)
}

// encodeRun is the JSON of m, as encoding/json writes it.
func encodeRun(m RunMessage) ([]byte, error) {
	c, err := m.Case.MarshalJSON()
	if err != nil {
		return json.Marshal(m) // for encoding/json's error
	}
	b := make([]byte, 0, len(c)+len(m.ID)+len(m.Stage)+64)
	b = append(b, `{"type":`...)
	b = wirejson.AppendString(b, m.Type)
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, int64(m.Seq), 10)
	b = append(b, `,"id":`...)
	b = wirejson.AppendString(b, m.ID)
	b = append(b, `,"stage":`...)
	b = wirejson.AppendString(b, m.Stage)
	b = append(b, `,"case":`...)
	b = append(b, c...)
	return append(b, '}'), nil
}

// readRun reads a run message as wirejson.Strict reads one into a
// RunMessage; ok is false when the fast reader does not accept the line
// (Strict then reads it, or says why it cannot).
func readRun(line []byte) (m RunMessage, ok bool) {
	r := wirejson.NewReader(line)
	r.Object(func(key []byte) {
		switch string(key) {
		case "stage":
			m.Stage = r.String()
		case "case":
			if raw := r.Value(); r.OK() && m.Case.UnmarshalJSON(raw) != nil {
				r.Fail()
			}
		default:
			if !readHead(r, key, &m.Type, &m.Seq, &m.ID) {
				r.Fail()
			}
		}
	})
	return m, r.Done() && m.Type == TypeRun
}

// readResult reads a result line as wirejson.Strict reads one into a
// ResultMessage; ok is false when the fast reader does not accept it.
func readResult(line []byte) (m ResultMessage, ok bool) {
	r := wirejson.NewReader(line)
	r.Object(func(key []byte) {
		switch string(key) {
		case "status":
			m.Kind = r.String()
		case "output":
			m.Output = readOutput(r)
		case "error":
			m.Error = &ErrorInfo{}
			r.Object(func(key []byte) {
				switch string(key) {
				case "kind":
					m.Error.Kind = r.String()
				case "message":
					m.Error.Message = r.String()
				default:
					r.Fail()
				}
			})
		case "reason":
			m.Reason = r.String()
		default:
			if !readHead(r, key, &m.Type, &m.Seq, &m.ID) {
				r.Fail()
			}
		}
	})
	return m, r.Done()
}

// DecodeResult reads a result line as the runner reads every result an
// implementation sends (PROTOCOL.md, "Reading a line"): keys match byte
// for byte, and a key given twice, or one that is a documented key under
// case folding only, makes the line an error matching ErrProtocol. The
// fast reader reads the lines it accepts; [wirejson.Strict] reads the
// others with the same rules (FuzzReadResult holds the two to each other).
// The line is taken as sent: the bare NaN and Infinity tokens are quoted
// by the caller (relaxJSON) when it allows them.
func DecodeResult(line []byte) (ResultMessage, error) {
	if m, ok := readResult(line); ok {
		return m, nil
	}
	var m ResultMessage
	if err := wirejson.Strict(line, &m); err != nil {
		return ResultMessage{}, fmt.Errorf("%w: %w", ErrProtocol, err)
	}
	return m, nil
}

// DecodeHello reads a hello line with the rules of [DecodeResult].
func DecodeHello(line []byte) (HelloResponse, error) {
	var h HelloResponse
	if err := wirejson.Strict(line, &h); err != nil {
		return HelloResponse{}, fmt.Errorf("%w: %w", ErrProtocol, err)
	}
	return h, nil
}

// readHead reads the value of key when it is one that run and result
// messages share (type, seq, id), and reports whether it was.
func readHead(r *wirejson.Reader, key []byte, typ *string, seq *int, id *string) bool {
	switch string(key) {
	case "type":
		*typ = r.String()
	case "seq":
		*seq = int(r.Int(strconv.IntSize))
	case "id":
		*id = r.String()
	default:
		return false
	}
	return true
}

func readOutput(r *wirejson.Reader) *Output {
	o := &Output{}
	r.Object(func(key []byte) {
		switch string(key) {
		case "scores":
			o.Scores = []IndexScore{}
			r.Array(func() {
				var s IndexScore
				r.Object(func(key []byte) {
					switch string(key) {
					case "index":
						s.Index = int(r.Int(strconv.IntSize))
					case "score":
						s.Score = r.Float()
					default:
						r.Fail()
					}
				})
				o.Scores = append(o.Scores, s)
			})
		case "selected":
			o.Selected = readInts(r)
		case "ordered":
			o.Ordered = readInts(r)
		case "shortfalls":
			o.Shortfalls = readShortfalls(r)
		case "cap_excluded_count":
			n := int(r.Int(strconv.IntSize))
			o.CapExcludedCount = &n
		case "overflow":
			o.Overflow = &casefile.Overflow{}
			r.Object(func(key []byte) {
				if string(key) != "tokens_over_budget" {
					r.Fail()
					return
				}
				o.Overflow.TokensOverBudget = r.Int(64)
			})
		case "diagnostics":
			o.Diagnostics = readDiagnostics(r)
		default:
			r.Fail()
		}
	})
	return o
}

func readInts(r *wirejson.Reader) []int {
	out := []int{}
	r.Array(func() { out = append(out, int(r.Int(strconv.IntSize))) })
	return out
}

func readShortfalls(r *wirejson.Reader) []casefile.Shortfall {
	out := []casefile.Shortfall{}
	r.Array(func() {
		var s casefile.Shortfall
		r.Object(func(key []byte) {
			switch string(key) {
			case "kind":
				s.Kind = r.String()
			case "required_count":
				s.RequiredCount = r.Int(64)
			case "satisfied_count":
				s.SatisfiedCount = r.Int(64)
			default:
				r.Fail()
			}
		})
		out = append(out, s)
	})
	return out
}

func readDiagnostics(r *wirejson.Reader) *Diagnostics {
	d := &Diagnostics{}
	r.Object(func(key []byte) {
		switch string(key) {
		case "included":
			d.Included = readDiagnosticItems(r)
		case "excluded":
			d.Excluded = readDiagnosticItems(r)
		case "total_candidates":
			d.TotalCandidates = r.Int(64)
		case "total_tokens_considered":
			d.TotalTokensConsidered = r.Int(64)
		case "count_requirement_shortfalls":
			d.Shortfalls = readShortfalls(r)
		default:
			r.Fail()
		}
	})
	return d
}

func readDiagnosticItems(r *wirejson.Reader) []DiagnosticItem {
	out := []DiagnosticItem{}
	strs := &wirejson.Strings{}
	r.Array(func() {
		var it DiagnosticItem
		r.Object(func(key []byte) {
			switch string(key) {
			case "index":
				it.Index = int(r.Int(strconv.IntSize))
			case "score":
				it.Score = r.Float()
			case "reason":
				it.Reason = wirejson.Map(r, strs, r.Scalar)
			default:
				r.Fail()
			}
		})
		out = append(out, it)
	})
	return out
}

// appendResult appends m as encoding/json writes it; ok is false for a
// reason value of a type it leaves to encoding/json (go-cupel's are
// strings, int64 and Float).
func appendResult(b []byte, m *ResultMessage) (_ []byte, ok bool) {
	b = append(b, `{"type":`...)
	b = wirejson.AppendString(b, m.Type)
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, int64(m.Seq), 10)
	b = append(b, `,"id":`...)
	b = wirejson.AppendString(b, m.ID)
	b = append(b, `,"status":`...)
	b = wirejson.AppendString(b, m.Kind)
	if o := m.Output; o != nil {
		b = append(b, `,"output":{`...)
		n := len(b)
		comma := func() {
			if len(b) > n {
				b = append(b, ',')
			}
		}
		if len(o.Scores) > 0 {
			b = append(b, `"scores":[`...)
			for i, s := range o.Scores {
				if i > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"index":`...)
				b = strconv.AppendInt(b, int64(s.Index), 10)
				b = append(b, `,"score":`...)
				b = wirejson.AppendFloat(b, s.Score)
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		if len(o.Selected) > 0 {
			comma()
			b = appendInts(append(b, `"selected":`...), o.Selected)
		}
		if len(o.Ordered) > 0 {
			comma()
			b = appendInts(append(b, `"ordered":`...), o.Ordered)
		}
		if len(o.Shortfalls) > 0 {
			comma()
			b = appendShortfalls(append(b, `"shortfalls":`...), o.Shortfalls)
		}
		if o.CapExcludedCount != nil {
			comma()
			b = strconv.AppendInt(append(b, `"cap_excluded_count":`...), int64(*o.CapExcludedCount), 10)
		}
		if o.Overflow != nil {
			comma()
			b = strconv.AppendInt(append(b, `"overflow":{"tokens_over_budget":`...), o.Overflow.TokensOverBudget, 10)
			b = append(b, '}')
		}
		if d := o.Diagnostics; d != nil {
			comma()
			b = append(b, `"diagnostics":{"included":`...)
			if b, ok = appendDiagnosticItems(b, d.Included); !ok {
				return nil, false
			}
			b = append(b, `,"excluded":`...)
			if b, ok = appendDiagnosticItems(b, d.Excluded); !ok {
				return nil, false
			}
			b = strconv.AppendInt(append(b, `,"total_candidates":`...), d.TotalCandidates, 10)
			b = strconv.AppendInt(append(b, `,"total_tokens_considered":`...), d.TotalTokensConsidered, 10)
			if len(d.Shortfalls) > 0 {
				b = appendShortfalls(append(b, `,"count_requirement_shortfalls":`...), d.Shortfalls)
			}
			b = append(b, '}')
		}
		b = append(b, '}')
	}
	if e := m.Error; e != nil {
		b = append(b, `,"error":{"kind":`...)
		b = wirejson.AppendString(b, e.Kind)
		if e.Message != "" {
			b = append(b, `,"message":`...)
			b = wirejson.AppendString(b, e.Message)
		}
		b = append(b, '}')
	}
	if m.Reason != "" {
		b = append(b, `,"reason":`...)
		b = wirejson.AppendString(b, m.Reason)
	}
	return append(b, '}'), true
}

func appendInts(b []byte, list []int) []byte {
	b = append(b, '[')
	for i, v := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return append(b, ']')
}

func appendShortfalls(b []byte, list []casefile.Shortfall) []byte {
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"kind":`...)
		b = wirejson.AppendString(b, s.Kind)
		b = strconv.AppendInt(append(b, `,"required_count":`...), s.RequiredCount, 10)
		b = strconv.AppendInt(append(b, `,"satisfied_count":`...), s.SatisfiedCount, 10)
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendDiagnosticItems appends a list of entries (null for nil), each
// reason's keys sorted.
func appendDiagnosticItems(b []byte, list []DiagnosticItem) ([]byte, bool) {
	if list == nil {
		return append(b, "null"...), true
	}
	b = append(b, '[')
	var buf [8]string
	for i, it := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"index":`...)
		b = strconv.AppendInt(b, int64(it.Index), 10)
		b = append(b, `,"score":`...)
		b = wirejson.AppendFloat(b, it.Score)
		b = append(b, `,"reason":`...)
		if it.Reason == nil {
			b = append(b, "null"...)
			b = append(b, '}')
			continue
		}
		keys := buf[:0]
		for k := range it.Reason {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for j, k := range keys {
			if j > 0 {
				b = append(b, ',')
			}
			b = wirejson.AppendString(b, k)
			b = append(b, ':')
			switch v := it.Reason[k].(type) {
			case string:
				b = wirejson.AppendString(b, v)
			case int64:
				b = strconv.AppendInt(b, v, 10)
			case casefile.Float:
				b = wirejson.AppendFloat(b, v)
			default:
				return nil, false
			}
		}
		b = append(b, '}', '}')
	}
	return append(b, ']'), true
}
