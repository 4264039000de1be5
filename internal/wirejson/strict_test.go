package wirejson_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/wirejson"
)

// strictLine is a line with the shapes Strict tells apart: a struct's
// documented keys (one from an embedded struct), a list of structs, a map
// of free keys, and a value with its own UnmarshalJSON.
type strictLine struct {
	strictHead
	Status string            `json:"status"`
	Kind   string            `json:"kind,omitempty"`
	List   []strictEntry     `json:"list"`
	Free   map[string]any    `json:"free"`
	Raw    json.RawMessage   `json:"raw"`
	Tags   map[string]string `json:"-"`
}

type strictHead struct {
	Type string `json:"type"`
}

type strictEntry struct {
	Index int `json:"index"`
}

var _ = ginkgo.Describe("Strict", func() {
	refused := func(line, key, documented, path string) {
		ginkgo.GinkgoHelper()
		var v strictLine
		err := wirejson.Strict([]byte(line), &v)
		gomega.Expect(err).To(gomega.MatchError(wirejson.ErrKey), line)
		var ke *wirejson.KeyError
		gomega.Expect(err).To(gomega.BeAssignableToTypeOf(ke), line)
		ke = err.(*wirejson.KeyError)
		gomega.Expect(*ke).To(gomega.Equal(wirejson.KeyError{Path: path, Key: key, Documented: documented}), line)
	}

	ginkgo.It("refuses a documented key under case folding, at its own object only", func() {
		refused(`{"status":"error","STATUS":"ok"}`, "STATUS", "status", "$")
		refused(`{"Status":"ok"}`, "Status", "status", "$")
		refused(`{"ſtatus":"ok"}`, "ſtatus", "status", "$")
		refused(`{"\u017ftatus":"ok"}`, "ſtatus", "status", "$")
		refused(`{"TYPE":"x"}`, "TYPE", "type", "$")
		refused(`{"\u212Aind":"x"}`, "\u212aind", "kind", "$")
		refused(`{"list":[{"index":0},{"INDEX":1}]}`, "INDEX", "index", "$.list[1]")
		for _, ok := range []string{
			`{"free":{"Status":1,"status":2,"STATUS":3}}`, // a map's keys are its data
			`{"raw":{"Status":1,"status":2}}`,
			`{"extra":{"Status":1,"status":2}}`, // an ignored value
			`{"statu":1,"status_":2,"tags":3,"Tags":4}`,
			`{"\u0073tatus":"ok","type":"result"}`,
		} {
			var v strictLine
			gomega.Expect(wirejson.Strict([]byte(ok), &v)).To(gomega.Succeed(), ok)
		}
	})

	ginkgo.It("refuses a key given twice in any object, its escapes decoded", func() {
		refused(`{"status":"error","status":"ok"}`, "status", "", "$")
		refused(`{"status":"ok","\u0073tatus":"ok"}`, "status", "", "$")
		refused(`{"list":[{"index":0,"index":0}]}`, "index", "", "$.list[0]")
		refused(`{"free":{"a":1,"b":{"c":1,"c":2}}}`, "c", "", "$.free.b")
		refused(`{"extra":[{"x y":{"k":1,"k":1}}]}`, "k", "", `$.extra[0]["x y"]`)
		refused("{\"free\":{\"\xff\":1,\"\xfe\":2}}", "\ufffd", "", "$.free")
		var keys []string
		for i := range 40 {
			keys = append(keys, fmt.Sprintf(`"k%d":%d`, i, i))
		}
		refused(`{"free":{`+strings.Join(keys, ",")+`,"k3":0}}`, "k3", "", "$.free")
		var v strictLine
		gomega.Expect(wirejson.Strict([]byte(`{"free":{`+strings.Join(keys, ",")+`}}`), &v)).To(gomega.Succeed())
		gomega.Expect(v.Free).To(gomega.HaveLen(40))
	})

	ginkgo.It("reads what it accepts as encoding/json does, and keeps its errors", func() {
		line := ` {"type":"result","status":"ok","list":[{"index":2},{"index":-1}],"free":{"a":[1,"x",null]},"raw":{"z":1},"other":"\"}"} `
		var got, want strictLine
		gomega.Expect(wirejson.Strict([]byte(line), &got)).To(gomega.Succeed())
		gomega.Expect(json.Unmarshal([]byte(line), &want)).To(gomega.Succeed())
		gomega.Expect(got).To(gomega.Equal(want))
		for _, bad := range []string{"\ufeff{}", `{"status":1}`, `{"status":"ok"} {}`, `{`} {
			var v strictLine
			err := wirejson.Strict([]byte(bad), &v)
			gomega.Expect(err).To(gomega.HaveOccurred(), bad)
			gomega.Expect(err).NotTo(gomega.MatchError(wirejson.ErrKey), bad)
		}
	})

	ginkgo.It("says what it refused, a long key cut", func() {
		var v strictLine
		err := wirejson.Strict([]byte(`{"list":[{"Index":1}]}`), &v)
		gomega.Expect(err).To(gomega.MatchError(`key "Index" in the object at $.list[0] is the documented key "index" under case folding, not byte for byte: keys match exactly`))
		long := strings.Repeat("é", 100)
		err = wirejson.Strict([]byte(`{"free":{"`+long+`":1,"`+long+`":2}}`), &v)
		gomega.Expect(err).To(gomega.MatchError(`key "` + strings.Repeat("é", 32) + `"… (200 bytes) given twice in the object at $.free: a line states each key once`))
	})
})
