package casefile

import (
	"bufio"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// tbl is a view of one decoded TOML table that records the keys it reads
// (for unknown-key listing) and the first error it meets (with a line).
type tbl struct {
	f    *fileCtx
	m    map[string]any
	path string // dotted key path without array indices, "" at top level
	occ  int    // which occurrence of an array-of-tables header, -1 if none
}

// fileCtx carries the state of loading one file.
type fileCtx struct {
	name     string
	src      string
	consumed map[string]bool
	// asked holds every key the loader looked for, present or not: the
	// candidates of a "did you mean" for an unknown key.
	asked map[string]bool
	err   *SuiteError
}

func (f *fileCtx) fail(line int, format string, args ...any) {
	if f.err == nil {
		f.err = &SuiteError{File: f.name, Line: line, Reason: fmt.Sprintf(format, args...)}
	}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func (t tbl) has(key string) bool {
	_, ok := t.m[key]
	return ok
}

// get returns the raw value and marks the key as consumed.
func (t tbl) get(key string) (any, bool) {
	v, ok := t.m[key]
	if t.f.asked != nil {
		t.f.asked[join(t.path, key)] = true
	}
	if ok {
		t.f.consumed[join(t.path, key)] = true
	}
	return v, ok
}

func (t tbl) line(key string) int { return locate(t.f.src, t.path, t.occ, key) }

func (t tbl) errf(key, format string, args ...any) {
	t.f.fail(t.line(key), "%s: %s", join(t.path, key), fmt.Sprintf(format, args...))
}

func tomlType(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case int64:
		return "integer"
	case float64:
		return "float"
	case bool:
		return "boolean"
	case time.Time:
		return "datetime"
	case map[string]any:
		return "table"
	case []map[string]any, []any:
		return "array"
	}
	return fmt.Sprintf("%T", v)
}

func (t tbl) str(key string) (string, bool) {
	v, ok := t.get(key)
	if !ok {
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		t.errf(key, "want a string, got %s", tomlType(v))
		return "", false
	}
	return s, true
}

func (t tbl) reqStr(key string) string {
	s, ok := t.str(key)
	if !ok && !t.has(key) {
		t.f.fail(locate(t.f.src, t.path, t.occ, ""), "%s: missing required key %q", tableName(t.path), key)
	}
	return s
}

func tableName(path string) string {
	if path == "" {
		return "top level"
	}
	return "[" + path + "]"
}

func (t tbl) integer(key string) (int64, bool) {
	v, ok := t.get(key)
	if !ok {
		return 0, false
	}
	switch n := v.(type) {
	case int64:
		return n, true
	case float64:
		// A float is read as the integer it equals (100.0 is 100); one
		// that is not integral, or too large to be exact, is an error.
		if n == math.Trunc(n) && !math.IsInf(n, 0) && math.Abs(n) < 1<<53 {
			return int64(n), true
		}
		t.errf(key, "want an integer, got the float %v (a float is read as an integer only when it is integral)", n)
		return 0, false
	}
	t.errf(key, "want an integer, got %s", tomlType(v))
	return 0, false
}

func (t tbl) reqInt(key string) int64 {
	n, ok := t.integer(key)
	if !ok && !t.has(key) {
		t.f.fail(locate(t.f.src, t.path, t.occ, ""), "%s: missing required key %q", tableName(t.path), key)
	}
	return n
}

// intOf is n, the value of key, as an int: on a platform whose int has 32
// bits a larger value is an error at key, not a wrapped value.
func (t tbl) intOf(key string, n int64) int {
	if int64(int(n)) != n {
		t.errf(key, "%d does not fit in this platform's %d-bit int", n, strconv.IntSize)
	}
	return int(n)
}

func (t tbl) float(key string) (*Float, bool) {
	v, ok := t.get(key)
	if !ok {
		return nil, false
	}
	switch n := v.(type) {
	case float64:
		return FloatPtr(n), true
	case int64:
		return FloatPtr(float64(n)), true
	}
	t.errf(key, "want a float, got %s", tomlType(v))
	return nil, false
}

func (t tbl) floatOr(key string, def float64) Float {
	if f, ok := t.float(key); ok {
		return *f
	}
	return Float(def)
}

func (t tbl) reqFloat(key string) Float {
	f, ok := t.float(key)
	if !ok {
		if !t.has(key) {
			t.f.fail(locate(t.f.src, t.path, t.occ, ""), "%s: missing required key %q", tableName(t.path), key)
		}
		return 0
	}
	return *f
}

func (t tbl) boolean(key string) (bool, bool) {
	v, ok := t.get(key)
	if !ok {
		return false, false
	}
	b, ok := v.(bool)
	if !ok {
		t.errf(key, "want a boolean, got %s", tomlType(v))
	}
	return b, ok
}

func (t tbl) datetime(key string) (*time.Time, bool) {
	v, ok := t.get(key)
	if !ok {
		return nil, false
	}
	tm, ok := v.(time.Time)
	if s, isStr := v.(string); isStr {
		// Some suites write datetimes as RFC 3339 strings.
		parsed, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.errf(key, "want a datetime, got the string %q, which is not RFC 3339", s)
			return nil, false
		}
		tm, ok = parsed, true
	}
	if !ok {
		t.errf(key, "want a datetime, got %s", tomlType(v))
		return nil, false
	}
	switch tm.Location().String() {
	case "date-local", "time-local":
		t.errf(key, "want an offset date-time, got a local date or time")
		return nil, false
	case "datetime-local":
		// A local date-time is read as UTC (the spec's datetimes are UTC).
		tm = time.Date(tm.Year(), tm.Month(), tm.Day(), tm.Hour(), tm.Minute(), tm.Second(), tm.Nanosecond(), time.UTC)
	}
	tm = tm.UTC()
	return &tm, true
}

