package protocol_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/cupel-go/go-cupel/internal/wirejson"
	"github.com/cupel-go/go-cupel/internal/wirejson/wirejsontest"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// The fuzz targets hold the fast readers of run and result lines (wire.go)
// to wirejson.Strict, the reading of the lines they decline, on any bytes:
// they decline, or read exactly what Strict reads (and never accept what
// it refuses). A result line is written by another implementation, so a
// malformed one must be judged by the one reading PROTOCOL.md describes.
// Their seeds, run by every go test, are the embedded vectors' run
// messages and go-cupel's results of them, and the edge cases below.

// edgeRuns are hand-made run lines at the edges of what readRun accepts.
var edgeRuns = []string{
	`{"type":"run","seq":7,"id":"a/b","stage":"placing","case":{"placer":"chronological","items":[]}}`,
	`{"type":"run","seq":1,"id":"x","stage":"scoring","case":{"items":[]},"extra":1}`,
	`{"Type":"run","seq":1,"case":{"items":[]}}`,
	`{"type":"run","seq":1.5,"case":{"items":[]}}`,
	`{"type":"run","seq":1,"case":{"items":[}}`,
	`{"type":"run","seq":1,"case":{"items":[]}} {}`,
	`{"type":"run","seq":1,"seq":2,"case":{"items":[]}}`,
	`{"type":"run","seq":null,"case":null}`,
	`{"type":"run","case":{"items":[{"content":"\q"}]}}`,
	`{"type":"run","case":{"scorer":{"type":"\u0041"},"items":[]}}`,
	`{"type":"hello","seq":1}`,
	`{"type":"run","seq":99999999999999999999}`,
}

// edgeResults are hand-made result lines at the edges of what readResult
// accepts.
var edgeResults = []string{
	`{"type":"result","seq":1,"id":"a","status":"ok","output":{"scores":[{"index":0,"score":0.5},{"index":1,"score":"NaN"},{"index":2,"score":-0}]}}`,
	`{"type":"result","seq":1,"status":"ok","output":{"selected":[2,0],"cap_excluded_count":3,"shortfalls":[{"kind":"Message","required_count":2,"satisfied_count":1}]}}`,
	`{"type":"result","seq":1,"status":"ok","output":{"ordered":[1],"overflow":{"tokens_over_budget":7},"diagnostics":{"included":[{"index":1,"score":0.25,"reason":{"reason":"Selected"}}],"excluded":[{"index":0,"score":"NaN","reason":{"reason":"BudgetExceeded","item_tokens":9,"flag":true}}],"total_candidates":2,"total_tokens_considered":12}}}`,
	`{"type":"result","seq":1,"status":"ok","output":{"diagnostics":{"included":null,"excluded":[]}}}`,
	`{"type":"result","seq":1,"status":"rejected","error":{"kind":"invalid_budget","message":"target > max"}}`,
	`{"type":"result","seq":1,"status":"unsupported","reason":"unknown scorer x"}`,
	`{"type":"result","seq":1,"status":"ok","output":null}`,
	`{"type":"result","seq":1,"status":"ok","error":null}`,
	`{"type":"result","seq":1,"status":"ok","output":{"ordered":[1,2],"ordered":[3]}}`,
	`{"type":"result","seq":1,"status":"ok","output":{"diagnostics":{"included":[{"index":0,"score":1,"reason":{"reason":"x","list":[1]}}]}}}`,
	`{"type":"result","seq":1,"status":"ok","output":{"diagnostics":{"included":[{"index":0,"score":1,"reason":{"a":1,"a":2}}]}}}`,
	`{"type":"result","seq":1,"status":"ok","output":{"diagnostics":{"included":[{"reason":null}]}}}`,
	`{"type":"result","seq":1,"status":"ok","output":{"overflow":{"tokens_over_budget":1,"tokens_over_budget":2}}}`,
	`{"type":"result","seq":1,"status":"ok","output":{"overflow":{}}}`,
	`{"type":"result","seq":1,"status":"ok","output":{"scores":[]}}`,
	`{"type":"result","seq":1,"status":"ok","output":{"scores":[{"index":0,"score":"nan"}]}}`,
	`{"type":"result","seq":1,"status":"ok","output":{"cap_excluded_count":1.0}}`,
	`{"type":"result","seq":1,"status":"ok","extra":true}`,
	`{"type":"result","seq":1,"status":"ok"}x`,
	"{\"type\":\"result\",\"seq\":1,\"status\":\"\xff\"}",
}

// FuzzReadRun holds readRun to wirejson.Strict, which reads the run lines
// readRun declines: both decline, or both accept with deep-equal values, or
// only Strict accepts.
func FuzzReadRun(f *testing.F) {
	suite, err := casefile.LoadSuite(nil)
	if err != nil {
		f.Fatal(err)
	}
	for i, c := range suite.Cases {
		b, err := protocol.EncodeLine(protocol.RunMessage{Type: protocol.TypeRun, Request: protocol.NewRequest(i+1, c)})
		if err != nil {
			continue // the protocol cannot carry it (a table limit)
		}
		f.Add(b)
	}
	for _, s := range edgeRuns {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fast, ok := protocol.ReadRun(b)
		var want protocol.RunMessage
		err := wirejson.Strict(b, &want)
		wirejsontest.Check(t, b, fast, ok, want, err)
	})
}

