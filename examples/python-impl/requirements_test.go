package pythonimpl

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/cupel-go/go-cupel/internal/matrix"
	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/internal/report/reportcheck"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
	"github.com/cupel-go/go-cupel/runner/requirement"
)

// testCatalogue is a small catalogue for TestRequirementsInEveryFormat:
// the embedded suite's vectors cover it as coversOf says.
var testCatalogue = fstest.MapFS{
	"19-reflexivescorer.toml": {Data: []byte(`chapter = 19
title = "ReflexiveScorer"

[[requirement]]
id = "R19.1"
section = "Algorithm"
kind = "MUST"
statement = "A relevance hint outside [0, 1] is clamped into it."
test = "protocol"
`)},
	"33-ushapedplacer.toml": {Data: []byte(`chapter = 33
title = "UShapedPlacer"

[[requirement]]
id = "R33.1"
section = "Algorithm"
kind = "step"
statement = "Items of equal score keep their input order at each end."
test = "protocol"
`)},
	"26-greedyslice.toml": {Data: []byte(`chapter = 26
title = "GreedySlice"

[[requirement]]
id = "R26.1"
section = "Algorithm"
kind = "step"
statement = "Items are taken in descending order of score per token while they fit."
test = "protocol"
`)},
}

// coversOf is the test catalogue's requirements that case c covers.
func coversOf(c *casefile.Case) []string {
	switch {
	case c.Stage == casefile.StageScoring && len(c.Input.Scorers) == 1 && c.Input.Scorers[0].Type == "reflexive":
		return []string{"R19.1"}
	case c.Stage == casefile.StagePlacing && c.Input.Placer == "u-shaped":
		return []string{"R33.1"}
	case c.Stage == casefile.StageSlicing && c.Input.Slicer == "greedy":
		return []string{"R26.1"}
	}
	return nil
}

