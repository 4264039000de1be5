package cupel

import (
	"reflect"
	"strconv"
)

func formatInt(i int64) string { return strconv.FormatInt(i, 10) }

// isNil reports whether v is nil or an interface holding a nil pointer, map,
// slice or func, whose methods could not be called safely.
func isNil(v any) bool {
	if v == nil {
		return true
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Interface, reflect.Chan:
		return rv.IsNil()
	}
	return false
}
