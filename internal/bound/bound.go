// Package bound caps the text the runner keeps from an implementation
// under test, so that no implementation can grow the runner's memory or
// its reports without bound (PROTOCOL.md, "What the runner keeps"). Every
// path that stores an implementation's text (the live protocol, offline
// verify, explore, an implementation in process) cuts it here, once, where
// it first stores it.
//
// A cut text keeps its start and ends with a marker that says how much was
// cut, so a reader of a report always sees that it was cut and by how much.
// Both cuts are idempotent: a text within its cap is returned unchanged,
// and a cut text is within its cap.
package bound

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxText is the most bytes of one text the runner keeps for a case: an
// unsupported reason, an error message or kind, a stderr tail, a raw line,
// the message and the details of a verdict (64 KiB, marker included).
const MaxText = 64 << 10

// MaxLine is the most bytes of an implementation's protocol line a report
// keeps, as sent, as the evidence for a case that did not pass (16 KiB,
// marker included). It is less than MaxText: the case's message and result
// keep what the line said, and at 16 KiB a run of the whole suite whose
// every case sends a maximal line still writes a JSON report under 64 MiB.
const MaxLine = 16 << 10

// MaxName is the most characters (runes) the runner keeps of one text of
// an implementation's hello: its name, version, language, homepage and
// each capability (marker included).
const MaxName = 200

// MaxList is the most entries the runner keeps of one capability list of
// an implementation's hello (stages, scorers, slicers, placers, features)
// and of the requirement ids a case covers; the last kept entry then says
// how many were cut.
const MaxList = 64

// textMarker is the marker that ends a text cut by [Text]: it says how
// many bytes of the text were cut.
func textMarker(cut int) string { return " … [" + strconv.Itoa(cut) + " bytes cut]" }

// nameMarker is the marker that ends a name cut by [Name]: it says how
// many characters were cut.
func nameMarker(cut int) string { return " … [" + strconv.Itoa(cut) + " characters cut]" }

// Text returns s when it is at most MaxText bytes long; otherwise its
// start, cut at a character boundary, followed by " … [N bytes cut]", MaxText
// bytes at most in all. The result never shares memory with a long s.
func Text(s string) string { return cut(s, MaxText) }

// Line returns line as Text would, with a cap of MaxLine bytes: the line
// itself when it is at most MaxLine bytes long, else its start and a
// marker saying how many bytes were cut.
func Line(line []byte) string {
	if len(line) <= MaxLine {
		return string(line)
	}
	return cut(string(line), MaxLine)
}

// cut is Text with a cap of max bytes (at least the marker's length). A
// text that ends with a marker already (a text cut before, then led by a
// few words of the runner's) gets one marker that counts both cuts.
func cut(s string, max int) string {
	if len(s) <= max {
		return s
	}
	body, before := cutBefore(s)
	// The marker's length depends on the count it says, which is at most
	// before+len(body): reserve room for that one.
	keep := max - len(textMarker(before+len(body)))
	for keep > 0 && !utf8.RuneStart(body[keep]) {
		keep--
	}
	return body[:keep] + textMarker(before+len(body)-keep)
}

// cutBefore splits a text that ends with a text marker into the text
// before it and the count it says; otherwise it returns s and 0.
func cutBefore(s string) (body string, n int) {
	const open, close = " … [", " bytes cut]"
	if !strings.HasSuffix(s, close) {
		return s, 0
	}
	at := strings.LastIndex(s, open)
	if at < 0 {
		return s, 0
	}
	n, err := strconv.Atoi(s[at+len(open) : len(s)-len(close)])
	if err != nil || n <= 0 {
		return s, 0
	}
	return s[:at], n
}

// Name returns s when it has at most MaxName characters; otherwise its
// first characters followed by " … [N characters cut]", MaxName characters at most in
// all.
func Name(s string) string {
	if len(s) <= MaxName || utf8.RuneCountInString(s) <= MaxName {
		return s
	}
	n := utf8.RuneCountInString(s)
	keep := MaxName - utf8.RuneCountInString(nameMarker(n))
	i := 0
	for range keep {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i] + nameMarker(n-keep)
}

// Lines returns lines when their bytes (a newline counted after each)
// are at most MaxText in all; otherwise the lines that fit, the last one
// cut as [Text] cuts, followed by a line that says how many lines (and
// their bytes) were left out. It is the cap of a verdict's details.
func Lines(lines []string) []string {
	total := 0
	for _, l := range lines {
		total += len(l) + 1
	}
	if total <= MaxText {
		return lines
	}
	out := []string{}
	used, rest := 0, total
	for i, l := range lines {
		rest -= len(l) + 1
		room := MaxText - used - 1
		var note string
		if i < len(lines)-1 {
			note = linesNote(len(lines)-i-1, rest)
			room -= len(note) + 1
		}
		if len(l) <= room {
			out = append(out, l)
			used += len(l) + 1
			continue
		}
		if room < len(textMarker(len(l)))+1 {
			// No room for even a marker: the line is left out too.
			return append(out, linesNote(len(lines)-i, rest+len(l)+1))
		}
		out = append(out, cut(l, room))
		if note != "" {
			out = append(out, note)
		}
		return out
	}
	return out
}

// List returns list with each entry cut by [Name] and at most MaxList
// entries, the last of which then says how many were cut
// ("… [N more cut]"); list itself when nothing is over a cap. It is the
// cap of a hello's capability lists and of a case's requirement ids.
func List(list []string) []string {
	over := len(list) > MaxList
	for _, s := range list {
		over = over || Name(s) != s
	}
	if !over {
		return list
	}
	out := make([]string, 0, min(len(list), MaxList))
	for _, s := range list[:min(len(list), MaxList)] {
		out = append(out, Name(s))
	}
	if len(list) > MaxList {
		out[MaxList-1] = "… [" + strconv.Itoa(len(list)-MaxList+1) + " more cut]"
	}
	return out
}

func linesNote(lines, bytes int) string {
	return "… [" + strconv.Itoa(lines) + " more lines (" + strconv.Itoa(bytes) + " bytes) cut]"
}
