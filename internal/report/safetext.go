package report

import (
	"reflect"
	"strings"

	"github.com/cupel-go/go-cupel/internal/safetext"
)

// junitSafe makes every string of v (a pointer to the JUnit structures,
// followed through structs, pointers and slices) safe for XML 1.0 with
// safetext.Clean. The XML encoder escapes markup in attributes and splits "]]>"
// in CDATA; it does neither for characters XML cannot carry. It walks the
// whole value so that a field added to the JUnit structures is covered
// without another call.
func junitSafe(v any) { cleanStrings(reflect.ValueOf(v)) }

func cleanStrings(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			cleanStrings(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				cleanStrings(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			cleanStrings(v.Index(i))
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString(safetext.Clean(v.String()))
		}
	}
}

// tapSafe makes implementation text safe for TAP 14 and its YAML blocks
// with safetext.Clean. It is called where such text enters the report:
// tapEscape (descriptions and directives, kept on one line), yamlString
// (YAML strings) and the detail block (kept inside the block by its
// indentation and yamlBlockHeader).
func tapSafe(s string) string { return safetext.Clean(s) }

// yamlBlockHeader is the header of a YAML literal block whose lines are
// lines, indented by four spaces under a key indented by two: "|", or
// "|2" (the indentation stated) when the first line that is not blank
// starts with a space, or a blank line before it has spaces, which would
// make a YAML reader guess the indentation wrong.
func yamlBlockHeader(lines []string) string {
	for _, l := range lines {
		if strings.TrimLeft(l, " ") == "" {
			if l != "" {
				return "|2"
			}
			continue
		}
		if l[0] == ' ' || l[0] == '\t' {
			return "|2"
		}
		return "|"
	}
	return "|"
}
