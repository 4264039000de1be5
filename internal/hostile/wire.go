package hostile

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
)

// The wire variants forge a pass (issue 34, part 1). Each rewrites the
// honest result line so that its documented fields, read byte for byte,
// say something wrong, while a reader that matches keys without regard to
// case (encoding/json) or merges a repeated object reads the honest answer
// back: a twin of a documented key by case ("STATUS") or by Unicode
// folding ("ſtatus", "\u212Aind") carrying the honest value after the
// wrong one, the documented key given twice (wrong, then honest), an
// object split in two under one key, a byte order mark before the line.
// The runner must refuse every such line as a protocol error for its
// case: none of them may pass a case, let alone reach a level.

// wireFields are the documented fields of a result line, by path; "*"
// stands for every entry of a list.
var wireFields = [][]string{
	{"type"}, {"seq"}, {"id"}, {"status"}, {"output"}, {"error"}, {"reason"},
	{"error", "kind"}, {"error", "message"},
	{"output", "scores"}, {"output", "scores", "*", "index"}, {"output", "scores", "*", "score"},
	{"output", "selected"}, {"output", "ordered"},
	{"output", "shortfalls"}, {"output", "shortfalls", "*", "kind"},
	{"output", "shortfalls", "*", "required_count"}, {"output", "shortfalls", "*", "satisfied_count"},
	{"output", "cap_excluded_count"}, {"output", "overflow"}, {"output", "overflow", "tokens_over_budget"},
	{"output", "diagnostics"}, {"output", "diagnostics", "included"}, {"output", "diagnostics", "excluded"},
	{"output", "diagnostics", "included", "*", "index"}, {"output", "diagnostics", "included", "*", "score"},
	{"output", "diagnostics", "included", "*", "reason"},
	{"output", "diagnostics", "excluded", "*", "index"}, {"output", "diagnostics", "excluded", "*", "score"},
	{"output", "diagnostics", "excluded", "*", "reason"},
	{"output", "diagnostics", "total_candidates"}, {"output", "diagnostics", "total_tokens_considered"},
	{"output", "diagnostics", "count_requirement_shortfalls"},
}

// WireVariants lists the names of the wire variants, in registration order.
var WireVariants []string

func registerWire(name string, v Variant) {
	register(name, v)
	WireVariants = append(WireVariants, name)
}

func init() {
	for _, path := range wireFields {
		p := path
		name := strings.ReplaceAll(strings.Join(p, "."), ".*", "")
		registerWire("wire-twin-case-"+name, Variant{
			Doc:    "sends " + name + " wrong and an upper-case twin of its key with the honest value: the runner must refuse the line",
			Result: forgeEach(p, twinCase),
		})
		if k := last(p); foldKey(k) != k {
			registerWire("wire-twin-fold-"+name, Variant{
				Doc:    "sends " + name + " wrong and a twin of its key by Unicode folding (ſ, \u212A) with the honest value: the runner must refuse the line",
				Result: forgeEach(p, twinFold),
			})
		}
		registerWire("wire-dup-"+name, Variant{
			Doc:    "sends " + name + " wrong, then the same key again with the honest value: the runner must refuse the line",
			Result: forgeEach(p, duplicate),
		})
	}
	for _, k := range []string{"status", "output", "error"} {
		key := k
		registerWire("wire-twin-only-"+key, Variant{
			Doc: "sends " + key + " under an upper-case twin of its key only: the runner must refuse the line",
			Result: forgeEach([]string{key}, func(o *object, i int) bool {
				o.m[i].key = strings.ToUpper(o.m[i].key)
				return true
			}),
		})
	}
	registerWire("wire-merge-output", Variant{
		Doc: "splits the output object in two under one key, each half of the honest fields: the runner must refuse the line",
		Result: forgeEach([]string{"output"}, func(o *object, i int) bool {
			out, ok := o.m[i].val.(*object)
			if !ok || len(out.m) < 2 {
				return false
			}
			h := len(out.m) / 2
			o.m[i].val = &object{m: out.m[:h]}
			o.insert(i+1, member{key: "output", val: &object{m: out.m[h:]}})
			return true
		}),
	})
	registerWire("wire-bom", Variant{
		Doc:    "sends a byte order mark before every result line: the runner must refuse the line",
		Result: func(_ int, line []byte) [][]byte { return [][]byte{append([]byte("\ufeff"), line...)} },
	})
	registerWire("wire-bom-hello", Variant{
		Doc:   "sends a byte order mark before the hello line: the runner must refuse the hello",
		Hello: func(line []byte) [][]byte { return [][]byte{append([]byte("\ufeff"), line...)} },
	})
	registerWire("wire-twin-case-hello-protocol", Variant{
		Doc:   "sends a wrong protocol in the hello and an upper-case twin with the right one: the runner must refuse the hello",
		Hello: forgeHello("protocol", twinCase),
	})
	registerWire("wire-dup-hello-type", Variant{
		Doc:   "sends the hello's type wrong, then again right: the runner must refuse the hello",
		Hello: forgeHello("type", duplicate),
	})
}

