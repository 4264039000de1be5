// Package wirejson reads and writes the JSON of the protocol's busiest
// messages (a run request and its case's items) without reflection: the
// runner sends, and a Go adapter reads, one such message a case, and
// encoding/json spends most of a small case's time on them.
//
// It does not replace encoding/json. The Reader accepts a plain subset of
// JSON (keys and strings without escapes, no null where a value is read,
// objects of at most 32 keys, none given twice) and, on anything else,
// marks itself failed, so that the caller decodes the same bytes again
// with [Strict]: encoding/json, with a key given twice or a documented key
// under case folding refused. What the Reader accepts, it reads as Strict
// would, and everything else keeps Strict's behaviour and errors. The
// append functions write encoding/json's bytes for the values they are
// given.
package wirejson

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/cupel-go/go-cupel/internal/jsonfloat"
)

// Reader reads one JSON text from a byte slice. After a failed read its
// methods return zero values; OK reports whether every read succeeded.
type Reader struct {
	b   []byte
	i   int
	bad bool
}

// NewReader returns a Reader of b.
func NewReader(b []byte) *Reader { return &Reader{b: b} }

// Fail marks the read as failed: the caller falls back to [Strict].
func (r *Reader) Fail() { r.bad = true }

// OK reports whether every read so far succeeded.
func (r *Reader) OK() bool { return !r.bad }

// Done reports whether every read succeeded and only white space is left.
func (r *Reader) Done() bool {
	r.ws()
	return !r.bad && r.i == len(r.b)
}

func (r *Reader) ws() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// next skips white space and consumes c when it comes next.
func (r *Reader) next(c byte) bool {
	r.ws()
	if !r.bad && r.i < len(r.b) && r.b[r.i] == c {
		r.i++
		return true
	}
	return false
}

// Object reads an object, calling f with each key when the reader is at
// the key's value; f must read the value (or fail). It fails on a key
// given twice and on an object of more than maxObjectKeys keys, so that
// no caller tracks the keys it has seen.
func (r *Reader) Object(f func(key []byte)) {
	if !r.next('{') {
		r.bad = true
		return
	}
	if r.next('}') {
		return
	}
	// The keys read so far, to fail on one given twice: encoding/json
	// keeps the last, which a reader that fills a value as it goes cannot
	// do. An object of more keys than this is left to encoding/json too.
	var keys [maxObjectKeys][]byte
	n := 0
	for !r.bad {
		key := r.plainString()
		if !r.next(':') {
			r.bad = true
			return
		}
		if n == len(keys) {
			r.bad = true
			return
		}
		for _, k := range keys[:n] {
			if string(k) == string(key) {
				r.bad = true
				return
			}
		}
		keys[n] = key
		n++
		f(key)
		if r.next(',') {
			continue
		}
		if !r.next('}') {
			r.bad = true
		}
		return
	}
}

// maxObjectKeys is the most keys an object the Reader accepts may have.
const maxObjectKeys = 32

// Array reads an array, calling f at each element; f must read it.
func (r *Reader) Array(f func()) {
	if !r.next('[') {
		r.bad = true
		return
	}
	if r.next(']') {
		return
	}
	for !r.bad {
		f()
		if r.next(',') {
			continue
		}
		if !r.next(']') {
			r.bad = true
		}
		return
	}
}

// Null consumes a null when it comes next, and reports whether it did.
func (r *Reader) Null() bool {
	r.ws()
	if !r.bad && len(r.b)-r.i >= 4 && string(r.b[r.i:r.i+4]) == "null" {
		r.i += 4
		return true
	}
	return false
}

// Peek returns the next byte after white space (0 at the end).
func (r *Reader) Peek() byte {
	r.ws()
	if r.bad || r.i >= len(r.b) {
		return 0
	}
	return r.b[r.i]
}

// plainString reads a string without escapes, of valid UTF-8, and returns
// its bytes (which alias the input).
func (r *Reader) plainString() []byte {
	if !r.next('"') {
		r.bad = true
		return nil
	}
	start, high := r.i, false
	for ; r.i < len(r.b); r.i++ {
		switch c := r.b[r.i]; {
		case c == '"':
			s := r.b[start:r.i]
			r.i++
			if high && !utf8.Valid(s) {
				r.bad = true
			}
			return s
		case c == '\\' || c < 0x20:
			r.bad = true
			return nil
		case c >= 0x80:
			high = true
		}
	}
	r.bad = true
	return nil
}

// String reads a string (one without escapes; others fail the read).
func (r *Reader) String() string {
	s := r.plainString()
	if r.bad {
		return ""
	}
	return string(s)
}

// Strings keeps the strings a reader made last, so that a value repeated
// in a message (an item's kind, its source) is one string, made once.
type Strings struct {
	s [16]string
	n int
}

// StringIn reads a string as String does, returning the one of c equal to
// it when there is one.
func (r *Reader) StringIn(c *Strings) string {
	b := r.plainString()
	if r.bad {
		return ""
	}
	return c.Of(b)
}

// Of returns the string of b: the one of c equal to it when there is one.
func (c *Strings) Of(b []byte) string {
	for _, s := range c.s[:c.n] {
		if s == string(b) {
			return s
		}
	}
	s := string(b)
	if c.n < len(c.s) {
		c.s[c.n] = s
		c.n++
	}
	return s
}

