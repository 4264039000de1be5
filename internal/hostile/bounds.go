package hostile

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/cupel-go/go-cupel/runner/protocol"
)

// The variants of this file send oversized fields, each line within
// protocol.MaxLine: the runner must keep a bounded part of each (package
// internal/bound), mark the cut, and judge the case as the documented
// fields say.

// lineRoom is how long a hostile line may be: MaxLine with room to spare
// for the newline and the line's other fields.
const lineRoom = protocol.MaxLine - 4<<10

// filler is a long run of one character, reused by every line.
var filler = strings.Repeat("x", lineRoom)

// fill is n bytes of filler.
func fill(n int) string { return filler[:n] }

// honest decodes an honest result line.
func honest(line []byte) protocol.ResultMessage {
	var m protocol.ResultMessage
	if err := json.Unmarshal(line, &m); err != nil {
		panic("hostile: an honest line does not decode: " + err.Error())
	}
	return m
}

// head is the start of a result line for m, up to its status.
func head(m protocol.ResultMessage) string {
	id, _ := json.Marshal(m.ID)
	return `{"type":"result","seq":` + strconv.Itoa(m.Seq) + `,"id":` + string(id)
}

// withKey inserts `"key":value` into the honest object line.
func withKey(line []byte, key, value string) [][]byte {
	out := make([]byte, 0, len(line)+len(key)+len(value)+4)
	out = append(out, line[:len(line)-1]...)
	out = append(out, `,"`+key+`":`...)
	out = append(out, value...)
	return [][]byte{append(out, '}')}
}

// repeat joins n copies of s with sep.
func repeat(s, sep string, n int) string {
	var b strings.Builder
	b.Grow(n * (len(s) + len(sep)))
	for i := range n {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(s)
	}
	return b.String()
}

func init() {
	register("huge-reason", Variant{
		Doc: "answers every case unsupported with a reason of nearly MaxLine bytes: each case is unsupported, its reason kept cut at 64 KiB",
		Result: func(_ int, line []byte) [][]byte {
			return [][]byte{[]byte(head(honest(line)) + `,"status":"unsupported","reason":"` + fill(lineRoom-200) + `"}`)}
		},
	})
	register("huge-error", Variant{
		Doc: "answers every case with an error whose kind and message are nearly MaxLine/2 bytes each: each case is an error, both kept cut",
		Result: func(_ int, line []byte) [][]byte {
			half := lineRoom/2 - 200
			return [][]byte{[]byte(head(honest(line)) + `,"status":"error","error":{"kind":"` + fill(half) + `","message":"` + fill(half) + `"}}`)}
		},
	})
	register("huge-kind", Variant{
		Doc: "rejects every case with an error kind of nearly MaxLine bytes: each case fails (no kind is that long), the kind kept cut",
		Result: func(_ int, line []byte) [][]byte {
			return [][]byte{[]byte(head(honest(line)) + `,"status":"rejected","error":{"kind":"` + fill(lineRoom-200) + `"}}`)}
		},
	})
	register("huge-status", Variant{
		Doc: "answers every case with a status of nearly MaxLine bytes: each case is an error (no such status), the status kept cut",
		Result: func(_ int, line []byte) [][]byte {
			return [][]byte{[]byte(head(honest(line)) + `,"status":"` + fill(lineRoom-200) + `"}`)}
		},
	})
	register("huge-name", Variant{
		Doc: "says hello with a name of nearly MaxLine bytes, then answers honestly: the name is kept cut at 200 characters",
		Hello: func(line []byte) [][]byte {
			var h protocol.HelloResponse
			_ = json.Unmarshal(line, &h)
			h.Implementation.Name = fill(lineRoom - 4<<10)
			b, _ := json.Marshal(h)
			return [][]byte{b}
		},
	})
	register("huge-hello", Variant{
		Doc: "says hello with a name, version, language and homepage of MaxLine/5 bytes each and 100000 scorers, then answers honestly: each is kept cut",
		Hello: func(line []byte) [][]byte {
			var h protocol.HelloResponse
			_ = json.Unmarshal(line, &h)
			n := lineRoom/5 - 4<<10
			h.Implementation = protocol.HelloImplementation{Name: fill(n), Version: fill(n), Language: fill(n), Homepage: fill(n)}
			h.Capabilities.Scorers = strings.Split(repeat("s", ",", 100000), ",")
			h.Capabilities.Features = []string{fill(n / 2)}
			b, _ := json.Marshal(h)
			return [][]byte{b}
		},
	})
	register("huge-stderr", Variant{
		Doc: "writes 8 MiB to stderr during every case (under the flood limit), then answers with an error: the stderr tail kept is bounded",
		Result: func(_ int, line []byte) [][]byte {
			for range 8 {
				_, _ = os.Stderr.WriteString(fill(1 << 20))
			}
			return [][]byte{[]byte(head(honest(line)) + `,"status":"error","error":{"kind":"internal","message":"see stderr"}}`)}
		},
	})
	register("wide-output", Variant{
		Doc: "answers ok with a million scores, every one of item 0: each case fails, and its actual result is kept without its output",
		Result: func(_ int, line []byte) [][]byte {
			scores := repeat(`{"index":0,"score":0}`, ",", (lineRoom-200)/22)
			return [][]byte{[]byte(head(honest(line)) + `,"status":"ok","output":{"scores":[` + scores + `]}}`)}
		},
	})
	register("wide-unknown", Variant{
		Doc: "adds to each honest answer an unknown key whose value is an array of nearly MaxLine bytes: ignored, every case passes",
		Result: func(_ int, line []byte) [][]byte {
			return withKey(line, "x-padding", "["+repeat("0", ",", (lineRoom-len(line)-100)/2)+"]")
		},
	})
	register("deep-unknown", Variant{
		Doc: "adds to each honest answer an unknown key whose value is arrays nested 5000 deep: ignored (or refused as a protocol error), never misread",
		Result: func(_ int, line []byte) [][]byte {
			return withKey(line, "x-deep", strings.Repeat("[", 5000)+strings.Repeat("]", 5000))
		},
	})
	register("many-keys", Variant{
		Doc: "adds to each honest answer 500000 unknown keys: ignored, every case passes",
		Result: func(_ int, line []byte) [][]byte {
			var b strings.Builder
			for i := range 500000 {
				if i > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, `"x-k%d":0`, i)
			}
			out := append([]byte{}, line[:len(line)-1]...)
			out = append(out, ',')
			out = append(out, b.String()...)
			return [][]byte{append(out, '}')}
		},
	})
	register("huge-diagnostics", Variant{
		Doc: "names the reason of every included item of a selection report with nearly MaxLine bytes: the case fails, its message and diff kept cut",
		Result: func(_ int, line []byte) [][]byte {
			m := honest(line)
			if m.Output == nil || m.Output.Diagnostics == nil || len(m.Output.Diagnostics.Included) == 0 {
				return [][]byte{line}
			}
			inc := m.Output.Diagnostics.Included
			each := (lineRoom - len(line)) / len(inc) / 2
			for i := range inc {
				inc[i].Reason = map[string]any{"reason": fill(each)}
			}
			b, _ := json.Marshal(m)
			return [][]byte{b}
		},
	})
}

func init() {
	register("maximal", Variant{
		Doc:    "huge-name and huge-reason together: the run of the memory target (PROTOCOL.md, What the runner keeps)",
		Hello:  variants["huge-name"].Hello,
		Result: variants["huge-reason"].Result,
	})
}