// forgedResults are result lines the protocol's reading refuses: twins of
// documented keys by case and by Unicode folding, keys given twice,
// merged objects; the fuzzer mutates them too.
var forgedResults = []string{
	`{"type":"result","seq":1,"status":"error","error":{"kind":"x"},"ſtatus":"ok","output":{"ordered":[1]}}`,
	`{"type":"result","seq":1,"status":"ok","output":{"ordered":[2]},"OUTPUT":{"ordered":[1]}}`,
	`{"type":"result","seq":1,"status":"unsupported","STATUS":"ok"}`,
	`{"type":"result","seq":1,"status":"ok","output":{"scores":[{"index":0,"INDEX":1,"score":1}]}}`,
	`{"type":"result","seq":1,"status":"ok","output":{"scores":[{"Kndex":0,"score":1}]}}`,
	`{"type":"result","seq":1,"status":"ok","output":{"scores":[{"\u212Andex":0,"score":1}]}}`,
	`{"type":"result","seq":1,"status":"ok","output":{"ordered":[1]},"output":{"selected":[1]}}`,
	`{"type":"result","seq":1,"status":"ok","output":{"ordered":[1]},"\u006futput":{"ordered":[2]}}`,
	`{"type":"result","Seq":2,"seq":1,"status":"ok"}`,
	`{"type":"result","seq":1,"status":"ok","ſeq":1}`,
	`{"type":"result","seq":1,"status":"ok","extra":{"a":1,"a":2}}`,
	"\ufeff{\"type\":\"result\",\"seq\":1,\"status\":\"ok\"}",
}

// FuzzReadResult holds readResult to the protocol's reading of a result
// line, wirejson.Strict, which reads the lines readResult declines: on
// any bytes, both decline, or both accept with deep-equal values (floats
// bit for bit), or only Strict accepts (escapes, unknown keys, more than
// 32 keys: the language readResult leaves to it). It also holds Strict
// to encoding/json: what Strict accepts, encoding/json reads the same,
// and Strict refuses exactly the lines with a key given twice or a
// documented key under case folding only (see strictRefuses).
func FuzzReadResult(f *testing.F) {
	suite, err := casefile.LoadSuite(nil)
	if err != nil {
		f.Fatal(err)
	}
	for i, c := range suite.Cases {
		req := protocol.NewRequest(i+1, c)
		res, err := runner.Engine().Run(context.Background(), req)
		if err != nil {
			f.Fatal(err)
		}
		b, err := protocol.EncodeLine(protocol.ResultMessage{Type: protocol.TypeResult, Seq: req.Seq, ID: req.ID, Result: res})
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range edgeResults {
		f.Add([]byte(s))
	}
	for _, s := range forgedResults {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fast, ok := protocol.ReadResult(b)
		var strict protocol.ResultMessage
		err := wirejson.Strict(b, &strict)
		wirejsontest.Check(t, b, fast, ok, strict, err)
		var lax protocol.ResultMessage
		laxErr := json.Unmarshal(b, &lax)
		switch {
		case laxErr != nil && err == nil:
			t.Fatalf("Strict accepts %q, which encoding/json rejects: %v", b, laxErr)
		case laxErr != nil:
		case err == nil && !wirejsontest.Equal(strict, lax):
			t.Fatalf("Strict reads %q as\n%#v\nencoding/json as\n%#v", b, strict, lax)
		case (err != nil) != errors.Is(err, wirejson.ErrKey):
			t.Fatalf("Strict refuses %q, which encoding/json reads, for another reason than a key: %v", b, err)
		case (err != nil) != strictRefuses(t, b):
			t.Fatalf("Strict's verdict on %q is %v; the keys say refused=%v", b, err, strictRefuses(t, b))
		}
	})
}

// resultKeys are the documented keys of each object of a result line, by
// the path of the object with list indexes left out; an object not listed
// (a reason, an unknown key's value) has none.
var resultKeys = map[string][]string{
	"":                             {"type", "seq", "id", "status", "output", "error", "reason"},
	".error":                       {"kind", "message"},
	".output":                      {"scores", "selected", "ordered", "shortfalls", "cap_excluded_count", "overflow", "diagnostics"},
	".output.scores":               {"index", "score"},
	".output.shortfalls":           {"kind", "required_count", "satisfied_count"},
	".output.overflow":             {"tokens_over_budget"},
	".output.diagnostics":          {"included", "excluded", "total_candidates", "total_tokens_considered", "count_requirement_shortfalls"},
	".output.diagnostics.included": {"index", "score", "reason"},
	".output.diagnostics.excluded": {"index", "score", "reason"},
	".output.diagnostics.count_requirement_shortfalls": {"kind", "required_count", "satisfied_count"},
}

// strictRefuses is the rule of PROTOCOL.md written out for result lines
// on its own, without wirejson's code: a JSON text encoding/json accepts
// is refused when an object states a key twice, or states, where
// resultKeys documents keys, one that folds to a documented key without
// being it.
func strictRefuses(t *testing.T, b []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	refused := false
	var visit func(path string)
	visit = func(path string) {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("%q: %v", b, err)
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				kt, _ := dec.Token()
				k := kt.(string)
				if seen[k] {
					refused = true
				}
				seen[k] = true
				docs, documented := resultKeys[path]
				for _, d := range docs {
					if k != d && strings.EqualFold(k, d) {
						refused = true
					}
				}
				child := "-" // an object without documented keys
				if documented && slices.Contains(docs, k) {
					child = path + "." + k
				}
				visit(child)
			}
			_, _ = dec.Token()
		case json.Delim('['):
			for dec.More() {
				visit(path)
			}
			_, _ = dec.Token()
		}
	}
	visit("")
	return refused
}