// Rewrite is what the named variant sends for the honest result line of
// the case with sequence number seq, for the tests that compare it with
// what the runner made of it.
func Rewrite(name string, seq int, line []byte) [][]byte {
	v := variants[name]
	if v.Result == nil {
		return [][]byte{line}
	}
	return v.Result(seq, line)
}

func last(p []string) string { return p[len(p)-1] }

// A forgery rewrites member i of o; it reports whether it applies.
type forgery func(o *object, i int) bool

// twinCase makes member i wrong and puts after it an upper-case twin with
// the honest value.
func twinCase(o *object, i int) bool { return twin(o, i, strings.ToUpper(o.m[i].key)) }

// twinFold is twinCase with a twin by Unicode folding: the key's first s
// as ſ (U+017F), or its first k as the Kelvin sign (U+212A).
func twinFold(o *object, i int) bool { return twin(o, i, foldKey(o.m[i].key)) }

func foldKey(k string) string {
	is, ik := strings.IndexByte(k, 's'), strings.IndexByte(k, 'k')
	switch {
	case is >= 0 && (ik < 0 || is < ik):
		return k[:is] + "\u017f" + k[is+1:]
	case ik >= 0:
		return k[:ik] + "\u212a" + k[ik+1:]
	}
	return k
}

func twin(o *object, i int, key string) bool {
	honest := o.m[i].val
	w, ok := wrong(o.m[i].key, honest)
	if !ok || key == o.m[i].key {
		return false
	}
	o.m[i].val = w
	o.insert(i+1, member{key: key, val: honest})
	return true
}

// duplicate makes member i wrong and states its key again at the end of
// o with the honest value.
func duplicate(o *object, i int) bool {
	honest := o.m[i].val
	w, ok := wrong(o.m[i].key, honest)
	if !ok {
		return false
	}
	o.m[i].val = w
	o.m = append(o.m, member{key: o.m[i].key, val: honest})
	return true
}

// wrong is a value of the same JSON type as v that is not v: what the
// documented key says in a forged line.
func wrong(key string, v any) (any, bool) {
	switch v := v.(type) {
	case *object:
		if len(v.m) == 0 {
			return nil, false
		}
		return &object{}, true
	case []any:
		if len(v) == 0 {
			return nil, false
		}
		return []any{}, true
	case json.RawMessage:
		var s string
		if json.Unmarshal(v, &s) == nil {
			switch {
			case key == "status" && s == "ok":
				s = "error"
			case key == "status":
				s = "ok"
			default:
				s += "-forged"
			}
			b, _ := json.Marshal(s)
			return json.RawMessage(b), true
		}
		var f float64
		if json.Unmarshal(v, &f) == nil {
			if n, err := strconv.ParseInt(string(v), 10, 64); err == nil {
				return json.RawMessage(strconv.FormatInt(n+1, 10)), true
			}
			return json.RawMessage(strconv.FormatFloat(f+1, 'g', -1, 64)), true
		}
	}
	return nil, false
}

// forgeEach applies f to the member at path in the result line (at every
// entry of a list for "*"); the line is sent unchanged when f applies
// nowhere.
func forgeEach(path []string, f forgery) func(int, []byte) [][]byte {
	return func(_ int, line []byte) [][]byte {
		v, err := parse(line)
		if err != nil {
			return [][]byte{line}
		}
		if !forgeAt(v, path, f) {
			return [][]byte{line}
		}
		return [][]byte{encode(nil, v)}
	}
}

func forgeAt(v any, path []string, f forgery) bool {
	if path[0] == "*" {
		list, _ := v.([]any)
		done := false
		for _, e := range list {
			done = forgeAt(e, path[1:], f) || done
		}
		return done
	}
	o, ok := v.(*object)
	if !ok {
		return false
	}
	i := o.index(path[0])
	if i < 0 {
		return false
	}
	if len(path) == 1 {
		return f(o, i)
	}
	return forgeAt(o.m[i].val, path[1:], f)
}

func forgeHello(key string, f forgery) func([]byte) [][]byte {
	r := forgeEach([]string{key}, f)
	return func(line []byte) [][]byte { return r(0, line) }
}

// object is a JSON object with its keys in order (and any repeated).
type object struct{ m []member }

type member struct {
	key string
	val any // *object, []any or json.RawMessage
}

func (o *object) index(key string) int {
	for i, m := range o.m {
		if m.key == key {
			return i
		}
	}
	return -1
}

func (o *object) insert(i int, m member) {
	o.m = append(o.m, member{})
	copy(o.m[i+1:], o.m[i:])
	o.m[i] = m
}

