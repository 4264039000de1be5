// Package safetext renders text an implementation under test sent (its
// name, reasons, messages, stderr) for the runner's people-facing
// reports, so that it shows as data and never passes for the runner's own
// words: Clean makes control characters visible, Line and Lines keep it
// from starting a line of the text report, Block quotes a stderr tail,
// and Markdown escapes it for a line of a Markdown report.
package safetext

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text from an implementation (its name, stderr, unsupported reasons,
// error and fault messages, its answers) is data. The JSON report carries
// it exactly; the HTML page escapes it (html/template); the text, JUnit,
// TAP, test2json and Markdown reports pass it through Clean, which
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
// "level:" or "verdict:" line): [Line] keeps it on its line, with a
// newline shown as ␊; [Lines] indents each of its lines that would
// start at the left margin; [Markdown] escapes what
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

// maxMarks is how many combining marks in a row Clean keeps: no
// script puts more than a few on one letter, and hundreds of them ("Zalgo"
// text) draw over the lines above and below in a browser.
const maxMarks = 8

// mark reports whether r is a combining mark (Unicode categories Mn, Me).
func mark(r rune) bool { return r >= 0x300 && unicode.In(r, unicode.Mn, unicode.Me) }

// Clean returns s without ANSI escape sequences, with CRLF as a
// newline, every unprintable rune (or byte of invalid UTF-8) replaced by
// its stand-in, and a run of more than maxMarks combining marks cut to
// maxMarks and U+FFFD. It returns s itself when there is nothing to
// change.
func Clean(s string) string {
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

// Line is implementation text made safe for one line of a report
// for people (the text report, smoke's and explore's output): cleaned as
// JUnit and TAP clean it (no escape sequence or control character gets
// through; each is removed or shown as its picture), with each newline
// shown as ␊, so that the text stays on the runner's line.
func Line(s string) string {
	s = Clean(s)
	if !strings.Contains(s, "\n") {
		return s
	}
	return strings.ReplaceAll(s, "\n", string(standIn('\n')))
}

// Lines is implementation text made safe for lines of a report for
// people that start with indent: cleaned as [Line] cleans it, its
// lines kept, and each line after the first that would start at the left
// margin (with anything but a space or a tab, an invisible character
// included) indented with indent. So no line of it starts where the
// runner's own "level:" and "verdict:" lines do. The caller writes indent
// before the first line.
func Lines(s, indent string) string {
	s = Clean(s)
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

// Block is implementation text (a stderr tail) made safe as a block
// of lines of a report for people: cleaned as [Line] cleans it,
// without its trailing newlines, each line after prefix.
func Block(s, prefix string) string {
	s = strings.TrimRight(Clean(s), "\n")
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// markdownCut is how many bytes of a piece of implementation text the
// Markdown summary shows, before "…".
const markdownCut = 300

// Markdown is implementation text for a Markdown report, in the
// middle of one of its lines (a heading, a paragraph or a table cell). It
// is cleaned as the text report cleans it, kept on the line (a newline is
// a space), cut after markdownCut bytes, and every character that could
// start markup there is written as a character reference, which CommonMark
// and GitHub show as the character and never read as syntax:
//
//   - always: & (&amp;), < (&lt;: HTML, comments, autolinks), ` (code
//     spans), * and ~ (emphasis, strikethrough), | (table cells) and $
//     (GitHub's maths);
//   - where it has a meaning: _ unless between two letters or digits
//     (where it cannot open or close emphasis), ] before ( (a link or an
//     image), \ before ASCII punctuation or at the end (it would escape
//     the next character), and # in a run of them that would close a
//     heading (after a space, with nothing but spaces or # after it).
//
// Ordinary text (names, reasons, messages without those characters, "C#",
// "pinned_exceeds_budget", "score of #0", "[1, 2]") is written unchanged.
func Markdown(s string) string {
	s = strings.ReplaceAll(Clean(s), "\n", " ")
	if len(s) > markdownCut {
		i := markdownCut
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		s = s[:i] + "…"
	}
	if !strings.ContainsAny(s, "&<`*~|$_]\\#") {
		return s
	}
	rs := []rune(s)
	at := func(i int) rune {
		if i < 0 || i >= len(rs) {
			return 0
		}
		return rs[i]
	}
	word := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	var b strings.Builder
	for i, r := range rs {
		escape := false
		switch r {
		case '&', '<', '`', '*', '~', '|', '$':
			escape = true
		case '_':
			escape = !word(at(i-1)) || !word(at(i+1))
		case ']':
			escape = at(i+1) == '('
		case '\\':
			next := at(i + 1)
			escape = next == 0 || next < 0x80 && unicode.IsPunct(next) || next < 0x80 && unicode.IsSymbol(next)
		case '#':
			escape = closesHeading(rs, i)
		}
		switch {
		case !escape:
			b.WriteRune(r)
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		default:
			fmt.Fprintf(&b, "&#%d;", r)
		}
	}
	return b.String()
}

// closesHeading reports whether the # at rs[i] is part of the closing
// sequence of an ATX heading if rs ended one: a run of # after a space (or
// at the start) with nothing but spaces, tabs and # after it.
func closesHeading(rs []rune, i int) bool {
	j := i
	for j > 0 && rs[j-1] == '#' {
		j--
	}
	if j > 0 && rs[j-1] != ' ' && rs[j-1] != '\t' {
		return false
	}
	for _, r := range rs[i+1:] {
		if r != '#' && r != ' ' && r != '\t' {
			return false
		}
	}
	return true
}
