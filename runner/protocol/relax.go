package protocol

import "bytes"

// relaxJSON quotes the bare NaN, Infinity and -Infinity tokens that some
// JSON encoders write for non-finite floats (Python's json module does by
// default), so that they read as the protocol's "NaN", "Infinity" and
// "-Infinity" strings. Text inside strings is left alone. A line without
// such tokens is returned as is.
func relaxJSON(line []byte) []byte {
	if !bytes.Contains(line, []byte("NaN")) && !bytes.Contains(line, []byte("Infinity")) {
		return line
	}
	out := make([]byte, 0, len(line)+8)
	inString, escaped := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		if inString {
			out = append(out, c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		if c == '"' {
			inString = true
			out = append(out, c)
			continue
		}
		matched := false
		for _, tok := range []string{"NaN", "-Infinity", "Infinity"} {
			if bytes.HasPrefix(line[i:], []byte(tok)) {
				out = append(out, '"')
				out = append(out, tok...)
				out = append(out, '"')
				i += len(tok) - 1
				matched = true
				break
			}
		}
		if !matched {
			out = append(out, c)
		}
	}
	return out
}
