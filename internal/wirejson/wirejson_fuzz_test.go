package wirejson_test

import (
	"bytes"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/cupel-go/go-cupel/internal/jsonfloat"
	"github.com/cupel-go/go-cupel/internal/wirejson"
	"github.com/cupel-go/go-cupel/internal/wirejson/wirejsontest"
)

// read runs one of the Reader's reads over the whole of b; ok is whether
// it accepted b (the read succeeded and only white space is left).
func read[V any](b []byte, f func(*wirejson.Reader) V) (v V, ok bool) {
	r := wirejson.NewReader(b)
	v = f(r)
	return v, r.Done()
}

// slow decodes b into a V with encoding/json.
func slow[V any](b []byte) (v V, err error) {
	err = json.Unmarshal(b, &v)
	return v, err
}

// check holds one read to encoding/json's decoding of b into a V.
func check[V any](t *testing.T, b []byte, f func(*wirejson.Reader) V) {
	t.Helper()
	fast, ok := read(b, f)
	want, err := slow[V](b)
	wirejsontest.Check(t, b, fast, ok, want, err)
}

// FuzzReader holds each of the Reader's reads to encoding/json: on any
// bytes a read declines, or reads what encoding/json reads into a value
// of the type it returns. Value, which only finds a value's extent, must
// return the bytes given, white space aside.
func FuzzReader(f *testing.F) {
	for _, s := range []string{
		`0`, `-0`, `12`, ` -7 `, `1.5`, `1e3`, `1E+3`, `2.5e-7`, `00`, `01`, `1.`, `.5`, `-`, `1e`, `+1`, `0x1`,
		`1e400`, `-1e400`, `4.9e-324`, `1e-400`, `9223372036854775807`, `9223372036854775808`, `-9223372036854775808`,
		`"NaN"`, `"Infinity"`, `"-Infinity"`, `"nan"`, `"1.5"`, `""`, `"héllo"`, `"a\"b"`, `"\u00e9"`, "\"\xff\"", "\"\x01\"",
		`true`, `false`, `null`, `nul`, `tru`, `{}`, `{"a":1,"b":"x","c":true}`, `{"a":1,"a":2}`, `{"a":null}`,
		`{"a":[1]}`, `{"\u0061":1}`, `{"a":1,}`, `[1,2]`, `[[[]]]`, `{"a":{"b":[1,"x",{"c":"\n"}]}}`, `1 2`, ` `,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		check(t, b, (*wirejson.Reader).String)
		check(t, b, (*wirejson.Reader).Bool)
		check(t, b, (*wirejson.Reader).Float64)
		check(t, b, (*wirejson.Reader).Float)
		check(t, b, (*wirejson.Reader).Scalar)
		check(t, b, func(r *wirejson.Reader) int64 { return r.Int(64) })
		check(t, b, func(r *wirejson.Reader) int { return int(r.Int(strconv.IntSize)) })
		check(t, b, func(r *wirejson.Reader) jsonfloat.Float { return r.Float() })
		check(t, b, func(r *wirejson.Reader) map[string]any {
			return wirejson.Map(r, &wirejson.Strings{}, r.Scalar)
		})
		check(t, b, func(r *wirejson.Reader) map[string]int64 {
			return wirejson.Map(r, &wirejson.Strings{}, func() int64 { return r.Int(64) })
		})
		if v, ok := read(b, (*wirejson.Reader).Value); ok {
			if want := bytes.Trim(b, " \t\r\n"); !bytes.Equal(v, want) {
				t.Fatalf("Value reads %q as %q", b, v)
			}
		}
		if null, ok := read(b, (*wirejson.Reader).Null); ok && null && string(bytes.Trim(b, " \t\r\n")) != "null" {
			t.Fatalf("Null accepts %q", b)
		}
	})
}
