package casefile

import (
	"testing"

	"github.com/cupel-go/go-cupel/internal/wirejson"
	"github.com/cupel-go/go-cupel/internal/wirejson/wirejsontest"
)

// The fuzz targets hold the fast readers of wire_items.go to encoding/json
// on any bytes: they decline, or read exactly what encoding/json reads (and
// never accept what it rejects). Their seeds, run by every go test, are the
// embedded vectors' cases and items and the edge cases below.

// edgeItems are hand-made items at the edges of what the fast reader
// accepts.
var edgeItems = []string{
	`{"index":0,"content":"a","tokens":1,"kind":"Message","source":"Chat"}`,
	`{"index":0,"content":"a","tokens":1,"kind":"Message","source":"Chat","index":1}`,
	`{"Index":0}`,
	`{"index":0,"content":"a\u00e9","tokens":1}`,
	`{"index":1.0}`,
	`{"index":1e2}`,
	`{"tokens":9223372036854775808}`,
	`{"priority":null}`,
	`{"tags":null}`,
	`{"tags":[]}`,
	`{"tags":["a","a",""]}`,
	`{"pinned":null}`,
	`{"pinned":1}`,
	`{"score":"NaN","futureRelevanceHint":"-Infinity"}`,
	`{"score":"nan"}`,
	`{"score":-0}`,
	`{"score":1e400}`,
	`{"timestamp":"2024-01-02T03:04:05.123456789+01:00"}`,
	`{"timestamp":"2024-01-02T03:04:05Z"}`,
	`{"timestamp":"2024-13-02T03:04:05Z"}`,
	`{"timestamp":1}`,
	`{"metadata":{}}`,
	`{"metadata":null}`,
	`{"metadata":{"a":1,"b":"x","c":true,"d":{"float":"NaN"}}}`,
	`{"metadata":{"a":1,"a":2}}`,
	`{"metadata":{"a":null}}`,
	`{"metadata":{"a":[1]}}`,
	`{"metadata":{"a":{"float":"NaN","float":"Infinity"}}}`,
	`{"metadata":{"a":{"float":1}}}`,
	`{"metadata":{"a":{}}}`,
	"{\"content\":\"\xff\"}",
	`{"content":"a"} x`,
	`{}`,
	`null`,
	`[]`,
}

// edgeInputs are hand-made cases at the edges of what the fast reader
// accepts.
var edgeInputs = []string{
	`{"items":[]}`,
	`{"items":null}`,
	`{}`,
	`{"placer":"chronological","items":[{"index":0,"content":"a","tokens":1}]}`,
	`{"budget":null,"items":[]}`,
	`{"budget":{"maxTokens":10,"targetTokens":5,"outputReserve":0,"reservedSlots":{"a":1,"b":2},"estimationSafetyMarginPercent":"NaN"},"items":[]}`,
	`{"budget":{"reservedSlots":{"a":1,"a":2}}}`,
	`{"budget":{"reservedSlots":null}}`,
	`{"scorer":{"type":"kind","use_default_weights":true},"items":[]}`,
	`{"scorer":null,"slicer":null}`,
	`{"scorer":{"type":"x\u0041"}}`,
	`{"slicer":{"type":"greedy"},"deduplication":false,"overflow_strategy":"throw"}`,
	`{"deduplication":null}`,
	`{"items":[],"items":[]}`,
	`{"items":[{"index":0},{"index":1,"kind":"a"},{"index":2,"kind":"a"}]}`,
	`{"items":[1]}`,
	`{"items":[{}],"extra":1}`,
}

// FuzzItem holds Item's fast reader (readJSON) to its encoding/json reader
// (unmarshalSlow).
func FuzzItem(f *testing.F) {
	suite, err := LoadSuite(nil)
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range suite.Cases {
		for _, it := range c.Input.Items {
			b, err := it.MarshalJSON()
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	for _, s := range edgeItems {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var fast Item
		r := wirejson.NewReader(b)
		fast.readJSON(r, &wirejson.Strings{})
		var want Item
		err := want.unmarshalSlow(b)
		wirejsontest.Check(t, b, fast, r.Done(), want, err)
	})
}

// FuzzInput holds the case's fast reader (readWireInput) to encoding/json
// (slowInput).
func FuzzInput(f *testing.F) {
	suite, err := LoadSuite(nil)
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range suite.Cases {
		b, err := c.Input.MarshalJSON()
		if err != nil {
			continue // the protocol cannot carry it (a table limit)
		}
		f.Add(b)
	}
	for _, s := range edgeInputs {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fast, ok := fastInput(b)
		want, err := slowInput(b)
		wirejsontest.Check(t, b, fast, ok, want, err)
	})
}
