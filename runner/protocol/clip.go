package protocol

import (
	"fmt"
	"unicode/utf8"
)

// MaxKeptLine is the most bytes of an implementation's line a report
// keeps (64 KiB); [ClipLine] marks the rest as omitted.
const MaxKeptLine = 64 << 10

// ClipLine returns line as a string of at most MaxKeptLine bytes (cut at
// a UTF-8 boundary) and, when it is longer, a visible marker saying how
// many bytes were omitted.
func ClipLine(line []byte) string {
	if len(line) <= MaxKeptLine {
		return string(line)
	}
	cut := MaxKeptLine
	for cut > MaxKeptLine-utf8.UTFMax && !utf8.RuneStart(line[cut]) {
		cut--
	}
	return fmt.Sprintf("%s[… %d more bytes of the line omitted …]", line[:cut], len(line)-cut)
}
