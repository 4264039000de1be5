package protocol

import (
	"encoding/json"
	"strconv"

	"github.com/cupel-go/go-cupel/internal/wirejson"
)

// A run message is written and read once a case on each side of a session.
// encoding/json would check and copy its case, the bulk of it, once more
// than vector.Input's own MarshalJSON and UnmarshalJSON do; these functions
// write and read the envelope around the case themselves. The bytes are
// encoding/json's, and a line the fast reader does not accept is read by
// encoding/json.

// encodeLine is the JSON of msg, as encoding/json writes it.
func encodeLine(msg any) ([]byte, error) {
	m, ok := msg.(RunMessage)
	if !ok {
		return json.Marshal(msg)
	}
	c, err := m.Case.MarshalJSON()
	if err != nil {
		return json.Marshal(msg) // for encoding/json's error
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

// readRun reads a run message as encoding/json reads one into a
// RunMessage; ok is false when the fast reader does not accept the line
// (encoding/json then reads it, or says why it cannot).
func readRun(line []byte) (m RunMessage, ok bool) {
	r := wirejson.NewReader(line)
	var seen uint32
	r.Object(func(key []byte) {
		switch string(key) {
		case "type":
			r.Once(&seen, 1<<0)
			m.Type = r.String()
		case "seq":
			r.Once(&seen, 1<<1)
			m.Seq = int(r.Int(strconv.IntSize))
		case "id":
			r.Once(&seen, 1<<2)
			m.ID = r.String()
		case "stage":
			r.Once(&seen, 1<<3)
			m.Stage = r.String()
		case "case":
			r.Once(&seen, 1<<4)
			if raw := r.Value(); r.OK() && m.Case.UnmarshalJSON(raw) != nil {
				r.Fail()
			}
		default:
			r.Fail()
		}
	})
	return m, r.Done() && m.Type == TypeRun
}
