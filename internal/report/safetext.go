package report

import (
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text from an implementation (its name, stderr, unsupported reasons,
// error and fault messages, its answers) is data. The JSON report carries
// it exactly; the HTML page escapes it (html/template); the text, JUnit,
// TAP, test2json and Markdown reports pass it through cleanText, which
// keeps what the format can carry and makes the rest readable:
//
//   - ANSI escape sequences (colours, cursor moves, terminal titles) are
//     removed: loggers colour their output, and a report is not a terminal.
//   - A control character is shown as its Unicode control picture (NUL as
//     ␀, ESC as ␛, a lone carriage return as ␍), DEL as ␡; C1 controls,
//     U+2028, U+2029, the byte-order mark, the non-characters U+FFFE and
//     U+FFFF, the bidirectional formatting characters (U+202E and its
//     kin, which reorder the text around them unseen) and every byte of
//     invalid UTF-8 (a lone surrogate included) become U+FFFD. Tab and
//     newline stay; CRLF becomes a newline.
//   - A run of more than eight combining marks is cut to eight and
//     U+FFFD: hundreds on one letter draw over the lines around it.
//
// XML 1.0 forbids those characters outright ("CData section not
// finished"), YAML 1.2 (TAP's YAML blocks) has no room for them either,
// U+2028, U+2029 and U+0085 are line breaks to older YAML readers, and a
// terminal obeys the rest.
//
// The text and Markdown reports also keep implementation text from
// starting a line, where it could pass for the runner's own lines (a
// "level:" or "verdict:" line): [TextLine] keeps it on its line, with a
// newline shown as ␊; [TextLines] indents each of its lines that would
// start at the left margin; MarkdownText (markdown.go) escapes what
// Markdown would read as markup.

// printable reports whether r may appear as itself in a report.
func printable(r rune) bool {
	switch {
	case r == '\t' || r == '\n':
		return true
	case r < 0x20, r >= 0x7f && r < 0xa0: // C0, DEL, C1
		return false
	case r == 0x2028, r == 0x2029, r == 0xfeff, r == 0xfffe, r == 0xffff:
		return false
	case bidiControl(r):
		return false
	}
	return utf8.ValidRune(r) // excludes surrogates
}

// bidiControl reports whether r is a bidirectional formatting character
// (an embedding, override or isolate, or a directional mark): invisible
// itself, it reorders the text that follows it, so that U+202E "ssap"
// reads "pass".
func bidiControl(r rune) bool {
	switch {
	case r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// standIn is what an unprintable rune becomes.
func standIn(r rune) rune {
	switch {
	case r >= 0 && r < 0x20:
		return 0x2400 + r // SYMBOL FOR NULL … SYMBOL FOR UNIT SEPARATOR
	case r == 0x7f:
		return 0x2421 // SYMBOL FOR DELETE
	}
	return utf8.RuneError
}

// maxMarks is how many combining marks in a row cleanText keeps: no
// script puts more than a few on one letter, and hundreds of them ("Zalgo"
// text) draw over the lines above and below in a browser.
const maxMarks = 8

// mark reports whether r is a combining mark (Unicode categories Mn, Me).
func mark(r rune) bool { return r >= 0x300 && unicode.In(r, unicode.Mn, unicode.Me) }

// cleanText returns s without ANSI escape sequences, with CRLF as a
// newline, every unprintable rune (or byte of invalid UTF-8) replaced by
// its stand-in, and a run of more than maxMarks combining marks cut to
// maxMarks and U+FFFD. It returns s itself when there is nothing to
// change.
func cleanText(s string) string {
	i, marks := 0, 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !printable(r) || (r == utf8.RuneError && size == 1) {
			break
		}
		if !mark(r) {
			marks = 0
		} else if marks == maxMarks {
			break // the slow path counts it again
		} else {
			marks++
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for i < len(s) {
		if n := ansiLen(s[i:]); n > 0 {
			i += n
			continue
		}
		if strings.HasPrefix(s[i:], "\r\n") {
			i++ // the newline is written next
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if marks = marks + 1; !mark(r) {
			marks = 0
		}
		switch {
		case marks > maxMarks+1:
		case marks == maxMarks+1:
			b.WriteRune(utf8.RuneError)
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case printable(r):
			b.WriteString(s[i : i+size])
		default:
			b.WriteRune(standIn(r))
		}
		i += size
	}
	return b.String()
}

// TextLine is implementation text made safe for one line of a report
// for people (the text report, smoke's and explore's output): cleaned as
// JUnit and TAP clean it (no escape sequence or control character gets
// through; each is removed or shown as its picture), with each newline
// shown as ␊, so that the text stays on the runner's line.
func TextLine(s string) string {
	s = cleanText(s)
	if !strings.Contains(s, "\n") {
		return s
	}
	return strings.ReplaceAll(s, "\n", string(standIn('\n')))
}

// TextLines is implementation text made safe for lines of a report for
// people that start with indent: cleaned as [TextLine] cleans it, its
// lines kept, and each line after the first that would start at the left
// margin (with anything but a space or a tab, an invisible character
// included) indented with indent. So no line of it starts where the
// runner's own "level:" and "verdict:" lines do. The caller writes indent
// before the first line.
func TextLines(s, indent string) string {
	s = cleanText(s)
	if !strings.Contains(s, "\n") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(indent)*strings.Count(s, "\n"))
	for i, l := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteByte('\n')
			if l != "" && l[0] != ' ' && l[0] != '\t' {
				b.WriteString(indent)
			}
		}
		b.WriteString(l)
	}
	return b.String()
}

// ansiLen is the length of the ANSI escape sequence at the start of s, or
// 0: a CSI sequence (ESC [ parameters, intermediates, a final byte), an
// OSC, DCS, SOS, PM or APC string (ESC ] … ended by BEL or ESC \), or a
// two-character escape (ESC and a byte from 0x40 to 0x7e, or ESC and an
// intermediate and a final byte). An unfinished sequence is not one: its
// ESC shows as ␛.
func ansiLen(s string) int {
	if len(s) < 2 || s[0] != 0x1b {
		return 0
	}
	switch c := s[1]; {
	case c == '[':
		for i := 2; i < len(s); i++ {
			switch b := s[i]; {
			case b >= 0x40 && b <= 0x7e:
				return i + 1
			case b < 0x20 || b > 0x3f:
				return 0
			}
		}
		return 0
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		for i := 2; i < len(s); i++ {
			switch s[i] {
			case 0x07:
				return i + 1
			case 0x1b:
				if i+1 < len(s) && s[i+1] == '\\' {
					return i + 2
				}
				return 0
			}
		}
		return 0
	case c >= 0x20 && c <= 0x2f:
		if len(s) > 2 && s[2] >= 0x30 && s[2] <= 0x7e {
			return 3
		}
		return 0
	case c >= 0x40 && c <= 0x7e:
		return 2
	}
	return 0
}

// junitSafe makes every string of v (a pointer to the JUnit structures,
// followed through structs, pointers and slices) safe for XML 1.0 with
// cleanText. The XML encoder escapes markup in attributes and splits "]]>"
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
			v.SetString(cleanText(v.String()))
		}
	}
}

// tapSafe makes implementation text safe for TAP 14 and its YAML blocks
// with cleanText. It is called where such text enters the report:
// tapEscape (descriptions and directives, kept on one line), yamlString
// (YAML strings) and the detail block (kept inside the block by its
// indentation and yamlBlockHeader).
func tapSafe(s string) string { return cleanText(s) }

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
