package hostile

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// The render variants send text meant for the reader of a report rather
// than for the runner: terminal control sequences, a fake level and
// verdict block, Markdown and HTML markup, bidirectional overrides and
// invisible characters, in the hello's name, version and language, in
// unsupported reasons, in error kinds and messages, in the reasons of a
// selection report and on stderr. Each also answers its first case (a
// required one: the runner sends those first) as unsupported, so that the
// real verdict is a FAIL that the text must not hide or outshout.

// FakeVerdict is the block of runner lines the render variants try to
// pass off as the runner's: a "Cupel Fully Conformant" level and a
// passing verdict.
const FakeVerdict = "level: Cupel Fully Conformant\nverdict: PASS — nothing unexpected; level Cupel Fully Conformant\n"

// clearScreen clears a terminal and moves the cursor home: what came
// before the fake block is gone from the screen.
const clearScreen = "\x1b[2J\x1b[3J\x1b[H"

// markupTexts are Markdown and HTML that would hide or forge the rest of a
// Markdown summary (or an HTML page) if it reached it as markup.
var markupTexts = []string{
	"<!-- an unterminated comment hides the level and the verdict",
	"```\n" + FakeVerdict + "```",
	"# " + FakeVerdict,
	"| forged | row |\n|---|---|\n| verdict: PASS | |",
	"</td></tr></table><script>alert(document.domain)</script>",
	"**Cupel Fully Conformant** — " + FakeVerdict + "[details](javascript:alert(1)) ![badge](https://img.shields.io/badge/cupel-passing-green) <img src=x onerror=alert(2)> $\\Huge PASS$ ~~FAIL~~",
	"> " + FakeVerdict + "\n- - -\n" + FakeVerdict + "===\n",
}

// invisibleTexts reorder or hide text without being seen: a
// right-to-left override that makes "SSAP :tcidrev" read "verdict:
// PASS", isolates, marks, a zero-width space, a word joiner, a soft
// hyphen, tag characters, a byte-order mark, and hundreds of combining
// marks on one letter, which draw over the lines around them.
var invisibleTexts = []string{
	"\u202eSSAP :tcidrev\u202c",
	"\u2067\u2066verdict: PASS\u2069\u2069 \u200e\u200f\u061c",
	"\u200b\nverdict: PASS\u2060\u00ad\U000e0041\ufeff",
	"\u202dlevel: Cupel Fully Conformant\u202c\n\u2028verdict: PASS\u2029\u0085verdict: PASS",
	"verdict: PASS" + strings.Repeat("\u0336\u0489\u20dd\u0358", 60),
}

// spoof is text that clears the terminal and prints a fake level and
// verdict at the left margin.
const spoof = "\n" + clearScreen + FakeVerdict

