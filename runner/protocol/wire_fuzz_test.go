package protocol_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/cupel-go/go-cupel/internal/wirejson/wirejsontest"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/protocol"
	"github.com/cupel-go/go-cupel/runner/vector"
)

// The fuzz targets hold the fast readers of run and result lines (wire.go)
// to encoding/json on any bytes: they decline, or read exactly what
// encoding/json reads (and never accept what it rejects). A result line is
// written by another implementation, so a malformed one must be judged as
// encoding/json judges it. Their seeds, run by every go test, are the
// embedded vectors' run messages and go-cupel's results of them, and the
// edge cases below.

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

// FuzzReadRun holds readRun to encoding/json's reading of a RunMessage.
func FuzzReadRun(f *testing.F) {
	suite, err := vector.LoadSuite(nil)
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
		err := json.Unmarshal(b, &want)
		wirejsontest.Check(t, b, fast, ok, want, err)
	})
}

// FuzzReadResult holds readResult to encoding/json's reading of a
// ResultMessage.
func FuzzReadResult(f *testing.F) {
	suite, err := vector.LoadSuite(nil)
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
	f.Fuzz(func(t *testing.T, b []byte) {
		fast, ok := protocol.ReadResult(b)
		var want protocol.ResultMessage
		err := json.Unmarshal(b, &want)
		wirejsontest.Check(t, b, fast, ok, want, err)
	})
}
