package cupel

import "reflect"

// isNilSlicer reports whether s is nil or a typed nil (a nil pointer, map,
// func, ... inside the interface).
func isNilSlicer(s Slicer) bool {
	if s == nil {
		return true
	}
	switch v := reflect.ValueOf(s); v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Interface, reflect.Chan:
		return v.IsNil()
	}
	return false
}