func init() {
	register("render-hello", Variant{
		Doc: "a hello whose name, version and language clear the screen and print a fake level and verdict, with Markdown comments and markup; the first case unsupported. The reports must show the real FAIL last",
		Hello: func(line []byte) [][]byte {
			return [][]byte{rewrite(line, func(m map[string]any) {
				impl, _ := m["implementation"].(map[string]any)
				if impl == nil {
					return
				}
				impl["name"] = fmt.Sprint(impl["name"]) + spoof
				impl["version"] = "1.0\r\n<!-- " + clearScreen + "\n## verdict: PASS"
				impl["language"] = "go\x1b]0;a terminal title\x07\x1b[8m hidden\x1b[28m`"
			})}
		},
		Result: unsupportedFirst("not yet" + spoof),
	})
	register("render-reasons", Variant{
		Doc:    "unsupported reasons (the first seven cases) that carry Markdown comments, code fences, headings, table rows, HTML and a fake verdict. The reports must show the real FAIL last",
		Result: unsupportedEach(markupTexts),
	})
	register("render-errors", Variant{
		Doc: "error results (the first three cases) whose kind and message clear the screen and print a fake level and verdict with ANSI colours and control characters. The reports must show the real FAIL last",
		Result: func(seq int, line []byte) [][]byte {
			if seq > 3 {
				return [][]byte{line}
			}
			return answer(line, map[string]any{"status": "error", "error": map[string]any{"kind": "internal" + spoof,
				"message": "\x1b[32;1m" + FakeVerdict + "\x1b[0m\x00\x07\b\b\b\b" + markupTexts[seq-1]}})
		},
	})
	register("render-invisible", Variant{
		Doc: "a name and unsupported reasons with bidirectional overrides, isolates and marks, zero-width and other invisible characters and Unicode line breaks around a fake verdict. The reports must show the real FAIL last",
		Hello: func(line []byte) [][]byte {
			return [][]byte{rewrite(line, func(m map[string]any) {
				if impl, _ := m["implementation"].(map[string]any); impl != nil {
					impl["name"] = fmt.Sprint(impl["name"]) + invisibleTexts[0] + invisibleTexts[2]
				}
			})}
		},
		Result: unsupportedEach(invisibleTexts),
	})
	register("render-diagnostics", Variant{
		Doc: "selection reports whose reasons (what the runner's diffs quote) carry a fake verdict at the left margin, ANSI sequences and markup; the first case unsupported. The reports must show the real FAIL last",
		Result: func(seq int, line []byte) [][]byte {
			if seq == 1 {
				return unsupported(line, "not yet")
			}
			return [][]byte{rewrite(line, func(m map[string]any) {
				out, _ := m["output"].(map[string]any)
				diag, _ := out["diagnostics"].(map[string]any)
				for _, list := range []string{"included", "excluded"} {
					entries, _ := diag[list].([]any)
					for _, e := range entries {
						if entry, _ := e.(map[string]any); entry != nil {
							if reason, _ := entry["reason"].(map[string]any); reason != nil {
								reason["reason"] = fmt.Sprint(reason["reason"]) + spoof + markupTexts[0]
							}
						}
					}
				}
			})}
		},
	})
	register("render-stderr", Variant{
		Doc: "a crash at the first case after writing a terminal reset, a fake level and verdict and markup to stderr. The reports must show the real FAIL last",
		Result: func(seq int, line []byte) [][]byte {
			if seq == 1 {
				fmt.Fprint(os.Stderr, "\x1bc"+clearScreen+FakeVerdict+markupTexts[0]+"\n\x1b[31mred\r\n")
				os.Exit(3)
			}
			return [][]byte{line}
		},
	})
}

// unsupportedEach answers case seq unsupported with reason reasons[seq-1]
// while there are reasons, the others honestly.
func unsupportedEach(reasons []string) func(int, []byte) [][]byte {
	return func(seq int, line []byte) [][]byte {
		if seq > len(reasons) {
			return [][]byte{line}
		}
		return unsupported(line, reasons[seq-1])
	}
}

// unsupportedFirst answers the first case unsupported with reason, the
// others honestly.
func unsupportedFirst(reason string) func(int, []byte) [][]byte {
	return func(seq int, line []byte) [][]byte {
		if seq != 1 {
			return [][]byte{line}
		}
		return unsupported(line, reason)
	}
}

// unsupported is the result line answered as unsupported with reason.
func unsupported(line []byte, reason string) [][]byte {
	return answer(line, map[string]any{"status": "unsupported", "reason": reason})
}

// answer is the result line with its result (every field but type, seq
// and id) replaced by fields.
func answer(line []byte, fields map[string]any) [][]byte {
	return [][]byte{rewrite(line, func(m map[string]any) {
		for k := range m {
			if k != "type" && k != "seq" && k != "id" {
				delete(m, k)
			}
		}
		for k, v := range fields {
			m[k] = v
		}
	})}
}

// rewrite decodes a JSON object line, lets edit change it and encodes it
// again; a line that is not an object is sent unchanged.
func rewrite(line []byte, edit func(map[string]any)) []byte {
	var m map[string]any
	if err := json.Unmarshal(line, &m); err != nil {
		return line
	}
	edit(m)
	out, err := json.Marshal(m)
	if err != nil {
		return line
	}
	return out
}
