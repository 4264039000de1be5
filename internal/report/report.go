// Package report writes the reports of a conformance run for
// cupel-conform: human text, JUnit XML, TAP, Markdown, a shields.io badge,
// and the diff of two JSON reports.
package report

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/protocol"
	"github.com/cupel-go/go-cupel/runner/vector"
)

// TextOptions configure the human-readable report.
type TextOptions struct {
	// Color adds ANSI colours (the CLI sets it only on a terminal without
	// NO_COLOR).
	Color bool
	// Suite, when set, lets failures show their inputs.
	Suite *vector.Suite
	// MaxFailures caps every list of the report: the failures shown in
	// full, the unsupported reasons and the failing ids of the summary (0:
	// no cap). Negative shows no failure in full and caps the summary's
	// lists at DefaultMaxFailures.
	MaxFailures int
	// Summary leaves out the failures in full: only the counts, the
	// unsupported reasons, the unexpected ids and the level (--quiet).
	Summary bool
}

// DefaultMaxFailures is cupel-conform's default --max-failures.
const DefaultMaxFailures = 30

// statusMessage is "status: message", saying the status once when the
// message already starts with it ("unsupported: unsupported: …" never).
func statusMessage(st protocol.Status, msg string) string {
	if msg == "" {
		return string(st)
	}
	if l := strings.ToLower(msg); strings.HasPrefix(l, string(st)+":") || strings.HasPrefix(l, string(st)+" ") {
		return msg
	}
	return string(st) + ": " + msg
}

// reasonOf is an unsupported case's reason without a leading
// "unsupported:".
func reasonOf(c runner.CaseResult) string {
	m := strings.TrimSpace(c.Message)
	if l := strings.ToLower(m); strings.HasPrefix(l, "unsupported:") {
		m = strings.TrimSpace(m[len("unsupported:"):])
	}
	if m == "" {
		m = "(no reason given)"
	}
	return m
}

// warningMessage is what JUnit and TAP say of a warning: a case the
// target does not require.
func warningMessage(c runner.CaseResult, v runner.Verdict) string {
	what := map[runner.Outcome]string{runner.OutcomeFail: "failed", runner.OutcomeUnsupported: "unsupported",
		runner.OutcomeXFail: "failed (pinned)"}[c.Outcome()]
	return fmt.Sprintf("%s case %s, not required for %s: %s", c.Tier, what, v.Target.Title(), statusMessage(c.Status, c.Message))
}

// levelTest says whether the "conformance level" test of JUnit and TAP
// passes: it exists only when the run has a target, and fails exactly when
// the verdict's level misses it.
func levelTest(v runner.Verdict) (exists, ok bool, msg string) {
	if v.Target == "" {
		return false, true, ""
	}
	if v.Level.AtLeast(v.Target) {
		return true, true, fmt.Sprintf("%s reaches the target %s", v.LevelText, v.Target.Title())
	}
	return true, false, fmt.Sprintf("%s misses the target %s", v.LevelText, v.Target.Title())
}

type painter struct{ on bool }

