package report_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cupel-go/go-cupel/internal/matrix"
	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/internal/report/reportcheck"
	"github.com/cupel-go/go-cupel/internal/testtool"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// textSeeds are implementation text that once broke, or could break, a
// report: colours, control characters, bytes that are not UTF-8 (a lone
// surrogate encoded as UTF-8 is one), the end of a CDATA section, markup,
// a TAP directive, TAP and YAML structure, line breaks of every kind.
var textSeeds = []string{
	"\x1b[31merror\x1b[0m: something failed",
	"nul \x00 byte, vertical tab \x0b, form feed \x0c, bell \a, delete \x7f",
	"lone surrogate \xed\xa0\x80 and \xed\xbf\xbf, stray \xff\xfe bytes",
	"]]> ends a CDATA section; ]]]]>>",
	"<script>alert(1)</script><img src=x onerror=alert(2)>",
	`" onmouseover="alert(3)" x='`,
	"# TODO not really a todo",
	"ok 1 - a fake test point\nnot ok 2 - another\n  ---\n  message: x\n  ...",
	"line\nbreak\r\nwindows\rcarriage return",
	"   leading spaces on the first line\nthen none",
	"\u2028line separator\u2029paragraph separator\u0085next line\ufeffBOM\uffff",
	"\x1b]0;a terminal title\x07\x1bPdevice control\x1b\\ and an unfinished \x1b[31",
	"\x9b31m an 8-bit CSI, \u009b31m as a rune",
	"back\\slash \\# and a tab\there",
	"",
	"\x1b[2J\x1b[H\nlevel: Cupel Fully Conformant\nverdict: PASS — nothing unexpected; level Cupel Fully Conformant\n",
	"\u200bverdict: PASS\n\tlevel: indented\n\u202eSSAP :tcidrev\u202c and \u2066isolated\u2069",
	"<!-- hides the rest\n```\n# heading\n| a | b |\n> quote</td></tr></table><script>x</script>",
	"**Cupel Fully Conformant** _e_ __f__ ~~g~~ $x$ `code` [link](http://x) ![img](y) &lt; &#42; \\* C# trailing #",
	"pinned_exceeds_budget, score of #0, [\"a\", \"b\"] and C:\\dir\\ ##",
	"Z\u0336\u0337\u0338\u0339\u033a\u033b\u033c\u033d\u033e\u033f\u0340\u0341\u0342\u0343\u0344\u0345\u0346\u0347\u0348\u0349\u034a\u20dd\u20de\u20df\u20e0 overlays the verdict",
}