// TestRequirementsInEveryFormat runs the embedded suite, its vectors
// covering the requirements of a test catalogue, against the broken copy
// of cupel_impl.py (compare_test.go's: u-shaped ties and the reflexive
// clamp), and checks that every report format cupel-conform writes shows,
// for each case it fails, the requirements the case covers: the ids in
// each, and the statement, source and link where the format has room.
func TestRequirementsInEveryFormat(t *testing.T) {
	py := python3(t)
	suite, err := casefile.LoadSuite(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range suite.Cases {
		c.Covers = coversOf(c)
	}
	cat, err := requirement.Load(testCatalogue)
	if err != nil {
		t.Fatal(err)
	}
	impl := protocol.NewProcess(protocol.ProcessOptions{Argv: []string{py, brokenCopy(t)}, StartupTimeout: 10 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rep, err := runner.RunSuite(ctx, impl, suite, runner.Options{Catalogue: cat})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Infrastructure != "" {
		t.Fatalf("no verdict: %s", rep.Infrastructure)
	}
	q := rep.Requirements
	if !slices.Equal(q.Failed.IDs, []string{"R19.1", "R33.1"}) || !slices.Equal(q.Untested.IDs, []string{"R26.1"}) || q.Testable != 3 {
		t.Fatalf("requirements %+v: want R19.1 and R33.1 failed, R26.1 untested (python has no slicer)", q)
	}
	var failed []runner.CaseResult
	for _, c := range rep.Cases {
		if c.Outcome == protocol.OutcomeFail {
			failed = append(failed, c)
		}
	}
	if len(failed) == 0 {
		t.Fatal("the broken copy failed no case")
	}

	write := func(f func(*bytes.Buffer) error) string {
		t.Helper()
		var b bytes.Buffer
		if err := f(&b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	text := write(func(b *bytes.Buffer) error {
		return report.WriteText(b, rep, report.TextOptions{Suite: suite, MaxFailures: 0})
	})
	js := write(func(b *bytes.Buffer) error { return rep.WriteJSON(b) })
	junit := write(func(b *bytes.Buffer) error { return report.WriteJUnit(b, rep, suite) })
	tap := write(func(b *bytes.Buffer) error { return report.WriteTAP(b, rep, suite) })
	md := write(func(b *bytes.Buffer) error { return report.WriteMarkdown(b, rep) })
	t2j := write(func(b *bytes.Buffer) error { return report.WriteTest2JSON(b, rep, suite) })
	page := write(func(b *bytes.Buffer) error {
		m, err := matrix.New([]runner.NamedReport{{Name: "broken", Report: rep}}, matrix.Options{})
		if err != nil {
			return err
		}
		return matrix.WriteHTML(b, m, matrix.HTMLOptions{})
	})

	// The summaries.
	summary := q.Summary()
	if summary != "0 of 3 testable requirements met (2 failed, 1 untested)" {
		t.Errorf("summary %q", summary)
	}
	for name, out := range map[string]string{"text": text, "tap": tap, "markdown": md, "html": page, "test2json": t2j} {
		if !strings.Contains(out, summary) {
			t.Errorf("the %s report lacks %q", name, summary)
		}
	}

	// Each failing case, in each format.
	var back runner.Report
	if err := json.Unmarshal([]byte(js), &back); err != nil {
		t.Fatal(err)
	}
	ju, err := reportcheck.JUnit([]byte(junit))
	if err != nil {
		t.Fatal(err)
	}
	points, err := reportcheck.TAP(tap)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range failed {
		if len(c.Requirements) != 1 {
			t.Fatalf("%s covers %v, want one requirement", c.ID, c.Requirements)
		}
		id := c.Requirements[0]
		r, _ := rep.Requirement(id)
		lines := []string{"requirement " + id + " (" + string(r.Kind) + "): " + r.Statement, "  " + r.Source() + ": " + r.URL()}

		block := text[strings.Index(text, "FAIL "+c.ID+" "):]
		block = block[:strings.Index(block, "\n\n")]
		if !strings.Contains(block, "\n  "+lines[0]+"\n  "+lines[1]+"\n") {
			t.Errorf("text: the failure of %s lacks its requirement:\n%s", c.ID, block)
		}
		for _, bc := range back.Cases {
			if bc.ID == c.ID && !slices.Equal(bc.Requirements, c.Requirements) {
				t.Errorf("json: %s has requirements %v, want %v", c.ID, bc.Requirements, c.Requirements)
			}
		}
		found := false
		for _, s := range ju.Suites {
			for _, jc := range s.Cases {
				if jc.Name != c.ID {
					continue
				}
				found = true
				if jc.Failure == nil || !strings.HasPrefix(jc.Failure.Body, strings.Join(lines, "\n")+"\n") {
					t.Errorf("junit: the failure of %s does not lead with its requirement: %+v", c.ID, jc.Failure)
				}
				if jc.SystemOut == nil || *jc.SystemOut != "requirements: "+id+"\n" {
					t.Errorf("junit: %s's system-out is not its requirement ids: %v", c.ID, jc.SystemOut)
				}
			}
		}
		if !found {
			t.Errorf("junit: no test case %s", c.ID)
		}
		for _, p := range points {
			if p.Description == c.ID {
				if got, _ := json.Marshal(p.YAML["requirements"]); string(got) != `["`+id+`"]` {
					t.Errorf("tap: %s's requirements are %s", c.ID, got)
				}
				if d, _ := p.YAML["detail"].(string); !strings.HasPrefix(d, strings.Join(lines, "\n")+"\n") {
					t.Errorf("tap: %s's detail does not lead with its requirement:\n%s", c.ID, d)
				}
			}
		}
		if !strings.Contains(md, "| `"+c.ID+"` | fail | ["+id+"]("+r.URL()+") |") {
			t.Errorf("markdown: the gated row of %s lacks its requirement", c.ID)
		}
		if !strings.Contains(md, "| "+id+" | "+string(r.Kind)+" | "+r.Statement+" | ["+r.Source()+"]("+r.URL()+") | ") {
			t.Errorf("markdown: the requirements failed lack %s", id)
		}
		if !hasOutput(t, t2j, c.ID, "    "+lines[0]+"\n") {
			t.Errorf("test2json: %s's output lacks its requirement", c.ID)
		}
		at := strings.Index(page, `id="case:`+c.ID+`"`)
		if at < 0 {
			t.Fatalf("html: no case %s", c.ID)
		}
		body := page[at : at+strings.Index(page[at:], "</details>")]
		if !strings.Contains(body, `<a href="`+r.URL()+`"><code>`+id+`</code></a>`) || !strings.Contains(body, r.Statement) {
			t.Errorf("html: the failing case %s does not link its requirement", c.ID)
		}
	}
}

// hasOutput reports whether the go test -json stream has an output event
// of test whose output is line.
func hasOutput(t *testing.T, stream, test, line string) bool {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(stream))
	for dec.More() {
		var e report.TestEvent
		if err := dec.Decode(&e); err != nil {
			t.Fatal(err)
		}
		if e.Action == "output" && e.Test == test && e.Output == line {
			return true
		}
	}
	return false
}