func (p painter) c(code, s string) string {
	if !p.on {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

// PaintStatus returns text in the terminal colour of status s when color is
// true (green for passes, yellow for skips and unsupported cases, red for the
// rest), and text unchanged when it is false.
func PaintStatus(s protocol.Status, text string, color bool) string {
	return painter{color}.c(statusColor(s), text)
}

func statusColor(s protocol.Status) string {
	switch s {
	case protocol.StatusPass, protocol.StatusXFail:
		return "32"
	case protocol.StatusSkip, protocol.StatusUnsupported, protocol.StatusNotRun:
		return "33"
	}
	return "31"
}

// countLine formats the non-zero counts of a status map.
func countLine(m map[protocol.Status]int) string {
	var parts []string
	for _, s := range protocol.Statuses {
		if m[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", m[s], s))
		}
	}
	if len(parts) == 0 {
		return "no cases"
	}
	return strings.Join(parts, ", ")
}

// WriteText writes the human-readable report: a header, counts per tier
// and stage, each gated result and warning with its inputs, expected vs
// actual and stderr tail, the lists of gated cases and warnings, the level
// and, last, the verdict line ([runner.Verdict.Line]).
func WriteText(w io.Writer, r *runner.Report, o TextOptions) error {
	p := painter{o.Color}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s · spec %s · suite %s (%d cases, sha256 %s)\n", r.Runner.Name, r.Runner.Version,
		r.Suite.SpecVersion, r.Suite.Source, r.Suite.Cases, short(r.Suite.Digest))
	impl := r.Implementation.Name
	if impl == "" {
		impl = "(unknown)"
	}
	if r.Implementation.Version != "" {
		impl += " " + r.Implementation.Version
	}
	if r.Implementation.Language != "" {
		impl += " (" + r.Implementation.Language + ")"
	}
	fmt.Fprintf(&b, "implementation: %s\n", impl)
	if caps := describeCapabilities(r.Implementation.Capabilities); caps != "" {
		fmt.Fprintf(&b, "capabilities: %s\n", caps)
	}
	if r.Filtered {
		fmt.Fprintf(&b, "filters: %s\n", describeFilters(r.Filters))
	}
	b.WriteString("\n")
	limit := o.MaxFailures
	full := limit >= 0 && !o.Summary
	if limit < 0 {
		limit = DefaultMaxFailures
	}
	v := r.Verdict()
	class := v.Classes()
	var failing, gated, warned []runner.CaseResult
	unsupported := map[string][]string{}
	requiredUnsupported := map[string]int{}
	notRun := 0
	var reasons []string
	for _, c := range r.Cases {
		switch class[c.ID] {
		case runner.ClassGated:
			gated = append(gated, c)
		case runner.ClassWarning:
			warned = append(warned, c)
		}
		switch {
		case c.Status == protocol.StatusUnsupported:
			why := reasonOf(c)
			if unsupported[why] == nil {
				reasons = append(reasons, why)
			}
			unsupported[why] = append(unsupported[why], c.ID)
			if c.Tier == vector.TierRequired {
				requiredUnsupported[why]++
			}
		case c.Status == protocol.StatusNotRun && r.Infrastructure != "":
			notRun++ // one infrastructure error, said once below
		case class[c.ID] == runner.ClassGated || class[c.ID] == runner.ClassWarning:
			failing = append(failing, c)
		}
	}
	if full {
		for i, c := range failing {
			if limit > 0 && i >= limit {
				fmt.Fprintf(&b, "… and %d more failures (see the JSON report)\n\n", len(failing)-limit)
				break
			}
			writeFailure(&b, p, c, o.Suite)
		}
	}
	for _, tier := range vector.Tiers {
		fmt.Fprintf(&b, "%-9s %s\n", tier+":", countLine(r.Counts[tier]))
		for _, st := range vector.Stages {
			if m := r.StageCounts[tier+"/"+st]; m != nil {
				fmt.Fprintf(&b, "  %-9s %s\n", st+":", countLine(m))
			}
		}
	}
	if m := r.StageCounts["/"]; m != nil {
		fmt.Fprintf(&b, "%-9s %s\n", "other:", countLine(m))
	}
	if r.Restarts > 0 {
		fmt.Fprintf(&b, "restarts: %d\n", r.Restarts)
	}
	if len(reasons) > 0 {
		sort.SliceStable(reasons, func(i, j int) bool { return len(unsupported[reasons[i]]) > len(unsupported[reasons[j]]) })
		fmt.Fprintf(&b, "\n%s (%d cases), by reason:\n", p.c(statusColor(protocol.StatusUnsupported), "unsupported"), r.Counts["all"][protocol.StatusUnsupported])
		for i, why := range reasons {
			if limit > 0 && i >= limit {
				fmt.Fprintf(&b, "  … and %d more reasons (see the JSON report)\n", len(reasons)-limit)
				break
			}
			ids := unsupported[why]
			fmt.Fprintf(&b, "  %4d  %s (%d required; %s)\n", len(ids), why, requiredUnsupported[why], exampleIDs(ids))
		}
	}
	for _, l := range []struct {
		title, color string
		cases        []runner.CaseResult
	}{{"gated", "31;1", gated}, {"warnings", "33;1", warned}} {
		if len(l.cases) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s (%d):\n", p.c(l.color, l.title), len(l.cases))
		for i, c := range l.cases {
			if limit > 0 && i >= limit {
				fmt.Fprintf(&b, "  … and %d more (see the JSON report)\n", len(l.cases)-limit)
				break
			}
			fmt.Fprintf(&b, "  %s %s\n", p.c(statusColor(c.Status), fmt.Sprintf("%-16s", c.Status)), c.ID)
		}
	}
	if r.Infrastructure != "" {
		if notRun > 0 {
			fmt.Fprintf(&b, "\n%d cases not run: the run stopped without a verdict\n", notRun)
		}
		fmt.Fprintf(&b, "\n%s %s\n", p.c("31;1", "INFRASTRUCTURE ERROR:"), r.Infrastructure)
		if r.InfrastructureStderr != "" {
			fmt.Fprintf(&b, "stderr:\n%s\n", indent(r.InfrastructureStderr, "  | "))
		}
	}
	col := "31;1"
	switch v.Level {
	case runner.LevelFullyConformant:
		col = "32;1"
	case runner.LevelConformant:
		col = "32"
	}
	if v.LevelClaimed {
		fmt.Fprintf(&b, "\nlevel: %s (%s)\n", p.c(col, v.LevelText), r.LevelReason)
	} else {
		fmt.Fprintf(&b, "\nlevel: %s\n", p.c(col, v.LevelText)) // the text says why
	}
	vcol := "31;1"
	if v.Passed {
		vcol = "32;1"
	}
	b.WriteString(p.c(vcol, v.Line()) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// exampleIDs names the first case of a group, and how many others.
func exampleIDs(ids []string) string {
	if len(ids) == 1 {
		return ids[0]
	}
	return fmt.Sprintf("%s and %d more", ids[0], len(ids)-1)
}

func describeCapabilities(c protocol.Capabilities) string {
	var parts []string
	for _, l := range c.Lists() {
		parts = append(parts, l.Name+" "+strings.Join(l.Values, ","))
	}
	return strings.Join(parts, "; ")
}

func describeFilters(f runner.Filters) string {
	var parts []string
	if f.Run != "" {
		parts = append(parts, "--run "+f.Run)
	}
	if f.Skip != "" {
		parts = append(parts, "--skip "+f.Skip)
	}
	for _, t := range f.Tiers {
		parts = append(parts, "--tier "+t)
	}
	for _, s := range f.Stages {
		parts = append(parts, "--stage "+s)
	}
	return strings.Join(parts, " ") + " (a filtered run claims no level)"
}

func short(d string) string {
	if len(d) > 12 {
		return d[:12]
	}
	return d
}

func indent(s, prefix string) string {
	s = strings.TrimRight(s, "\n")
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

func writeFailure(b *strings.Builder, p painter, c runner.CaseResult, suite *vector.Suite) {
	fmt.Fprintf(b, "%s %s", p.c(statusColor(c.Status)+";1", strings.ToUpper(string(c.Status))), c.ID)
	if c.Name != "" {
		fmt.Fprintf(b, " — %s", c.Name)
	}
	b.WriteString("\n")
	writeDetail(b, c, suite)
	b.WriteString("\n")
}

// FailureDetail is what the text report says of a case under its header
// line, without colour: the message, the details (the diff), the inputs
// and the stderr tail. The JUnit and TAP reports carry it too.
func FailureDetail(c runner.CaseResult, suite *vector.Suite) string {
	var b strings.Builder
	writeDetail(&b, c, suite)
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "  ")
	}
	return strings.Join(lines, "\n")
}

func writeDetail(b *strings.Builder, c runner.CaseResult, suite *vector.Suite) {
	if c.Message != "" {
		fmt.Fprintf(b, "  %s\n", c.Message)
	}
	details := c.Details
	if len(details) > 0 && strings.HasPrefix(c.Message, details[0]) {
		details = details[1:] // the message already says it
	}
	for _, d := range details {
		fmt.Fprintf(b, "  %s\n", d)
	}
	if suite != nil {
		if cs := suite.Case(c.ID); cs != nil && c.Status != protocol.StatusUnsupported && c.Status != protocol.StatusSkip && c.Status != protocol.StatusNotRun && c.SuiteError == nil {
			b.WriteString("  inputs:\n")
			writeInputs(b, cs)
			if c.Actual != nil && c.Actual.Output != nil && c.Actual.Output.Diagnostics != nil && cs.Expect.Diagnostics == nil {
				d := c.Actual.Output.Diagnostics
				b.WriteString("  actual selection report:\n")
				for _, e := range d.Included {
					fmt.Fprintf(b, "    included %s\n", runner.DescribeItem(e, cs))
				}
				for _, e := range d.Excluded {
					fmt.Fprintf(b, "    excluded %s\n", runner.DescribeItem(e, cs))
				}
			}
		}
	}
	if c.Stderr != "" {
		fmt.Fprintf(b, "  stderr (tail):\n%s\n", indent(c.Stderr, "    | "))
	}
}

func writeInputs(b *strings.Builder, c *vector.Case) {
	in := c.Input
	cfg := map[string]any{}
	if in.Scorer != nil {
		cfg["scorer"] = in.Scorer
	}
	if in.Slicer != nil {
		cfg["slicer"] = in.Slicer
	}
	if in.Placer != "" {
		cfg["placer"] = in.Placer
	}
	if in.Budget != nil {
		cfg["budget"] = in.Budget
	}
	if in.Deduplication != nil {
		cfg["deduplication"] = *in.Deduplication
	}
	if in.OverflowStrategy != "" {
		cfg["overflow_strategy"] = in.OverflowStrategy
	}
	if j, err := json.Marshal(cfg); err == nil {
		fmt.Fprintf(b, "    config: %s\n", j)
	}
	const maxItems = 20
	for i, it := range in.Items {
		if i == maxItems {
			fmt.Fprintf(b, "    … %d more items\n", len(in.Items)-maxItems)
			break
		}
		j, _ := json.Marshal(it)
		fmt.Fprintf(b, "    %s\n", j)
	}
}

// JUnit XML structures, in the element order of the Jenkins JUnit schema
// (testdata/jenkins-junit.xsd), which most CI servers read.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string           `xml:"name,attr"`
	Tests      int              `xml:"tests,attr"`
	Failures   int              `xml:"failures,attr"`
	Errors     int              `xml:"errors,attr"`
	Skipped    int              `xml:"skipped,attr"`
	Time       string           `xml:"time,attr"`
	Timestamp  string           `xml:"timestamp,attr,omitempty"`
	Properties *junitProperties `xml:"properties,omitempty"`
	Cases      []junitCase      `xml:"testcase"`
}

type junitProperties struct {
	Property []junitProperty `xml:"property"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	Error     *junitMessage `xml:"error,omitempty"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	SystemErr *junitBody    `xml:"system-err,omitempty"`
}

type junitBody struct {
	Body string `xml:",cdata"`
}

// junitSkipped is <skipped>: an optional message and text.
type junitSkipped struct {
	Message string `xml:"message,attr,omitempty"`
	Body    string `xml:",cdata"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Body    string `xml:",cdata"`
}

// LevelTestName is the name of the last test case of the JUnit report and
// the last test point of the TAP report, present only when the run has a
// target level: it fails exactly when the level misses the target.
const LevelTestName = "conformance level"

// WriteJUnit writes the report as JUnit XML, rendering the run's
// [runner.Verdict]: one testsuite per tier and stage, then, when the run
// has a target level, a testsuite "conformance" whose one test case,
// "conformance level", fails exactly when the level misses the target. A
// gated case is a failure (an error for errors, crashes and timeouts),
// with the inputs and the diff in its body; a warning is skipped with the
// message "… not required for …"; an expected failure that does not count
// and a case not run are skipped; a case not run after an infrastructure
// error is an error. suite, when set, lets failures show their inputs.
func WriteJUnit(w io.Writer, r *runner.Report, suite *vector.Suite) error {
	v := r.Verdict()
	class := v.Classes()
	out := junitSuites{Name: "cupel-conform " + r.Implementation.Name, Time: seconds(r.Duration)}
	groups := map[string]*junitSuite{}
	var order []string
	times := map[string]time.Duration{}
	for _, c := range r.Cases {
		g := c.Tier + "/" + c.Stage
		s := groups[g]
		if s == nil {
			s = &junitSuite{Name: g}
			groups[g] = s
			order = append(order, g)
		}
		times[g] += time.Duration(c.Duration)
		jc := junitCase{Name: c.ID, Classname: strings.ReplaceAll(g, "/", "."), Time: seconds(c.Duration)}
		if c.Stderr != "" {
			jc.SystemErr = &junitBody{c.Stderr}
		}
		msg := junitMessage{Message: oneLineMsg(c.Message), Type: string(c.Status), Body: FailureDetail(withoutStderr(c), suite)}
		switch class[c.ID] {
		case runner.ClassGated:
			switch c.Status {
			case protocol.StatusError, protocol.StatusCrash, protocol.StatusTimeout:
				jc.Error = &msg
				s.Errors++
			default:
				if c.Status == protocol.StatusUnsupported {
					msg.Message = c.Tier + " case unsupported: " + reasonOf(c)
				}
				jc.Failure = &msg
				s.Failures++
			}
		case runner.ClassWarning:
			jc.Skipped = &junitSkipped{Message: oneLineMsg(warningMessage(c, v)), Body: msg.Body}
			s.Skipped++
		case runner.ClassNotRun:
			if c.Status == protocol.StatusNotRun && v.Infrastructure {
				jc.Error = &msg
				s.Errors++
				break
			}
			fallthrough
		default:
			if c.Status != protocol.StatusPass {
				jc.Skipped = &junitSkipped{Body: statusMessage(c.Status, c.Message)}
				s.Skipped++
			}
		}
		s.Tests++
		s.Cases = append(s.Cases, jc)
	}
	sort.Strings(order)
	stamp := ""
	if !r.Started.IsZero() {
		stamp = r.Started.UTC().Format("2006-01-02T15:04:05")
	}
	for _, g := range order {
		s := groups[g]
		s.Time, s.Timestamp = seconds(runner.Seconds(times[g])), stamp
		out.Suites = append(out.Suites, *s)
	}
	if exists, ok, why := levelTest(v); exists {
		lvl := junitSuite{Name: "conformance", Tests: 1, Time: "0.000", Timestamp: stamp,
			Properties: &junitProperties{[]junitProperty{{"runner", r.Runner.Name + " " + r.Runner.Version},
				{"spec_version", r.Suite.SpecVersion}, {"suite_digest", r.Suite.Digest}, {"level", string(v.Level)},
				{"target_level", string(v.Target)}}}}
		lc := junitCase{Name: LevelTestName, Classname: "conformance", Time: "0.000"}
		if !ok {
			body := why + " (" + r.LevelReason + ")"
			if r.Infrastructure != "" {
				body += "\ninfrastructure error: " + r.Infrastructure
			}
			lc.Failure = &junitMessage{Message: why, Type: "level", Body: body}
			lvl.Failures = 1
		}
		lvl.Cases = []junitCase{lc}
		out.Suites = append(out.Suites, lvl)
	}
	for _, s := range out.Suites {
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Errors += s.Errors
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	junitSafe(&out) // implementation text is data: see safetext.go
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func withoutStderr(c runner.CaseResult) runner.CaseResult {
	c.Stderr = "" // JUnit has it in system-err
	return c
}

func seconds(d runner.Seconds) string { return fmt.Sprintf("%.3f", time.Duration(d).Seconds()) }

func oneLineMsg(s string) string { return strings.ReplaceAll(s, "\n", " ") }

// WriteTAP writes the report as TAP version 14, rendering the run's
// [runner.Verdict]: one test point per case and, when the run has a target
// level, a last one, "conformance level", that fails exactly when the level
// misses the target. A gated case is "not ok", with a YAML block holding
// the message, the inputs and the diff; a warning is "not ok # TODO" (known,
// not counted), as is an expected failure that does not count; a case not
// run is "ok # SKIP", or "not ok" after an infrastructure error. suite,
// when set, lets failures show their inputs.
func WriteTAP(w io.Writer, r *runner.Report, suite *vector.Suite) error {
	v := r.Verdict()
	class := v.Classes()
	exists, levelOK, why := levelTest(v)
	n := len(r.Cases)
	if exists {
		n++
	}
	var b strings.Builder
	b.WriteString("TAP version 14\n")
	fmt.Fprintf(&b, "1..%d\n", n)
	for i, c := range r.Cases {
		ok := "ok"
		directive := ""
		yaml := false
		switch class[c.ID] {
		case runner.ClassGated:
			ok, yaml = "not ok", true
		case runner.ClassWarning:
			ok = "not ok"
			directive = " # TODO " + tapEscape(warningMessage(c, v))
		case runner.ClassNotRun:
			if c.Status == protocol.StatusNotRun && v.Infrastructure {
				ok, yaml = "not ok", true
			} else {
				directive = " # SKIP " + tapEscape(statusMessage(c.Status, c.Message))
			}
		default:
			if c.Status == protocol.StatusXFail {
				ok = "not ok"
				directive = " # TODO " + tapEscape(statusMessage(c.Status, c.Message))
			}
		}
		fmt.Fprintf(&b, "%s %d - %s%s\n", ok, i+1, tapEscape(c.ID), directive)
		if yaml {
			b.WriteString("  ---\n")
			fmt.Fprintf(&b, "  status: %s\n", c.Status)
			fmt.Fprintf(&b, "  tier: %s\n", c.Tier)
			if c.Status == protocol.StatusUnsupported {
				fmt.Fprintf(&b, "  message: %s\n", yamlString(c.Tier+" case unsupported: "+reasonOf(c)))
			} else {
				msg, _, _ := strings.Cut(c.Message, "\n") // the rest is in the detail
				fmt.Fprintf(&b, "  message: %s\n", yamlString(msg))
			}
			fmt.Fprintf(&b, "  duration_ms: %.3f\n", float64(time.Duration(c.Duration).Microseconds())/1000)
			if d := tapSafe(FailureDetail(c, suite)); d != "" {
				lines := strings.Split(strings.TrimRight(d, "\n"), "\n")
				fmt.Fprintf(&b, "  detail: %s\n", yamlBlockHeader(lines))
				for _, l := range lines {
					fmt.Fprintf(&b, "    %s\n", l)
				}
			}
			b.WriteString("  ...\n")
		}
	}
	switch {
	case !exists:
	case levelOK:
		fmt.Fprintf(&b, "ok %d - %s\n", n, LevelTestName)
	default:
		fmt.Fprintf(&b, "not ok %d - %s\n", n, LevelTestName)
		b.WriteString("  ---\n")
		fmt.Fprintf(&b, "  message: %s\n", yamlString(why))
		fmt.Fprintf(&b, "  level: %s\n", v.Level)
		fmt.Fprintf(&b, "  target: %s\n", v.Target)
		if r.Infrastructure != "" {
			fmt.Fprintf(&b, "  infrastructure_error: %s\n", yamlString(r.Infrastructure))
		}
		b.WriteString("  ...\n")
	}
	fmt.Fprintf(&b, "# level: %s (%s)\n", v.LevelText, r.LevelReason)
	fmt.Fprintf(&b, "# %s\n", tapEscape(v.Line()))
	_, err := io.WriteString(w, b.String())
	return err
}

// tapEscape keeps a description or directive on one line and escapes the
// characters TAP gives a meaning: # and the backslash.
func tapEscape(s string) string {
	s = strings.ReplaceAll(tapSafe(s), "\n", " ")
	s = strings.ReplaceAll(s, "\\", "\\\\")
	return strings.ReplaceAll(s, "#", "\\#")
}

func yamlString(s string) string {
	b, _ := json.Marshal(tapSafe(s))
	return string(b)
}

// WriteMarkdown writes a Markdown summary rendering the run's
// [runner.Verdict]: the level, a table of outcomes per tier and stage, the
// gated results and warnings, the unsupported reasons and, last, the
// verdict line ([runner.Verdict.Line]).
func WriteMarkdown(w io.Writer, r *runner.Report) error {
	v := r.Verdict()
	class := v.Classes()
	var b strings.Builder
	fmt.Fprintf(&b, "## Cupel conformance: %s\n\n", r.Implementation.Name)
	fmt.Fprintf(&b, "**%s** — %s\n\n", v.LevelText, r.LevelReason)
	fmt.Fprintf(&b, "Runner %s %s · spec %s · suite `%s` (%d cases)\n\n", r.Runner.Name, r.Runner.Version, r.Suite.SpecVersion, short(r.Suite.Digest), r.Suite.Cases)
	if caps := describeCapabilities(r.Implementation.Capabilities); caps != "" {
		fmt.Fprintf(&b, "Implementation %s %s (%s): %s\n\n", r.Implementation.Name, r.Implementation.Version, r.Implementation.Language, caps)
	}
	rows := map[string]map[runner.Outcome]int{}
	for _, c := range r.Cases {
		g := c.Tier + "/" + c.Stage
		if rows[g] == nil {
			rows[g] = map[runner.Outcome]int{}
		}
		rows[g][c.Outcome()]++
	}
	b.WriteString("| tier | stage |")
	for _, o := range runner.Outcomes {
		fmt.Fprintf(&b, " %s |", o)
	}
	b.WriteString("\n|---|---|" + strings.Repeat("---:|", len(runner.Outcomes)) + "\n")
	for _, tier := range vector.Tiers {
		for _, st := range vector.Stages {
			if x := rows[tier+"/"+st]; x != nil {
				fmt.Fprintf(&b, "| %s | %s |", tier, st)
				for _, o := range runner.Outcomes {
					fmt.Fprintf(&b, " %d |", x[o])
				}
				b.WriteString("\n")
			}
		}
	}
	notRun := 0
	for _, l := range []struct {
		title string
		class runner.Class
	}{{"Gated results", runner.ClassGated}, {"Warnings (not required for the target)", runner.ClassWarning}} {
		var list []runner.CaseResult
		for _, c := range r.Cases {
			if class[c.ID] == l.class && c.Status != protocol.StatusUnsupported {
				list = append(list, c)
			}
		}
		if len(list) > 0 {
			fmt.Fprintf(&b, "\n### %s\n\n| case | status | message |\n|---|---|---|\n", l.title)
			for _, c := range list {
				fmt.Fprintf(&b, "| `%s` | %s | %s |\n", c.ID, c.Status, mdEscape(c.Message))
			}
		}
	}
	unsupported := map[string]map[string]int{}
	var reasons []string
	for _, c := range r.Cases {
		if c.Status == protocol.StatusNotRun && r.Infrastructure != "" {
			notRun++ // one infrastructure error, said once below
		}
		if c.Status == protocol.StatusUnsupported {
			why := reasonOf(c)
			if unsupported[why] == nil {
				unsupported[why] = map[string]int{}
				reasons = append(reasons, why)
			}
			unsupported[why][c.Tier]++
		}
	}
	if len(reasons) > 0 {
		b.WriteString("\n### Unsupported, by reason\n\n| reason | required | optional |\n|---|---:|---:|\n")
		for _, why := range reasons {
			fmt.Fprintf(&b, "| %s | %d | %d |\n", mdEscape(why), unsupported[why][vector.TierRequired], unsupported[why][vector.TierOptional])
		}
	}
	if r.Infrastructure != "" {
		fmt.Fprintf(&b, "\n**Infrastructure error:** %s\n", mdEscape(r.Infrastructure))
		if notRun > 0 {
			fmt.Fprintf(&b, "\n%d cases not run: the run stopped without a verdict.\n", notRun)
		}
	}
	fmt.Fprintf(&b, "\n%s\n", mdEscape(v.Line()))
	_, err := io.WriteString(w, b.String())
	return err
}

func mdEscape(s string) string {
	s = strings.ReplaceAll(s, "|", "\\|")
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 300 && !strings.HasPrefix(s, "verdict: ") {
		s = s[:300] + "…"
	}
	return s
}

// Badge is a shields.io endpoint badge.
type Badge struct {
	SchemaVersion int    `json:"schemaVersion"`
	Label         string `json:"label"`
	Message       string `json:"message"`
	Color         string `json:"color"`
}

// NewBadge returns the shields.io endpoint badge of the report: it shows
// the level of the run's [runner.Verdict], green exactly when the level is
// Cupel Conformant or better.
func NewBadge(r *runner.Report) Badge {
	v := r.Verdict()
	b := Badge{SchemaVersion: 1, Label: "cupel " + r.Suite.SpecVersion}
	switch v.Level {
	case runner.LevelFullyConformant:
		b.Message, b.Color = "fully conformant", "brightgreen"
	case runner.LevelConformant:
		b.Message, b.Color = "conformant", "green"
	default:
		pass, total := 0, 0
		for _, c := range r.Cases {
			if c.Tier == vector.TierRequired && c.SuiteError == nil {
				total++
				if c.Passed() {
					pass++
				}
			}
		}
		b.Message, b.Color = fmt.Sprintf("%d/%d required", pass, total), "red"
		if !v.LevelClaimed {
			b.Message, b.Color = v.LevelText, "lightgrey"
		}
	}
	return b
}

// WriteBadge writes the shields.io endpoint badge JSON.
func WriteBadge(w io.Writer, r *runner.Report) error {
	b, err := json.MarshalIndent(NewBadge(r), "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// ReportDiff compares two reports case by case.
type ReportDiff struct {
	NewlyFailing []StatusChange `json:"newly_failing"`
	NewlyPassing []StatusChange `json:"newly_passing"`
	Changed      []StatusChange `json:"changed"`
	Added        []string       `json:"added"`
	Removed      []string       `json:"removed"`
	OldLevel     runner.Level   `json:"old_level"`
	NewLevel     runner.Level   `json:"new_level"`
}

// StatusChange is a case whose status changed.
type StatusChange struct {
	ID  string          `json:"id"`
	Old protocol.Status `json:"old"`
	New protocol.Status `json:"new"`
}

// Diff compares old and new.
func Diff(old, new *runner.Report) ReportDiff {
	d := ReportDiff{OldLevel: old.Level, NewLevel: new.Level}
	prev := map[string]runner.CaseResult{}
	for _, c := range old.Cases {
		prev[c.ID] = c
	}
	sameCause := func(a, b runner.CaseResult) bool {
		as, am := a.Cause()
		bs, bm := b.Cause()
		return as == bs && am == bm
	}
	seen := map[string]bool{}
	for _, c := range new.Cases {
		seen[c.ID] = true
		oc, ok := prev[c.ID]
		o := oc.Status
		switch {
		case !ok:
			d.Added = append(d.Added, c.ID)
		case o == c.Status, sameCause(oc, c): // an xfail that is now unpinned, or back, is the same result
		case o == protocol.StatusPass:
			d.NewlyFailing = append(d.NewlyFailing, StatusChange{c.ID, o, c.Status})
		case c.Status == protocol.StatusPass:
			d.NewlyPassing = append(d.NewlyPassing, StatusChange{c.ID, o, c.Status})
		default:
			d.Changed = append(d.Changed, StatusChange{c.ID, o, c.Status})
		}
	}
	for _, c := range old.Cases {
		if !seen[c.ID] {
			d.Removed = append(d.Removed, c.ID)
		}
	}
	return d
}

// WriteDiff writes a diff for humans, each list capped at limit entries
// (0: no cap).
func WriteDiff(w io.Writer, d ReportDiff, limit int) error {
	var b strings.Builder
	fmt.Fprintf(&b, "level: %s -> %s\n", d.OldLevel, d.NewLevel)
	section := func(title string, list []StatusChange) {
		if len(list) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n%s (%d):\n", title, len(list))
		for i, c := range list {
			if limit > 0 && i == limit {
				fmt.Fprintf(&b, "  … and %d more (--max-failures)\n", len(list)-limit)
				break
			}
			fmt.Fprintf(&b, "  %s: %s -> %s\n", c.ID, c.Old, c.New)
		}
	}
	section("newly failing", d.NewlyFailing)
	section("newly passing", d.NewlyPassing)
	section("changed", d.Changed)
	for _, l := range []struct {
		t    string
		list []string
	}{{"added", d.Added}, {"removed", d.Removed}} {
		if len(l.list) > 0 {
			fmt.Fprintf(&b, "\n%s (%d):\n", l.t, len(l.list))
			for i, id := range slices.Sorted(slices.Values(l.list)) {
				if limit > 0 && i == limit {
					fmt.Fprintf(&b, "  … and %d more (--max-failures)\n", len(l.list)-limit)
					break
				}
				fmt.Fprintf(&b, "  %s\n", id)
			}
		}
	}
	if len(d.NewlyFailing)+len(d.NewlyPassing)+len(d.Changed)+len(d.Added)+len(d.Removed) == 0 {
		b.WriteString("no change\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ReadReport reads a JSON report written by runner.Report.WriteJSON.
func ReadReport(path string) (*runner.Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r runner.Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if r.Schema != runner.ReportSchema {
		return nil, fmt.Errorf("%s: schema %q, want %q", path, r.Schema, runner.ReportSchema)
	}
	return &r, nil
}