func (t tbl) strings(key string) []string {
	v, ok := t.get(key)
	if !ok {
		return nil
	}
	arr, ok := v.([]any)
	if !ok {
		t.errf(key, "want an array of strings, got %s", tomlType(v))
		return nil
	}
	out := make([]string, 0, len(arr))
	for i, e := range arr {
		s, ok := e.(string)
		if !ok {
			t.errf(key, "element %d: want a string, got %s", i, tomlType(e))
			return nil
		}
		out = append(out, s)
	}
	return out
}

// sub returns the table under key, or an empty table when absent.
func (t tbl) sub(key string) (tbl, bool) {
	child := tbl{f: t.f, m: map[string]any{}, path: join(t.path, key), occ: -1}
	v, ok := t.get(key)
	if !ok {
		return child, false
	}
	m, ok := v.(map[string]any)
	if !ok {
		t.errf(key, "want a table, got %s", tomlType(v))
		return child, false
	}
	child.m = m
	return child, true
}

// arr returns the array of tables under key (empty when absent); inline
// arrays of inline tables are accepted too.
func (t tbl) arr(key string) ([]tbl, bool) {
	v, ok := t.get(key)
	if !ok {
		return nil, false
	}
	p := join(t.path, key)
	var ms []map[string]any
	switch a := v.(type) {
	case []map[string]any:
		ms = a
	case []any:
		for i, e := range a {
			m, ok := e.(map[string]any)
			if !ok {
				t.errf(key, "element %d: want a table, got %s", i, tomlType(e))
				return nil, true
			}
			ms = append(ms, m)
		}
	default:
		t.errf(key, "want an array of tables, got %s", tomlType(v))
		return nil, true
	}
	out := make([]tbl, len(ms))
	for i, m := range ms {
		out[i] = tbl{f: t.f, m: m, path: p, occ: i}
	}
	return out, true
}

