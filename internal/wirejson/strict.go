package wirejson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// ErrKey is matched by the errors of [Strict] about a key: one given twice
// in an object, or one that is a documented key under case folding but not
// byte for byte.
var ErrKey = errors.New("key refused")

// A KeyError is a key [Strict] refuses. It matches [ErrKey].
type KeyError struct {
	// Path locates the object that holds the key ("$" is the line's own
	// object; "$.output.scores[2]" an entry of a list).
	Path string
	// Key is the key as the line states it (decoded).
	Key string
	// Documented is the documented key Key folds to; empty for a key
	// given twice.
	Documented string
}

// Error implements error.
func (e *KeyError) Error() string {
	if e.Documented == "" {
		return fmt.Sprintf("key %s given twice in the object at %s: a line states each key once", quoteKey(e.Key), e.Path)
	}
	return fmt.Sprintf("key %s in the object at %s is the documented key %q under case folding, not byte for byte: keys match exactly", quoteKey(e.Key), e.Path, e.Documented)
}

// maxKeyText is how many bytes of a key an error or a path quotes.
const maxKeyText = 64

// quoteKey quotes k as Go does, its first maxKeyText bytes only when it is
// longer (with its length).
func quoteKey(k string) string {
	if len(k) <= maxKeyText {
		return strconv.Quote(k)
	}
	cut := maxKeyText
	for cut > 0 && !utf8.RuneStart(k[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", strconv.Quote(k[:cut]), len(k))
}

// Is reports whether target is ErrKey.
func (e *KeyError) Is(target error) bool { return target == ErrKey }

// Strict decodes the JSON text b into v (a pointer) with the protocol's
// reading of a line an implementation sends, which is encoding/json's with
// two differences that make it exact:
//   - a key given twice in any object, at any depth, is an error (encoding/json
//     keeps the last value, or merges two objects);
//   - a key of a struct's object that is not one of its documented keys
//     byte for byte, but equals one under case folding (bytes.EqualFold,
//     Unicode simple folding: "STATUS", "Status" and "ſtatus" fold to
//     "status") is an error (encoding/json reads it as that field).
//
// Keys that fold to no documented key are ignored, as encoding/json
// ignores them. A key's escapes are decoded before it is compared, as
// JSON defines the key ("\u0073tatus" is "status"). Errors about keys are
// *KeyError; others are encoding/json's. On an error v is to be discarded.
//
// The fast Reader of this package never accepts what Strict refuses:
// it fails on a key given twice and on any key its caller does not read.
func Strict(b []byte, v any) error {
	if err := json.Unmarshal(b, v); err != nil {
		return err
	}
	var path [16]segment
	w := walker{Reader: Reader{b: b}, path: path[:0]}
	return w.walk(shapeOf(reflect.TypeOf(v)))
}

// shape is what Strict knows of a type at a position of the JSON text:
// the documented keys of a struct's object, the shape of a list's or a
// map's elements.
type shape struct {
	fields map[string]*shape // a struct: its keys (nil for other kinds)
	names  [][]byte          // the keys of fields, for the folding check
	elem   *shape            // a slice, array, map or pointer's element
}

// anyShape is a position of no documented keys (an interface value, a
// type with its own UnmarshalJSON, an ignored key's value): only keys
// given twice are checked there.
var anyShape = &shape{}

var (
	shapesMu sync.Mutex
	shapes   = map[reflect.Type]*shape{}
)

var unmarshaler = reflect.TypeFor[json.Unmarshaler]()

func shapeOf(t reflect.Type) *shape {
	shapesMu.Lock()
	defer shapesMu.Unlock()
	return build(t)
}

// build returns the shape of t; shapesMu is held.
func build(t reflect.Type) *shape {
	if s, ok := shapes[t]; ok {
		return s
	}
	if t.Implements(unmarshaler) || reflect.PointerTo(t).Implements(unmarshaler) {
		return anyShape
	}
	switch t.Kind() {
	case reflect.Pointer:
		return build(t.Elem())
	case reflect.Slice, reflect.Array, reflect.Map:
		s := &shape{}
		shapes[t] = s
		s.elem = build(t.Elem())
		return s
	case reflect.Struct:
		s := &shape{fields: map[string]*shape{}}
		shapes[t] = s
		addFields(s, t)
		return s
	}
	return anyShape
}

// addFields adds the keys of struct t to s as encoding/json names them:
// the json tag's name or the field's, an untagged embedded struct's keys
// as the struct's own.
func addFields(s *shape, t reflect.Type) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			addFields(s, ft)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		s.fields[name] = build(f.Type)
		s.names = append(s.names, []byte(name))
	}
}

