package wirejsontest

import (
	"fmt"
	"math"
	"reflect"
)

// Equal reports whether a and b are deeply equal as reflect.DeepEqual
// decides it, except that floats are equal when their bits are: a NaN
// equals a NaN of the same bits, and 0 and -0 differ. A fast reader must
// give exactly encoding/json's value, and a score of NaN or -0 is one.
func Equal(a, b any) bool { return equal(reflect.ValueOf(a), reflect.ValueOf(b)) }

func equal(a, b reflect.Value) bool {
	if a.IsValid() != b.IsValid() {
		return false
	}
	if !a.IsValid() {
		return true
	}
	if a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float())
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return equal(a.Elem(), b.Elem())
	case reflect.Slice:
		if a.IsNil() != b.IsNil() {
			return false
		}
		fallthrough
	case reflect.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !equal(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for it := a.MapRange(); it.Next(); {
			bv := b.MapIndex(it.Key())
			if !bv.IsValid() || !equal(it.Value(), bv) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range a.NumField() {
			if !equal(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.String:
		return a.String() == b.String()
	}
	panic(fmt.Sprintf("wirejsontest.Equal: values of kind %s", a.Kind()))
}

// T is what Check uses of a test (*testing.T has it).
type T interface {
	Helper()
	Fatalf(format string, args ...any)
}

// Check holds a fast reader to encoding/json on input: when the fast
// reader accepts it (ok), encoding/json must accept it too (slowErr nil)
// and give the same value. A fast reader may decline anything.
func Check(t T, input []byte, fast any, ok bool, slow any, slowErr error) {
	t.Helper()
	if !ok {
		return
	}
	if slowErr != nil {
		t.Fatalf("the fast reader accepts %q, which encoding/json rejects: %v", input, slowErr)
	}
	if !Equal(fast, slow) {
		t.Fatalf("the fast reader reads %q as\n%#v\nencoding/json as\n%#v", input, fast, slow)
	}
}