// parse reads a JSON text into objects, lists and raw scalars.
func parse(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var value func() (any, error)
	value = func() (any, error) {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		switch tok {
		case json.Delim('{'):
			o := &object{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := value()
				if err != nil {
					return nil, err
				}
				o.m = append(o.m, member{key: k.(string), val: v})
			}
			_, err := dec.Token()
			return o, err
		case json.Delim('['):
			list := []any{}
			for dec.More() {
				v, err := value()
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			_, err := dec.Token()
			return list, err
		}
		b, err := json.Marshal(tok)
		return json.RawMessage(b), err
	}
	return value()
}

// encode appends the JSON of v, keys as they are (UTF-8, not escaped).
func encode(b []byte, v any) []byte {
	switch v := v.(type) {
	case *object:
		b = append(b, '{')
		for i, m := range v.m {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendQuote(b, m.key)
			b = append(b, ':')
			b = encode(b, m.val)
		}
		return append(b, '}')
	case []any:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = encode(b, e)
		}
		return append(b, ']')
	case json.RawMessage:
		return append(b, v...)
	}
	return append(b, "null"...)
}

// MutateResult rewrites a result line as an implementation could send it,
// with choices drawn from r: the keys of an object reordered, unknown keys
// added to an object of documented keys (none folds to one), and at times a twin of a
// documented key by case or by folding, or a key given twice. forged
// reports whether it added a twin or a repeated key: a line the protocol
// refuses. Without one, the line's documented fields are line's.
func MutateResult(r *rand.Rand, line []byte) (out []byte, forged bool) {
	v, err := parse(line)
	if err != nil {
		return line, false
	}
	var objs []*object
	structs := map[*object]bool{}
	collect(v, "", &objs, structs)
	extra := 0
	for range 1 + r.IntN(4) {
		o := objs[r.IntN(len(objs))]
		switch r.IntN(5) {
		case 0:
			r.Shuffle(len(o.m), func(i, j int) { o.m[i], o.m[j] = o.m[j], o.m[i] })
		case 1:
			// An unknown key's value is ignored: keys that differ by
			// case only are no twins there. (A reason's keys are its
			// data: none is unknown.)
			if !structs[o] {
				continue
			}
			extra++
			o.insert(r.IntN(len(o.m)+1), member{key: "x_extra_" + strconv.Itoa(extra), val: json.RawMessage(`{"status":"ok","Status":1}`)})
		case 2, 3:
			if !structs[o] || len(o.m) == 0 {
				continue
			}
			i := r.IntN(len(o.m))
			k := o.m[i].key
			if !documented(k) {
				continue
			}
			twin := strings.ToUpper(k[:1]) + k[1:]
			if f := foldKey(k); f != k && r.IntN(2) == 0 {
				twin = f
			}
			val := o.m[i].val
			if w, ok := wrong(k, val); ok && r.IntN(2) == 0 {
				val = w
			}
			o.insert(r.IntN(len(o.m)+1), member{key: twin, val: val})
			forged = true
		case 4:
			if len(o.m) == 0 {
				continue
			}
			m := o.m[r.IntN(len(o.m))]
			if w, ok := wrong(m.key, m.val); ok && r.IntN(2) == 0 {
				m.val = w
			}
			o.insert(r.IntN(len(o.m)+1), m)
			forged = true
		}
	}
	return encode(nil, v), forged
}

// WrongResult rewrites one documented field of a result line, drawn by r,
// to a wrong value of its type ("status" ok to error, a number plus one,
// a list or object emptied); it returns line when the field drawn is not
// in it.
func WrongResult(r *rand.Rand, line []byte) []byte {
	path := wireFields[r.IntN(len(wireFields))]
	return forgeEach(path, func(o *object, i int) bool {
		w, ok := wrong(o.m[i].key, o.m[i].val)
		o.m[i].val = w
		return ok
	})(0, line)[0]
}

// collect appends every object in v, at path (keys joined by dots, lists
// as "*"), and marks in structs those whose keys are documented (not a
// reason's).
func collect(v any, path string, objs *[]*object, structs map[*object]bool) {
	switch v := v.(type) {
	case *object:
		*objs = append(*objs, v)
		structs[v] = documentedObject(path)
		for _, m := range v.m {
			collect(m.val, strings.TrimPrefix(path+"."+m.key, "."), objs, structs)
		}
	case []any:
		for _, e := range v {
			collect(e, path+".*", objs, structs)
		}
	}
}

// documentedObject reports whether the object at path has documented
// keys: wireFields names fields in it.
func documentedObject(path string) bool {
	for _, p := range wireFields {
		if strings.Join(p[:len(p)-1], ".") == path {
			return true
		}
	}
	return false
}

// documented reports whether k is a documented key of some object of a
// result line (what a twin is made of).
func documented(k string) bool {
	for _, p := range wireFields {
		if last(p) == k {
			return true
		}
	}
	return false
}