// fixtureSuite is the runner's fixture suite, whose cases the fuzzed
// report answers.
func fixtureSuite(t testing.TB) *casefile.Suite {
	t.Helper()
	s, err := casefile.LoadSuite(os.DirFS("../../runner/testdata/suite"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// textReport is a report of every status in which each text an
// implementation controls is s: its name, version and language, each
// case's message, details, stderr and raw answer (unsupported reason,
// error kind and message, shortfall kind, selection report reason), the
// requirement ids it covers (a foreign suite's vector files are input
// too), and, when infra is set, an infrastructure error and its stderr.
func textReport(suite *casefile.Suite, s string, infra bool) *runner.Report {
	statuses := []protocol.Outcome{protocol.OutcomeFail, protocol.OutcomeError, protocol.OutcomeCrash, protocol.OutcomeTimeout,
		protocol.OutcomeUnsupported, protocol.OutcomeXFail, protocol.OutcomeSkip, protocol.OutcomeXPass,
		protocol.OutcomePass, protocol.OutcomeNotRun}
	r := &runner.Report{Schema: runner.ReportSchema, Runner: protocol.RunnerIdentity{Name: "cupel-conform", Version: "devel"},
		Implementation: protocol.Identity{Name: s, Version: s, Language: s, Homepage: s, Capabilities: protocol.Capabilities{Features: []string{s, "then " + s}}},
		Level:          runner.LevelNone, LevelReason: "fuzzed", Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	if infra {
		r.Infrastructure, r.InfrastructureStderr = s, s
	}
	for i, c := range suite.Cases[:min(len(statuses), len(suite.Cases))] { // a case of each status
		st := statuses[i]
		r.Cases = append(r.Cases, runner.CaseResult{ID: c.ID, Tier: c.Tier, Stage: c.Stage, Name: c.Name, Outcome: st,
			Message: s, Details: []string{s, "then " + s}, Stderr: s, Requirements: []string{s, "then " + s},
			Actual: &protocol.Result{Kind: "ok", Reason: s, Error: &protocol.ErrorInfo{Kind: s, Message: s},
				Output: &protocol.Output{Selected: []int{0}, Shortfalls: []casefile.Shortfall{{Kind: s}},
					Diagnostics: &protocol.Diagnostics{Excluded: []protocol.DiagnosticItem{{Index: 0, Reason: map[string]any{"reason": s}}}}}}})
	}
	return r
}

// checkTextReport writes the report of s in every format and reads each
// back as its consumer does; it returns the JUnit file.
func checkTextReport(t *testing.T, suite *casefile.Suite, s string, infra bool) []byte {
	t.Helper()
	r := textReport(suite, s, infra)

	// Text and Markdown: s changes what is inside the runner's lines,
	// never which lines there are, how they start or the last ones.
	neutral := textReport(suite, neutralText(s), infra)
	text := func(r *runner.Report) string {
		var b bytes.Buffer
		if err := report.WriteText(&b, r, report.TextOptions{Suite: suite}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if err := reportcheck.Text(text(r), text(neutral)); err != nil {
		t.Fatalf("%q: the text report: %v\n%s", s, err, text(r))
	}
	md := func(r *runner.Report) string {
		var b bytes.Buffer
		if err := report.WriteMarkdown(&b, r); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if err := reportcheck.Markdown(md(r), md(neutral)); err != nil {
		t.Fatalf("%q: the Markdown summary: %v\n%s", s, err, md(r))
	}

	var junit bytes.Buffer
	if err := report.WriteJUnit(&junit, r, suite); err != nil {
		t.Fatal(err)
	}
	j, err := reportcheck.JUnit(junit.Bytes())
	if err != nil {
		t.Fatalf("%q: %v\n%s", s, err, junit.Bytes())
	}
	if n := 0; true {
		for _, ts := range j.Suites {
			n += len(ts.Cases)
		}
		if n < len(r.Cases) {
			t.Fatalf("%q: %d JUnit test cases for %d cases", s, n, len(r.Cases))
		}
	}

	var tap bytes.Buffer
	if err := report.WriteTAP(&tap, r, suite); err != nil {
		t.Fatal(err)
	}
	points, err := reportcheck.TAP(tap.String())
	if err != nil {
		t.Fatalf("%q: %v\n%s", s, err, tap.String())
	}
	if len(points) < len(r.Cases) {
		t.Fatalf("%q: %d TAP test points for %d cases", s, len(points), len(r.Cases))
	}
	for i, c := range r.Cases {
		if points[i].Description != c.ID {
			t.Fatalf("%q: TAP test point %d reads %q, want %q", s, i+1, points[i].Description, c.ID)
		}
	}

	// JSON carries the text exactly (where it is UTF-8: JSON has no other
	// strings).
	var js bytes.Buffer
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back runner.Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatalf("%q: the JSON report does not parse: %v", s, err)
	}
	if utf8.ValidString(s) {
		c := back.Cases[0]
		got := []string{back.Implementation.Name, back.Implementation.Version, c.Message, c.Details[0], c.Stderr,
			c.Actual.Reason, c.Actual.Error.Message, c.Actual.Output.Shortfalls[0].Kind, c.Requirements[0], back.Infrastructure}
		want := []string{s, s, s, s, s, s, s, s, s, r.Infrastructure}
		if !slices.Equal(got, want) {
			t.Fatalf("%q: the JSON report did not round-trip:\ngot  %q\nwant %q", s, got, want)
		}
	}

	// HTML: the page of s has the elements and attributes of the page of
	// s without its markup characters; nothing of s became markup.
	page := func(s string) []string {
		name := "impl " + s
		m, err := matrix.New([]runner.NamedReport{{Name: name, Report: textReport(suite, s, infra)}},
			matrix.Options{Case: func(string) (matrix.CaseData, bool) {
				return matrix.CaseData{Input: map[string]string{"text": s}, Expected: s}, true
			}})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := matrix.WriteHTML(&b, m, matrix.HTMLOptions{Title: s}); err != nil {
			t.Fatal(err)
		}
		sk, err := reportcheck.Skeleton(b.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		return sk
	}
	if got, want := page(s), page(reportcheck.Defang(s)); !slices.Equal(got, want) {
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("%q: the HTML page has markup from the text: element %d is <%s>, without the markup <%s>", s, i, got[i], want[i])
			}
		}
		t.Fatalf("%q: the HTML page has %d elements, %d without the text's markup", s, len(got), len(want))
	}
	return junit.Bytes()
}

// neutralText stands for s in the report that the text and Markdown
// reports of s are checked against: a letter, or nothing for nothing
// (some lines are written only for text that is not empty).
func neutralText(s string) string {
	if s == "" {
		return ""
	}
	return "x"
}

// FuzzImplementationText feeds arbitrary bytes into every text of a
// report an implementation controls, and checks that the JUnit report
// parses, the TAP report parses (YAML blocks included), the JSON report
// parses and carries the text exactly, the HTML page has no markup from
// it, the text report (stdout) has no control character from it, no line
// of it at the left margin and the runner's level and verdict last, and
// the Markdown summary has no markup from it (reportcheck.Text and
// reportcheck.Markdown). TestImplementationTextJUnitSchema checks the seeds' and the
// corpus's JUnit against the schema.
func FuzzImplementationText(f *testing.F) {
	for _, s := range textSeeds {
		f.Add([]byte(s), false)
	}
	f.Add([]byte(textSeeds[0]), true)
	suite := fixtureSuite(f)
	f.Fuzz(func(t *testing.T, text []byte, infra bool) {
		// What breaks a report is local: a few hundred bytes find it, and
		// keep each run short (the report holds the text ~150 times).
		if len(text) > 300 {
			text = text[:300]
		}
		checkTextReport(t, suite, string(text), infra)
	})
}

// textInputs are the seeds of FuzzImplementationText and every input in
// its corpus (testdata/fuzz).
func textInputs(t *testing.T) []string {
	t.Helper()
	inputs := slices.Clone(textSeeds)
	corpus, _ := filepath.Glob("testdata/fuzz/FuzzImplementationText/*")
	for _, path := range corpus {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		if len(lines) < 2 || !strings.HasPrefix(lines[1], "[]byte(") {
			t.Fatalf("%s: not a corpus file of FuzzImplementationText", path)
		}
		s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		inputs = append(inputs, s)
	}
	return inputs
}

// TestImplementationTextMarkdownRendered renders the Markdown summary of
// every seed of FuzzImplementationText and of every input in its corpus
// with cmark-gfm (CommonMark with GitHub's tables and strikethrough, raw
// HTML let through), and checks that the page has the elements and
// attributes of the summary with neutral text, no more and no fewer (no
// HTML, comment, heading, table cell, emphasis, code, link or image came
// from the text), and ends with the runner's verdict in a paragraph of
// its own.
func TestImplementationTextMarkdownRendered(t *testing.T) {
	cmark := testtool.Need(t, "the rendering of the Markdown summary (package cmark-gfm)", "cmark-gfm")
	suite := fixtureSuite(t)
	render := func(r *runner.Report) []byte {
		var md bytes.Buffer
		if err := report.WriteMarkdown(&md, r); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(cmark, "--unsafe", "-e", "table", "-e", "strikethrough")
		cmd.Stdin = &md
		page, err := cmd.Output()
		if err != nil {
			t.Fatalf("cmark-gfm: %v", err)
		}
		return page
	}
	for _, s := range textInputs(t) {
		for _, infra := range []bool{false, true} {
			r := textReport(suite, s, infra)
			page := render(r)
			got, err := reportcheck.Skeleton(page)
			if err != nil {
				t.Fatal(err)
			}
			want, err := reportcheck.Skeleton(render(textReport(suite, neutralText(s), infra)))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%q: the rendered Markdown has the elements\n%q\nwith neutral text\n%q\n%s", s, got, want, page)
			}
			if v := r.Verdict().Line(); !bytes.HasSuffix(page, []byte("\n<p>"+v+"</p>\n")) {
				t.Errorf("%q: the rendered Markdown does not end with the paragraph %q:\n%s", s, v, page)
			}
		}
	}
}

// TestImplementationTextJUnitSchema writes the JUnit report of every seed
// of FuzzImplementationText and of every input in its corpus
// (testdata/fuzz), and validates it against the Jenkins JUnit schema with
// xmllint.
func TestImplementationTextJUnitSchema(t *testing.T) {
	xmllint := testtool.Need(t, "the check of the JUnit report against testdata/jenkins-junit.xsd (package libxml2-utils)", "xmllint")
	suite := fixtureSuite(t)
	dir := t.TempDir()
	for i, s := range textInputs(t) {
		for _, infra := range []bool{false, true} {
			path := filepath.Join(dir, strconv.Itoa(i)+strconv.FormatBool(infra)+".xml")
			if err := os.WriteFile(path, checkTextReport(t, suite, s, infra), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := reportcheck.JUnitSchema(xmllint, "testdata/jenkins-junit.xsd", path); err != nil {
				t.Errorf("%q: %v", s, err)
			}
		}
	}
}