// walker reads a JSON text encoding/json accepted (so its syntax is not
// checked again), keeping the path to the current value as segments, made
// into a string only for an error.
type walker struct {
	Reader // its text and position, and its ws
	path   []segment
}

// segment is a step of a path: an object's key, or a list's index (when
// key is nil).
type segment struct {
	key   []byte
	index int
}

// pathString is the path: $.a.b[2], a key that is not a plain word quoted
// ($["x y"]).
func (w *walker) pathString() string {
	var b strings.Builder
	b.WriteString("$")
	for _, s := range w.path {
		switch {
		case s.key == nil:
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
		case plainWord(s.key):
			b.WriteString("." + string(s.key))
		default:
			b.WriteString("[" + quoteKey(string(s.key)) + "]")
		}
	}
	return b.String()
}

// plainWord reports whether s is a non-empty run of ASCII letters, digits
// and underscores.
func plainWord(s []byte) bool {
	for _, c := range s {
		if !(c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return len(s) > 0
}

// maxSeenList is how many keys of an object walk compares one by one;
// past it, it keeps them in a map.
const maxSeenList = 32

// stringSpan reads a string and returns it with its quotes, and whether
// it has no escape and no byte past ASCII.
func (w *walker) stringSpan() (raw []byte, plain bool) {
	start := w.i
	w.i++
	plain = true
	for w.b[w.i] != '"' {
		switch c := w.b[w.i]; {
		case c == '\\':
			plain = false
			w.i += 2
		case c >= utf8.RuneSelf:
			plain = false
			w.i++
		default:
			w.i++
		}
	}
	w.i++
	return w.b[start:w.i], plain
}

// key reads a string and returns its value as encoding/json decodes it
// (escapes decoded, invalid UTF-8 as U+FFFD), aliasing the text when it
// has neither.
func (w *walker) key() []byte {
	raw, plain := w.stringSpan()
	if plain || (bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw)) {
		return raw[1 : len(raw)-1]
	}
	var s string
	_ = json.Unmarshal(raw, &s) // valid: encoding/json read the text
	return []byte(s)
}

// walk reads the next value at the position of shape s, and fails on a
// key Strict refuses.
func (w *walker) walk(s *shape) error {
	w.ws()
	switch w.b[w.i] {
	case '{':
		w.i++
		var list [maxSeenList][]byte
		n := 0
		var set map[string]bool
		for {
			w.ws()
			if w.b[w.i] == '}' {
				w.i++
				return nil
			}
			if w.b[w.i] == ',' {
				w.i++
				w.ws()
			}
			key := w.key()
			w.ws()
			w.i++ // the colon
			dup := false
			switch {
			case set != nil:
				dup = set[string(key)]
				set[string(key)] = true
			default:
				for _, k := range list[:n] {
					if bytes.Equal(k, key) {
						dup = true
						break
					}
				}
				if n < len(list) {
					list[n] = key
					n++
				} else {
					set = map[string]bool{string(key): true}
					for _, k := range list {
						set[string(k)] = true
					}
				}
			}
			if dup {
				return &KeyError{Path: w.pathString(), Key: string(key)}
			}
			child := anyShape
			switch {
			case s.fields != nil:
				if f, ok := s.fields[string(key)]; ok {
					child = f
					break
				}
				for _, name := range s.names {
					if bytes.EqualFold(key, name) {
						return &KeyError{Path: w.pathString(), Key: string(key), Documented: string(name)}
					}
				}
			case s.elem != nil:
				child = s.elem
			}
			w.path = append(w.path, segment{key: key})
			err := w.walk(child)
			w.path = w.path[:len(w.path)-1]
			if err != nil {
				return err
			}
		}
	case '[':
		w.i++
		elem := s.elem
		if elem == nil {
			elem = anyShape
		}
		for i := 0; ; i++ {
			w.ws()
			if w.b[w.i] == ']' {
				w.i++
				return nil
			}
			if w.b[w.i] == ',' {
				w.i++
			}
			w.path = append(w.path, segment{index: i})
			err := w.walk(elem)
			w.path = w.path[:len(w.path)-1]
			if err != nil {
				return err
			}
		}
	case '"':
		w.stringSpan()
	default: // a number or a literal
		for w.i < len(w.b) {
			switch w.b[w.i] {
			case ',', ']', '}', ' ', '\t', '\n', '\r':
				return nil
			}
			w.i++
		}
	}
	return nil
}
