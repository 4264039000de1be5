package reportcheck

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// The text report and the Markdown summary have no parser to read them
// back: a person reads them, a terminal shows the text, a CommonMark
// renderer (GitHub's) shows the Markdown, and scripts take the last lines.
// Text and Markdown check them against the same report written with
// neutral implementation text (a letter where the text was): what the
// implementation sent may change what is inside the runner's lines, never
// which lines there are or how they start.

// unseen finds what a terminal or a renderer obeys instead of showing: a
// C0 control but tab and newline, DEL, a C1 control, U+2028, U+2029 and
// the bidirectional formatting characters.
var unseen = regexp.MustCompile("[\x00-\x08\x0b-\x1f\x7f\u0080-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

// Unseen checks that report has no character that a terminal or a
// renderer obeys rather than shows: a C0 control but tab and newline,
// DEL, a C1 control, U+2028, U+2029 or a bidirectional formatting
// character, and no run of more than eight combining marks.
func Unseen(report string) error {
	if loc := unseen.FindStringIndex(report); loc != nil {
		return fmt.Errorf("%q at byte %d: a character the reader's terminal or renderer obeys rather than shows", report[loc[0]:loc[1]], loc[0])
	}
	if loc := marks.FindStringIndex(report); loc != nil {
		return fmt.Errorf("%d bytes of combining marks in a row at byte %d: they draw over the lines around them", loc[1]-loc[0], loc[0])
	}
	return nil
}

// marks finds more than eight combining marks in a row.
var marks = regexp.MustCompile(`[\p{Mn}\p{Me}]{9,}`)

// Text checks a text report (cupel-conform's stdout) against neutral, the
// same report with neutral implementation text: no control character but
// newline and tab, and no bidirectional formatting character; the lines
// that start at the left margin are as many as neutral's and start with
// the same word (implementation text never starts a line); the last two
// lines are neutral's, and start with "level: " and "verdict: "; no other
// line starts with "level:" or "verdict:".
func Text(report, neutral string) error {
	if err := Unseen(report); err != nil {
		return err
	}
	margin := func(s string) []string {
		var out []string
		for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
			if l != "" && l[0] != ' ' && l[0] != '\t' {
				out = append(out, l)
			}
		}
		return out
	}
	got, want := margin(report), margin(neutral)
	if len(got) != len(want) {
		return fmt.Errorf("%d lines start at the left margin, %d with neutral text:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range got {
		if g, w := firstWord(got[i]), firstWord(want[i]); g != w {
			return fmt.Errorf("line %q at the left margin starts with %q, %q with neutral text", got[i], g, w)
		}
		if (strings.HasPrefix(got[i], "level:") || strings.HasPrefix(got[i], "verdict:")) && i < len(got)-2 {
			return fmt.Errorf("line %q, before the last two, passes for the runner's level or verdict", got[i])
		}
	}
	n := len(got)
	if n < 2 || !strings.HasPrefix(want[n-2], "level: ") || !strings.HasPrefix(want[n-1], "verdict: ") {
		return fmt.Errorf("the report with neutral text does not end with its level and verdict lines")
	}
	if !strings.HasSuffix(report, "\n"+want[n-2]+"\n"+want[n-1]+"\n") {
		return fmt.Errorf("the report does not end with the runner's lines\n%s\n%s", want[n-2], want[n-1])
	}
	return nil
}

func firstWord(l string) string {
	w, _, _ := strings.Cut(l, " ")
	return w
}

var (
	// reference is a character reference, the only & the Markdown
	// summary writes.
	reference = regexp.MustCompile(`^&(amp|lt|#[0-9]+);`)
	// closing is the closing sequence of an ATX heading.
	closing = regexp.MustCompile(`(^|[ \t])#+[ \t]*$`)
)

// Markdown checks a Markdown summary against neutral, the same summary
// with neutral implementation text, structurally, as CommonMark and
// GitHub would read it: [MarkdownMarkup], and the level (neutral's first
// line in bold) and the verdict (its last line) there unchanged.
func Markdown(report, neutral string) error {
	if err := MarkdownMarkup(report, neutral); err != nil {
		return err
	}
	got, want := strings.Split(report, "\n"), strings.Split(neutral, "\n")
	level, verdict := -1, -1
	for i, w := range want {
		if level < 0 && strings.HasPrefix(w, "**") {
			level = i
		}
		if w != "" {
			verdict = i
		}
	}
	if level < 0 || !strings.HasPrefix(want[verdict], "verdict: ") {
		return fmt.Errorf("the summary with neutral text has no level in bold or does not end with its verdict")
	}
	for _, i := range []int{level, verdict} {
		if got[i] != want[i] {
			return fmt.Errorf("line %d is %q, the runner's %q with neutral text", i+1, got[i], want[i])
		}
	}
	return nil
}

// MarkdownMarkup is the part of [Markdown] that holds for any Markdown
// report (the comparison's too): no character obeyed rather than shown;
// the same lines as neutral, blank where neutral's are, each starting
// with neutral's first byte and with as many |; no more <, `, *, ~, $ or
// ]( than neutral; every & a character reference, no \ escaping ASCII
// punctuation or ending a line, no more _ that could make emphasis than
// neutral, and no heading ending with a closing sequence.
func MarkdownMarkup(report, neutral string) error {
	if err := Unseen(report); err != nil {
		return err
	}
	got, want := strings.Split(report, "\n"), strings.Split(neutral, "\n")
	if len(got) != len(want) {
		return fmt.Errorf("%d lines, %d with neutral text", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		switch {
		case (g == "") != (w == ""):
			return fmt.Errorf("line %d is %q, %q with neutral text", i+1, g, w)
		case g == "":
			continue
		case g[0] != w[0]:
			return fmt.Errorf("line %d starts with %q, %q with neutral text: %s", i+1, g[0], w[0], g)
		case strings.Count(g, "|") != strings.Count(w, "|"):
			return fmt.Errorf("line %d has %d |, %d with neutral text: %s", i+1, strings.Count(g, "|"), strings.Count(w, "|"), g)
		case g[0] == '#' && closing.MatchString(g):
			return fmt.Errorf("line %d ends with a heading's closing sequence, which hides it: %s", i+1, g)
		}
	}
	for _, m := range []string{"<", "`", "*", "~", "$", "]("} {
		if g, w := strings.Count(report, m), strings.Count(neutral, m); g > w {
			return fmt.Errorf("%d %q, %d with neutral text: markup from the implementation's text", g, m, w)
		}
	}
	for i := 0; i < len(report); i++ {
		switch report[i] {
		case '&':
			if !reference.MatchString(report[i:]) {
				return fmt.Errorf("an & that starts no character reference at byte %d: %.20q", i, report[i:])
			}
		case '\\':
			if i+1 == len(report) || report[i+1] == '\n' || report[i+1] < 0x80 && unicode.IsPunct(rune(report[i+1])) || report[i+1] < 0x80 && unicode.IsSymbol(rune(report[i+1])) {
				return fmt.Errorf("a \\ that escapes what follows it at byte %d: %.20q", i, report[i:])
			}
		}
	}
	if g, w := looseUnderscores(report), looseUnderscores(neutral); g > w {
		return fmt.Errorf("%d _ that could open or close emphasis, %d with neutral text", g, w)
	}
	return nil
}

// looseUnderscores counts the _ outside code spans that are not between
// two letters or digits.
func looseUnderscores(s string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		rs := []rune(l)
		code := false
		for i, r := range rs {
			switch {
			case r == '`':
				code = !code
			case r == '_' && !code:
				if i == 0 || i == len(rs)-1 || !word(rs[i-1]) || !word(rs[i+1]) {
					n++
				}
			}
		}
	}
	return n
}

func word(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
