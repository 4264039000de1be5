package snapshot

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
	"github.com/cupel-go/go-cupel/internal/testcases"
)

type recordingTB struct{ errors []string }

func (r *recordingTB) Helper() {}
func (r *recordingTB) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// withEvents returns the agent report with timed stage events.
func withEvents() *cupel.SelectionReport {
	r := testcases.Agent()
	r.Events = []cupel.TraceEvent{
		{Stage: cupel.StageClassify, DurationMs: 0.31, ItemCount: 9},
		{Stage: cupel.StageScore, DurationMs: 8.2, ItemCount: 8},
		{Stage: cupel.StagePlace, DurationMs: 0.2, ItemCount: 5},
	}
	return r
}

func TestCanonicalZeroesDurationsAndKeepsTheReport(t *testing.T) {
	r := withEvents()
	got, err := Canonical(r)
	if err != nil {
		t.Fatal(err)
	}
	if r.Events[1].DurationMs != 8.2 {
		t.Fatalf("Canonical modified the report's events: %+v", r.Events[1])
	}
	var decoded struct {
		Events []struct {
			Stage      string  `json:"stage"`
			DurationMs float64 `json:"duration_ms"`
		} `json:"events"`
	}
	if err := json.Unmarshal(got, &decoded); err != nil {
		t.Fatal(err)
	}
	if len(decoded.Events) != 3 {
		t.Fatalf("events = %+v", decoded.Events)
	}
	for _, e := range decoded.Events {
		if e.DurationMs != 0 {
			t.Errorf("event %s has duration %v, want 0", e.Stage, e.DurationMs)
		}
	}
	text := string(got)
	if !strings.HasSuffix(text, "}\n") || !strings.Contains(text, "\n  \"included\": [\n") {
		t.Errorf("not indented with two spaces and a final newline:\n%s", text)
	}
	order := []string{`"events"`, `"included"`, `"excluded"`, `"total_candidates"`, `"total_tokens_considered"`}
	last := -1
	for _, key := range order {
		i := strings.Index(text, key)
		if i < last {
			t.Errorf("field %s out of order", key)
		}
		last = i
	}
	again, _ := Canonical(withEvents())
	if string(again) != text {
		t.Errorf("Canonical is not deterministic")
	}
}

func TestCanonicalNilReport(t *testing.T) {
	if _, err := Canonical(nil); err == nil {
		t.Fatal("want an error for a nil report")
	}
}

func TestMatchCommittedGolden(t *testing.T) {
	Match(t, "agent", withEvents())
}

func TestMatchReportsGoldieDiffOnMismatch(t *testing.T) {
	r := withEvents()
	r.Excluded = r.Excluded[:3]
	err := check("agent", r, false, nil)
	if err == nil {
		t.Fatal("want a mismatch")
	}
	msg := err.Error()
	for _, want := range []string{
		`snapshot "agent": report did not match the golden file testdata/golden/agent.golden (run with GOLDIE_UPDATE=1 to accept it). Diff is below:`,
		"--- Expected\n+++ Actual\n",
		`-      "item": {`,
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
}

func TestMatchFailsThroughTB(t *testing.T) {
	if Updating() {
		t.Skip("golden files are being updated")
	}
	tb := &recordingTB{}
	Match(tb, "no-such-snapshot", testcases.Agent())
	want := `snapshot "no-such-snapshot": golden file testdata/golden/no-such-snapshot.golden not found; run the tests with GOLDIE_UPDATE=1 to create it`
	if len(tb.errors) != 1 || tb.errors[0] != want {
		t.Fatalf("errors = %q, want %q", tb.errors, want)
	}
	if err := Check("no-such-snapshot", testcases.Agent()); err == nil || err.Error() != want {
		t.Fatalf("Check = %v", err)
	}
	tb = &recordingTB{}
	Match(tb, "agent", withEvents())
	if len(tb.errors) != 0 {
		t.Fatalf("a matching snapshot reported %q", tb.errors)
	}
}

func TestUpdateWritesTheGoldenFile(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("GOLDIE_UPDATE", "1")
	if !Updating() {
		t.Fatal("GOLDIE_UPDATE=1 must switch updating on")
	}
	tb := &recordingTB{}
	Match(tb, "nested/fresh", withEvents())
	if len(tb.errors) != 0 {
		t.Fatalf("update reported %q", tb.errors)
	}
	got, err := os.ReadFile(filepath.Join("testdata", "golden", "nested", "fresh.golden"))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Canonical(withEvents())
	if string(got) != string(want) {
		t.Fatalf("golden file holds\n%s\nwant\n%s", got, want)
	}
	if Path("nested/fresh") != filepath.Join("testdata", "golden", "nested", "fresh.golden") {
		t.Fatalf("Path = %s", Path("nested/fresh"))
	}
	t.Setenv("GOLDIE_UPDATE", "")
	if err := check("nested/fresh", withEvents(), false, nil); err != nil {
		t.Fatalf("the written file does not match: %v", err)
	}
}

func TestMatchGolden(t *testing.T) {
	if Updating() {
		t.Skip("golden files are being updated")
	}
	m := MatchGolden("agent")
	if ok, err := m.Match(withEvents()); !ok || err != nil {
		t.Fatalf("Match = %v, %v", ok, err)
	}
	if ok, err := m.Match(*withEvents()); !ok || err != nil {
		t.Fatalf("Match on a value = %v, %v", ok, err)
	}
	changed := withEvents()
	changed.TotalCandidates = 99
	if ok, err := m.Match(changed); ok || err != nil {
		t.Fatalf("Match on a changed report = %v, %v", ok, err)
	}
	msg := m.FailureMessage(changed)
	if !strings.Contains(msg, "Diff is below") || !strings.Contains(msg, `+  "total_candidates": 99,`) {
		t.Errorf("FailureMessage lacks the diff:\n%s", msg)
	}
	if got := m.NegatedFailureMessage(withEvents()); got != "Expected the report not to match the golden file testdata/golden/agent.golden, but it did." {
		t.Errorf("NegatedFailureMessage = %q", got)
	}
	if m.GomegaString() != `MatchGolden("agent")` || m.String() != m.GomegaString() {
		t.Errorf("GomegaString = %q", m.GomegaString())
	}
	if _, err := m.Match("report"); err == nil || !strings.Contains(err.Error(), `MatchGolden("agent") expects a *cupel.SelectionReport`) {
		t.Errorf("Match on a string: %v", err)
	}
	if _, err := m.Match((*cupel.SelectionReport)(nil)); err == nil {
		t.Errorf("Match on a nil report: no error")
	}
}

// run30 runs a 30-candidate selection with an item-detail report.
func run30(t *testing.T) *cupel.SelectionReport {
	t.Helper()
	p, err := cupel.NewPipeline(cupel.Policy{Scorer: scorer.NewPriority(), Slicer: slicer.NewGreedy(), Placer: placer.NewUShaped()})
	if err != nil {
		t.Fatal(err)
	}
	items := make([]*cupel.ContextItem, 30)
	for i := range items {
		prio := i % 7
		items[i] = cupel.MustItem(cupel.ItemSpec{Content: fmt.Sprintf("turn %d", i), Tokens: 10 + i, Priority: &prio})
	}
	b, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 400, TargetTokens: 300})
	if err != nil {
		t.Fatal(err)
	}
	r := new(cupel.SelectionReport)
	if _, err := p.Run(items, b, cupel.WithReport(r)); err != nil {
		t.Fatal(err)
	}
	return r
}

