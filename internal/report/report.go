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
)

// TextOptions configure the human-readable report.
type TextOptions struct {
	// Color adds ANSI colours (the CLI sets it only on a terminal without
	// NO_COLOR).
	Color bool
	// Suite, when set, lets failures show their inputs.
	Suite *runner.Suite
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
func statusMessage(st runner.Status, msg string) string {
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

// Target is the level a run is judged against in the CI formats: the
// required level, or else Cupel Conformant.
func Target(r *runner.Report) runner.Level {
	if r.RequireLevel != "" && r.RequireLevel != runner.LevelNone {
		return r.RequireLevel
	}
	return runner.LevelConformant
}

// levelVerdict says whether the run reached its target level, and why
// not: what the final "conformance level" test of JUnit and TAP says.
func levelVerdict(r *runner.Report) (ok bool, msg string) {
	t := Target(r)
	if claimsNoLevel(r) {
		return true, "a filtered run claims no level"
	}
	if r.Level.AtLeast(t) {
		return true, fmt.Sprintf("%s (%s); target %s reached", r.Level.Title(), r.LevelReason, t.Title())
	}
	return false, fmt.Sprintf("%s (%s); target %s not reached", r.Level.Title(), r.LevelReason, t.Title())
}

// claimsNoLevel reports whether the run left cases out by its filters
// (not by stopping early): it claims no level, and the "conformance level"
// test is skipped rather than failed.
func claimsNoLevel(r *runner.Report) bool {
	return r.Filtered && !r.StoppedEarly && r.Infrastructure == ""
}

// failsLevel reports whether the Markdown table counts a case as a
// failure: every unexpected result but an unexpected pass (the answer was
// right), and a required case answered unsupported, since it keeps the
// run from a level. An optional unsupported case is not a failure, nor is
// a failure the expectations pin (xfail).
func failsLevel(c runner.CaseResult) bool {
	switch c.Status {
	case runner.StatusPass, runner.StatusSkip, runner.StatusUnexpectedPass, runner.StatusXFail:
		return false
	case runner.StatusUnsupported:
		return c.Tier == runner.TierRequired
	}
	return true
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
func PaintStatus(s runner.Status, text string, color bool) string {
	return painter{color}.c(statusColor(s), text)
}

func statusColor(s runner.Status) string {
	switch s {
	case runner.StatusPass, runner.StatusXFail:
		return "32"
	case runner.StatusSkip, runner.StatusUnsupported, runner.StatusNotRun:
		return "33"
	}
	return "31"
}

// countLine formats the non-zero counts of a status map.
func countLine(m map[runner.Status]int) string {
	var parts []string
	for _, s := range runner.Statuses {
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
// and stage, each unexpected result with its inputs, expected vs actual and
// stderr tail, and the level.
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
	var failing []runner.CaseResult
	unsupported := map[string][]string{}
	requiredUnsupported := map[string]int{}
	notRun := 0
	var reasons []string
	for _, c := range r.Cases {
		switch {
		case c.Status == runner.StatusUnsupported:
			why := reasonOf(c)
			if unsupported[why] == nil {
				reasons = append(reasons, why)
			}
			unsupported[why] = append(unsupported[why], c.ID)
			if c.Tier == runner.TierRequired {
				requiredUnsupported[why]++
			}
		case c.Status == runner.StatusNotRun && r.Infrastructure != "":
			notRun++ // one infrastructure error, said once below
		case c.Unexpected():
			failing = append(failing, c)
		}
	}
	if full {
		for i, c := range failing {
			if limit > 0 && i >= limit {
				fmt.Fprintf(&b, "… and %d more unexpected results (see the JSON report)\n\n", len(failing)-limit)
				break
			}
			writeFailure(&b, p, c, o.Suite)
		}
	}
	for _, tier := range runner.Tiers {
		fmt.Fprintf(&b, "%-9s %s\n", tier+":", countLine(r.Counts[tier]))
		for _, st := range runner.Stages {
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
		fmt.Fprintf(&b, "\n%s (%d cases), by reason:\n", p.c(statusColor(runner.StatusUnsupported), "unsupported"), r.Counts["all"][runner.StatusUnsupported])
		for i, why := range reasons {
			if limit > 0 && i >= limit {
				fmt.Fprintf(&b, "  … and %d more reasons (see the JSON report)\n", len(reasons)-limit)
				break
			}
			ids := unsupported[why]
			fmt.Fprintf(&b, "  %4d  %s (%d required; %s)\n", len(ids), why, requiredUnsupported[why], exampleIDs(ids))
		}
	}
	if len(failing) > 0 {
		fmt.Fprintf(&b, "\n%s (%d):\n", p.c("31;1", "unexpected results"), len(failing))
		for i, c := range failing {
			if limit > 0 && i >= limit {
				fmt.Fprintf(&b, "  … and %d more (see the JSON report)\n", len(failing)-limit)
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
	level := r.Level.Title()
	col := "31;1"
	switch r.Level {
	case runner.LevelFullyConformant:
		col = "32;1"
	case runner.LevelConformant:
		col = "32"
	}
	fmt.Fprintf(&b, "\nlevel: %s (%s)\n", p.c(col, level), r.LevelReason)
	if r.RequireLevel != "" {
		met := "met"
		if !r.Level.AtLeast(r.RequireLevel) {
			met = "NOT met"
		}
		fmt.Fprintf(&b, "required level: %s, %s\n", r.RequireLevel.Title(), met)
	}
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

func describeCapabilities(c runner.Capabilities) string {
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

func writeFailure(b *strings.Builder, p painter, c runner.CaseResult, suite *runner.Suite) {
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
func FailureDetail(c runner.CaseResult, suite *runner.Suite) string {
	var b strings.Builder
	writeDetail(&b, c, suite)
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "  ")
	}
	return strings.Join(lines, "\n")
}

func writeDetail(b *strings.Builder, c runner.CaseResult, suite *runner.Suite) {
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
		if cs := suite.Case(c.ID); cs != nil && c.Status != runner.StatusUnsupported && c.Status != runner.StatusSkip && c.Status != runner.StatusNotRun && c.SuiteError == nil {
			b.WriteString("  inputs:\n")
			writeInputs(b, cs)
			if c.Actual != nil && c.Actual.Output != nil && c.Actual.Output.Diagnostics != nil && cs.Expect.Diagnostics == nil {
				d := c.Actual.Output.Diagnostics
				b.WriteString("  actual selection report:\n")
				for _, e := range d.Included {
					fmt.Fprintf(b, "    included %s\n", e.Describe(cs))
				}
				for _, e := range d.Excluded {
					fmt.Fprintf(b, "    excluded %s\n", e.Describe(cs))
				}
			}
		}
	}
	if c.Stderr != "" {
		fmt.Fprintf(b, "  stderr (tail):\n%s\n", indent(c.Stderr, "    | "))
	}
}

func writeInputs(b *strings.Builder, c *runner.Case) {
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
	SystemErr *junitText    `xml:"system-err,omitempty"`
}

type junitText struct {
	Body string `xml:",cdata"`
}

// junitSkipped is the schema's <skipped>: text only, no attributes.
type junitSkipped struct {
	Body string `xml:",cdata"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Body    string `xml:",cdata"`
}

// LevelTestName is the name of the last test case of the JUnit report and
// the last test point of the TAP report: it fails when the run does not
// reach its target level ([Target]).
const LevelTestName = "conformance level"

// WriteJUnit writes the report as JUnit XML valid against the Jenkins
// JUnit schema: one testsuite per tier and stage, then a testsuite
// "conformance" whose one test case, "conformance level", fails when the
// run misses its target level ([Target]). Failures, unexpected passes and
// required cases answered unsupported are failures (each with the inputs
// and the diff in its body); errors, crashes, timeouts and not-run cases
// are errors; skips, expected failures and optional unsupported cases are
// skipped. suite, when set, lets failures show their inputs.
func WriteJUnit(w io.Writer, r *runner.Report, suite *runner.Suite) error {
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
			jc.SystemErr = &junitText{c.Stderr}
		}
		msg := junitMessage{Message: oneLineMsg(c.Message), Type: string(c.Status), Body: FailureDetail(withoutStderr(c), suite)}
		switch {
		case c.Status == runner.StatusUnsupported && c.Tier == runner.TierRequired:
			msg.Message = "required case unsupported: " + reasonOf(c)
			jc.Failure = &msg
			s.Failures++
		case c.Status == runner.StatusFail, c.Status == runner.StatusUnexpectedPass:
			jc.Failure = &msg
			s.Failures++
		case c.Status == runner.StatusError, c.Status == runner.StatusCrash, c.Status == runner.StatusTimeout, c.Status == runner.StatusNotRun:
			jc.Error = &msg
			s.Errors++
		case c.Status == runner.StatusSkip, c.Status == runner.StatusXFail, c.Status == runner.StatusUnsupported:
			jc.Skipped = &junitSkipped{Body: statusMessage(c.Status, c.Message)}
			s.Skipped++
		}
		s.Tests++
		s.Cases = append(s.Cases, jc)
	}
	sort.Strings(order)
	stamp := ""
	if !r.Started.IsZero() {
		stamp = r.Started.UTC().Format("2006-01-02T15:04:05")
	}
	ok, why := levelVerdict(r)
	lvl := junitSuite{Name: "conformance", Tests: 1, Time: "0.000", Timestamp: stamp,
		Properties: &junitProperties{[]junitProperty{{"runner", r.Runner.Name + " " + r.Runner.Version},
			{"spec_version", r.Suite.SpecVersion}, {"suite_digest", r.Suite.Digest}, {"level", string(r.Level)},
			{"target_level", string(Target(r))}}}}
	lc := junitCase{Name: LevelTestName, Classname: "conformance", Time: "0.000"}
	if claimsNoLevel(r) {
		lc.Skipped = &junitSkipped{Body: why}
		lvl.Skipped = 1
	} else if !ok {
		body := why
		if r.Infrastructure != "" {
			body += "\ninfrastructure error: " + r.Infrastructure
		}
		lc.Failure = &junitMessage{Message: why, Type: "level", Body: body}
		lvl.Failures = 1
	}
	lvl.Cases = []junitCase{lc}
	for _, g := range order {
		s := groups[g]
		s.Time, s.Timestamp = seconds(runner.Seconds(times[g])), stamp
		out.Suites = append(out.Suites, *s)
	}
	out.Suites = append(out.Suites, lvl)
	for _, s := range out.Suites {
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Errors += s.Errors
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
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

// WriteTAP writes the report as TAP version 14: one test point per case,
// then a last one, "conformance level", that fails when the run misses its
// target level ([Target]). Failures, unexpected passes, errors, crashes,
// timeouts, not-run cases and required cases answered unsupported are
// "not ok", with a YAML block holding the message, the inputs and the
// diff; skips and optional unsupported cases are "# SKIP", expected
// failures "not ok # TODO". suite, when set, lets failures show their
// inputs.
func WriteTAP(w io.Writer, r *runner.Report, suite *runner.Suite) error {
	var b strings.Builder
	b.WriteString("TAP version 14\n")
	fmt.Fprintf(&b, "1..%d\n", len(r.Cases)+1)
	for i, c := range r.Cases {
		ok := "ok"
		directive := ""
		switch {
		case c.Status == runner.StatusPass:
		case c.Status == runner.StatusUnexpectedPass:
			ok = "not ok"
		case c.Status == runner.StatusSkip, c.Status == runner.StatusUnsupported && c.Tier != runner.TierRequired:
			directive = " # SKIP " + tapEscape(statusMessage(c.Status, c.Message))
		case c.Status == runner.StatusXFail:
			ok = "not ok"
			directive = " # TODO " + tapEscape(statusMessage(c.Status, c.Message))
		default:
			ok = "not ok"
		}
		fmt.Fprintf(&b, "%s %d - %s%s\n", ok, i+1, tapEscape(c.ID), directive)
		if ok == "not ok" && c.Status != runner.StatusXFail {
			b.WriteString("  ---\n")
			fmt.Fprintf(&b, "  status: %s\n", c.Status)
			fmt.Fprintf(&b, "  tier: %s\n", c.Tier)
			if c.Status == runner.StatusUnsupported {
				fmt.Fprintf(&b, "  message: %s\n", yamlString("required case unsupported: "+reasonOf(c)))
			} else {
				msg, _, _ := strings.Cut(c.Message, "\n") // the rest is in the detail
				fmt.Fprintf(&b, "  message: %s\n", yamlString(msg))
			}
			fmt.Fprintf(&b, "  duration_ms: %.3f\n", float64(time.Duration(c.Duration).Microseconds())/1000)
			if d := FailureDetail(c, suite); d != "" {
				b.WriteString("  detail: |\n")
				for _, l := range strings.Split(strings.TrimRight(d, "\n"), "\n") {
					fmt.Fprintf(&b, "    %s\n", l)
				}
			}
			b.WriteString("  ...\n")
		}
	}
	ok, why := levelVerdict(r)
	switch {
	case claimsNoLevel(r):
		fmt.Fprintf(&b, "ok %d - %s # SKIP %s\n", len(r.Cases)+1, LevelTestName, why)
	case ok:
		fmt.Fprintf(&b, "ok %d - %s\n", len(r.Cases)+1, LevelTestName)
	default:
		fmt.Fprintf(&b, "not ok %d - %s\n", len(r.Cases)+1, LevelTestName)
		b.WriteString("  ---\n")
		fmt.Fprintf(&b, "  message: %s\n", yamlString(why))
		fmt.Fprintf(&b, "  level: %s\n", r.Level)
		fmt.Fprintf(&b, "  target: %s\n", Target(r))
		if r.Infrastructure != "" {
			fmt.Fprintf(&b, "  infrastructure_error: %s\n", yamlString(r.Infrastructure))
		}
		b.WriteString("  ...\n")
	}
	fmt.Fprintf(&b, "# level: %s (%s)\n", r.Level, r.LevelReason)
	_, err := io.WriteString(w, b.String())
	return err
}

// tapEscape keeps a description or directive on one line and escapes the
// characters TAP gives a meaning: # and the backslash.
func tapEscape(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	s = strings.ReplaceAll(s, "\\", "\\\\")
	return strings.ReplaceAll(s, "#", "\\#")
}

func yamlString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// WriteMarkdown writes a Markdown summary: the level, a table of counts
// per tier and stage, and the unexpected results.
func WriteMarkdown(w io.Writer, r *runner.Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## Cupel conformance: %s\n\n", r.Implementation.Name)
	fmt.Fprintf(&b, "**%s** — %s\n\n", r.Level.Title(), r.LevelReason)
	if claimsNoLevel(r) {
		b.WriteString("A filtered run claims no level.\n\n")
	} else if ok, _ := levelVerdict(r); ok {
		fmt.Fprintf(&b, "Target level %s: **reached**\n\n", Target(r).Title())
	} else {
		fmt.Fprintf(&b, "Target level %s: **not reached**\n\n", Target(r).Title())
	}
	fmt.Fprintf(&b, "Runner %s %s · spec %s · suite `%s` (%d cases)\n\n", r.Runner.Name, r.Runner.Version, r.Suite.SpecVersion, short(r.Suite.Digest), r.Suite.Cases)
	if caps := describeCapabilities(r.Implementation.Capabilities); caps != "" {
		fmt.Fprintf(&b, "Implementation %s %s (%s): %s\n\n", r.Implementation.Name, r.Implementation.Version, r.Implementation.Language, caps)
	}
	// pass counts the right answers (unexpected passes included); fail,
	// what keeps the run from a level (a required unsupported case
	// included); unsupported, the optional cases answered unsupported.
	type row struct{ pass, fail, unsupported, other int }
	rows := map[string]*row{}
	for _, c := range r.Cases {
		g := c.Tier + "/" + c.Stage
		if rows[g] == nil {
			rows[g] = &row{}
		}
		x := rows[g]
		switch {
		case c.Passed():
			x.pass++
		case failsLevel(c):
			x.fail++
		case c.Status == runner.StatusUnsupported:
			x.unsupported++
		default:
			x.other++
		}
	}
	b.WriteString("| tier | stage | pass | fail | unsupported | other |\n|---|---|---:|---:|---:|---:|\n")
	for _, tier := range runner.Tiers {
		for _, st := range runner.Stages {
			if x := rows[tier+"/"+st]; x != nil {
				fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d |\n", tier, st, x.pass, x.fail, x.unsupported, x.other)
			}
		}
	}
	var bad []runner.CaseResult
	notRun := 0
	for _, c := range r.Cases {
		switch {
		case c.Status == runner.StatusNotRun && r.Infrastructure != "":
			notRun++ // one infrastructure error, said once below
		case c.Unexpected() && c.Status != runner.StatusUnsupported:
			bad = append(bad, c)
		}
	}
	if len(bad) > 0 {
		b.WriteString("\n### Unexpected results\n\n| case | status | message |\n|---|---|---|\n")
		for _, c := range bad {
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", c.ID, c.Status, mdEscape(c.Message))
		}
	}
	unsupported := map[string]map[string]int{}
	var reasons []string
	for _, c := range r.Cases {
		if c.Status == runner.StatusUnsupported {
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
			fmt.Fprintf(&b, "| %s | %d | %d |\n", mdEscape(why), unsupported[why][runner.TierRequired], unsupported[why][runner.TierOptional])
		}
	}
	if r.Infrastructure != "" {
		fmt.Fprintf(&b, "\n**Infrastructure error:** %s\n", mdEscape(r.Infrastructure))
		if notRun > 0 {
			fmt.Fprintf(&b, "\n%d cases not run: the run stopped without a verdict.\n", notRun)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mdEscape(s string) string {
	s = strings.ReplaceAll(s, "|", "\\|")
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 300 {
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

// NewBadge returns the shields.io endpoint badge of the report.
func NewBadge(r *runner.Report) Badge {
	b := Badge{SchemaVersion: 1, Label: "cupel " + r.Suite.SpecVersion}
	switch r.Level {
	case runner.LevelFullyConformant:
		b.Message, b.Color = "fully conformant", "brightgreen"
	case runner.LevelConformant:
		b.Message, b.Color = "conformant", "green"
	default:
		pass, total := 0, 0
		for _, c := range r.Cases {
			if c.Tier == runner.TierRequired && c.SuiteError == nil {
				total++
				if c.Passed() {
					pass++
				}
			}
		}
		b.Message, b.Color = fmt.Sprintf("%d/%d required", pass, total), "red"
		switch {
		case r.Infrastructure != "":
			b.Message, b.Color = "no verdict", "lightgrey"
		case r.Filtered:
			b.Message, b.Color = "filtered run", "lightgrey"
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
	ID  string        `json:"id"`
	Old runner.Status `json:"old"`
	New runner.Status `json:"new"`
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
		case o == runner.StatusPass:
			d.NewlyFailing = append(d.NewlyFailing, StatusChange{c.ID, o, c.Status})
		case c.Status == runner.StatusPass:
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
