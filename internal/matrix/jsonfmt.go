package matrix

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// jsonLine is how long a JSON value may be, as one line, to be shown on
// one line: the items of a case read one per line.
const jsonLine = 110

// readableJSON formats v as indented JSON in which every object or array
// that fits on a line of jsonLine characters is written on one line. Keys
// keep their order.
func readableJSON(v any) string {
	if v == nil {
		return ""
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("(cannot show: %v)", err)
	}
	var b strings.Builder
	writeJSON(&b, raw, "")
	return b.String()
}

// writeJSON writes the JSON value raw at the given indent.
func writeJSON(b *strings.Builder, raw json.RawMessage, indent string) {
	raw = bytes.TrimSpace(raw)
	if len(raw) <= jsonLine-len(indent) || (raw[0] != '{' && raw[0] != '[') {
		b.Write(spaced(raw))
		return
	}
	inner := indent + "  "
	if raw[0] == '[' {
		var elems []json.RawMessage
		if err := json.Unmarshal(raw, &elems); err != nil {
			b.Write(raw)
			return
		}
		b.WriteString("[\n")
		for i, e := range elems {
			b.WriteString(inner)
			writeJSON(b, e, inner)
			if i < len(elems)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString(indent + "]")
		return
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // {
		b.Write(raw)
		return
	}
	b.WriteString("{\n")
	first := true
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			break
		}
		if !first {
			b.WriteString(",\n")
		}
		first = false
		key, _ := json.Marshal(tok)
		b.WriteString(inner)
		b.Write(key)
		b.WriteString(": ")
		writeJSON(b, val, inner)
	}
	b.WriteString("\n" + indent + "}")
}

// spaced puts a space after the commas and colons of compact JSON outside
// strings, so one-line values read like the text report's.
func spaced(raw []byte) []byte {
	out := make([]byte, 0, len(raw)+len(raw)/8)
	inString, escaped := false, false
	for _, c := range raw {
		out = append(out, c)
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && (c == ',' || c == ':'):
			out = append(out, ' ')
		}
	}
	return out
}