// locate finds the line of key in the table at path (its occ-th
// occurrence for arrays of tables), or of the table header when key is ""
// or not found. It returns 0 when nothing is found. It is a heuristic over
// the source text, good enough to point a reader at the right place.
func locate(src, path string, occ int, key string) int {
	sc := bufio.NewScanner(strings.NewReader(src))
	sc.Buffer(make([]byte, 0, 64*1024), len(src)+1)
	current := ""
	count := map[string]int{}
	headerLine := 0
	if path == "" {
		headerLine = 1
	}
	inTarget := path == ""
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			name, isArray := parseHeader(line)
			current = name
			if isArray {
				count[name]++
			}
			inTarget = false
			if name == path && (occ < 0 || (isArray && count[name]-1 == occ)) {
				inTarget = true
				headerLine = n
				if key == "" {
					return n
				}
			}
			continue
		}
		if !inTarget {
			// Dotted keys (a.b = 1) in a parent table.
			if key != "" && strings.HasPrefix(join(path, key), join(current, "")) && current != path {
				rel := strings.TrimPrefix(join(path, key), join(current, ""))
				if k := keyOf(line); k == rel {
					return n
				}
			}
			continue
		}
		if key != "" && keyOf(line) == key {
			return n
		}
	}
	return headerLine
}

func parseHeader(line string) (string, bool) {
	isArray := strings.HasPrefix(line, "[[")
	s := strings.TrimLeft(line, "[")
	if i := strings.Index(s, "]"); i >= 0 {
		s = s[:i]
	}
	parts := strings.Split(s, ".")
	for i, p := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(p), `"'`)
	}
	return strings.Join(parts, "."), isArray
}

func keyOf(line string) string {
	i := strings.Index(line, "=")
	if i <= 0 || strings.HasPrefix(line, "#") {
		return ""
	}
	parts := strings.Split(line[:i], ".")
	for j, p := range parts {
		parts[j] = strings.Trim(strings.TrimSpace(p), `"'`)
	}
	return strings.Join(parts, ".")
}

// unknownKeys lists the keys of a decoded document that were not consumed,
// as dotted paths without array indices, sorted. A table whose keys were
// consumed counts as consumed.
func unknownKeys(doc map[string]any, consumed map[string]bool) []string {
	set := map[string]bool{}
	var walk func(m map[string]any, path string)
	walk = func(m map[string]any, path string) {
		for k, v := range m {
			p := join(path, k)
			if !consumed[p] {
				set[p] = true
				continue
			}
			if consumed[p+".*"] {
				continue
			}
			switch x := v.(type) {
			case map[string]any:
				walk(x, p)
			case []map[string]any:
				for _, e := range x {
					walk(e, p)
				}
			case []any:
				for _, e := range x {
					if em, ok := e.(map[string]any); ok {
						walk(em, p)
					}
				}
			}
		}
	}
	walk(doc, "")
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// keyWarnings turns the unknown keys of a file into warnings with the line
// of each key and, when a key the loader looks for in the same table is
// close in spelling, a suggestion.
func keyWarnings(f *fileCtx, unknown []string) []KeyWarning {
	var out []KeyWarning
	for _, k := range unknown {
		parent, name := "", k
		if i := strings.LastIndex(k, "."); i >= 0 {
			parent, name = k[:i], k[i+1:]
		}
		w := KeyWarning{File: f.name, Line: locate(f.src, parent, -1, name), Key: k}
		best := 3 // suggest only within an edit distance of 2
		var cands []string
		for a := range f.asked {
			cands = append(cands, a)
		}
		sort.Strings(cands)
		for _, a := range cands {
			ap, an := "", a
			if i := strings.LastIndex(a, "."); i >= 0 {
				ap, an = a[:i], a[i+1:]
			}
			if ap != parent || an == name {
				continue
			}
			if d := editDistance(name, an); d < best && d < len(name) {
				best, w.Suggestion = d, a
			}
		}
		out = append(out, w)
	}
	return out
}

// editDistance is the Damerau–Levenshtein (optimal string alignment)
// distance of a and b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