// RawString reads a string as String does and returns it with its quotes,
// aliasing the input: what an UnmarshalJSON method of a string is given.
func (r *Reader) RawString() []byte {
	r.ws()
	start := r.i
	r.plainString()
	if r.bad {
		return nil
	}
	return r.b[start:r.i]
}

// Bool reads true or false.
func (r *Reader) Bool() bool {
	r.ws()
	switch {
	case r.bad:
	case len(r.b)-r.i >= 4 && string(r.b[r.i:r.i+4]) == "true":
		r.i += 4
		return true
	case len(r.b)-r.i >= 5 && string(r.b[r.i:r.i+5]) == "false":
		r.i += 5
		return false
	}
	r.bad = true
	return false
}

// Number reads a number and returns its literal (aliasing the input), and
// whether it is an integer literal (no fraction, no exponent).
func (r *Reader) Number() (lit []byte, integer bool) {
	r.ws()
	if r.bad {
		return nil, false
	}
	b, i := r.b, r.i
	start := i
	digits := func() bool {
		s := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i > s
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case !digits():
		r.bad = true
		return nil, false
	}
	integer = true
	if i < len(b) && b[i] == '.' {
		i++
		integer = false
		if !digits() {
			r.bad = true
			return nil, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		integer = false
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits() {
			r.bad = true
			return nil, false
		}
	}
	r.i = i
	return b[start:i], integer
}

// Int reads an integer literal that fits in bits bits, as encoding/json
// reads one into an integer of that size.
func (r *Reader) Int(bits int) int64 {
	lit, integer := r.Number()
	if r.bad {
		return 0
	}
	if !integer {
		r.bad = true
		return 0
	}
	n, err := strconv.ParseInt(string(lit), 10, bits)
	if err != nil {
		r.bad = true
	}
	return n
}

// Float64 reads a number as encoding/json reads one into a float64.
func (r *Reader) Float64() float64 {
	lit, _ := r.Number()
	if r.bad {
		return 0
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil {
		r.bad = true
	}
	return f
}

// Float reads a jsonfloat.Float: a number, or a string its UnmarshalJSON
// reads ("NaN", "Infinity", "-Infinity").
func (r *Reader) Float() jsonfloat.Float {
	if r.Peek() == '"' {
		var f jsonfloat.Float
		if raw := r.RawString(); r.OK() && f.UnmarshalJSON(raw) != nil {
			r.bad = true
		}
		return f
	}
	return jsonfloat.Float(r.Float64())
}

// Scalar reads a string, number or boolean as encoding/json reads one into
// an interface value (a number is a float64); other values fail the read.
func (r *Reader) Scalar() any {
	switch r.Peek() {
	case '"':
		return r.String()
	case 't', 'f':
		return r.Bool()
	}
	return r.Float64()
}

// Value reads any JSON value and returns its bytes (aliasing the input),
// for encoding/json to decode. Only its extent is checked here: strings,
// numbers, literals and nesting; the decoder of the bytes checks the rest.
// Its objects' keys are read as Object reads them (an escape in a key
// fails the read).
func (r *Reader) Value() []byte {
	r.ws()
	start := r.i
	r.skip(0)
	if r.bad {
		return nil
	}
	return r.b[start:r.i]
}

// maxDepth bounds the nesting Value follows (encoding/json's own limit is
// 10,000; deeper values are left to it).
const maxDepth = 1000

func (r *Reader) skip(depth int) {
	if depth > maxDepth {
		r.bad = true
		return
	}
	switch r.Peek() {
	case '{': // keys without escapes, as Object reads them
		r.Object(func([]byte) { r.skip(depth + 1) })
	case '[':
		r.Array(func() { r.skip(depth + 1) })
	case '"':
		r.skipString()
	case 't', 'f':
		r.Bool()
	case 'n':
		if !r.Null() {
			r.bad = true
		}
	default:
		r.Number()
	}
}

// skipString reads a string, escapes included.
func (r *Reader) skipString() {
	if !r.next('"') {
		r.bad = true
		return
	}
	for ; r.i < len(r.b); r.i++ {
		switch c := r.b[r.i]; {
		case c == '"':
			r.i++
			return
		case c == '\\':
			r.i++
		case c < 0x20:
			r.bad = true
			return
		}
	}
	r.bad = true
}

// AppendString appends s as encoding/json writes a string.
func AppendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // escapes and UTF-8 as encoding/json has them
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// AppendFloat appends f as its MarshalJSON writes it: a finite value other
// than -0 is strconv's shortest 'g' form, which is what that codec writes
// for it; the others are its own.
func AppendFloat(b []byte, f jsonfloat.Float) []byte {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) || (v == 0 && math.Signbit(v)) {
		s, _ := f.MarshalJSON()
		return append(b, s...)
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// Map reads an object into a new map, each value by value and each key
// from strs; like every object, one with a key given twice fails the
// read (encoding/json would keep the last).
func Map[V any](r *Reader, strs *Strings, value func() V) map[string]V {
	m := map[string]V{}
	r.Object(func(key []byte) { m[strs.Of(key)] = value() })
	return m
}