func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b)
	}
	return m
}

func TestOptionsMakeSmallerSnapshots(t *testing.T) {
	r := run30(t)
	full, err := Canonical(r)
	if err != nil {
		t.Fatal(err)
	}
	noEvents, err := Canonical(r, WithoutEvents())
	if err != nil {
		t.Fatal(err)
	}
	decisions, err := Canonical(r, DecisionsOnly())
	if err != nil {
		t.Fatal(err)
	}
	lines := func(b []byte) int { return strings.Count(string(b), "\n") }
	t.Logf("30 items: %d lines lossless, %d without events, %d decisions only", lines(full), lines(noEvents), lines(decisions))
	if lines(decisions) > 40 {
		t.Errorf("DecisionsOnly: %d lines for 30 items, want a few dozen", lines(decisions))
	}
	if lines(noEvents) >= lines(full) {
		t.Errorf("WithoutEvents did not shrink the snapshot")
	}

	// WithoutEvents is the lossless form minus the events, fields in order.
	fm, nm := decode(t, full), decode(t, noEvents)
	if _, ok := nm["events"]; ok {
		t.Errorf("WithoutEvents kept the events")
	}
	delete(fm, "events")
	if fmt.Sprint(fm) != fmt.Sprint(nm) {
		t.Errorf("WithoutEvents changed more than the events")
	}
	if !strings.HasPrefix(string(noEvents), "{\n  \"included\": [") {
		t.Errorf("WithoutEvents reordered the fields:\n%s", noEvents)
	}

	// DecisionsOnly holds exactly the included and excluded lists.
	dm := decode(t, decisions)
	if len(dm) != 2 || fmt.Sprint(dm["included"]) != fmt.Sprint(fm["included"]) || fmt.Sprint(dm["excluded"]) != fmt.Sprint(fm["excluded"]) {
		t.Errorf("DecisionsOnly does not hold the report's included and excluded lists:\n%s", decisions)
	}
	n := len(r.Included) + len(r.Excluded)
	if got := lines(decisions); got != n+6 {
		t.Errorf("DecisionsOnly: %d lines, want one per entry (%d) and 6 more", got, n)
	}
}

func TestDecisionsOnlyGolden(t *testing.T) {
	Match(t, "agent-decisions", withEvents(), DecisionsOnly())
	if err := check("agent-decisions", testcases.Empty(), false, []Option{DecisionsOnly()}); err == nil {
		t.Errorf("an empty report matched the agent's decisions")
	}
	empty, err := Canonical(testcases.Empty(), DecisionsOnly())
	if err != nil {
		t.Fatal(err)
	}
	if string(empty) != "{\n  \"included\": [],\n  \"excluded\": []\n}\n" {
		t.Errorf("empty report: %q", empty)
	}
}

func TestNilOption(t *testing.T) {
	if _, err := Canonical(withEvents(), nil); err == nil || !strings.Contains(err.Error(), "invalid argument: a nil Option") {
		t.Errorf("got %v", err)
	}
}

func TestMatchGoldenWithOptions(t *testing.T) {
	ok, err := MatchGolden("agent-decisions", DecisionsOnly()).Match(withEvents())
	if err != nil || !ok {
		t.Fatalf("MatchGolden with DecisionsOnly: %v %v", ok, err)
	}
	if ok, _ := MatchGolden("agent").Match(run30(t)); ok {
		t.Fatalf("another report matched")
	}
}
