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
	// MaxFailures bounds how many failures are shown in full (0: all,
	// negative: none).
	MaxFailures int
}

type painter struct{ on bool }

func (p painter) c(code, s string) string {
	if !p.on {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
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
	shown := 0
	for _, c := range r.Cases {
		if !c.Unexpected() || o.MaxFailures < 0 {
			continue
		}
		if c.Status == runner.StatusUnsupported {
			fmt.Fprintf(&b, "%s %s: %s\n", p.c(statusColor(c.Status), "UNSUPPORTED"), c.ID, c.Message)
			continue
		}
		shown++
		if o.MaxFailures > 0 && shown > o.MaxFailures {
			continue
		}
		writeFailure(&b, p, c, o.Suite)
	}
	if r.Counts["all"][runner.StatusUnsupported] > 0 && o.MaxFailures >= 0 {
		b.WriteString("\n")
	}
	if o.MaxFailures > 0 && shown > o.MaxFailures {
		fmt.Fprintf(&b, "… and %d more unexpected results (see the JSON report)\n\n", shown-o.MaxFailures)
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
	if r.Infrastructure != "" {
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

func describeCapabilities(c runner.Capabilities) string {
	var parts []string
	for _, l := range []struct {
		name string
		list []string
	}{{"stages", c.Stages}, {"scorers", c.Scorers}, {"slicers", c.Slicers}, {"placers", c.Placers}, {"features", c.Features}} {
		if len(l.list) > 0 {
			parts = append(parts, l.name+" "+strings.Join(l.list, ","))
		}
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
		if cs := suite.Case(c.ID); cs != nil && (c.Status == runner.StatusFail || c.Status == runner.StatusUnexpectedPass) {
			b.WriteString("  inputs:\n")
			writeInputs(b, cs)
			if c.Actual != nil && c.Actual.Output != nil && c.Actual.Output.Diagnostics != nil && cs.Expect.Diagnostics == nil {
				d := c.Actual.Output.Diagnostics
				b.WriteString("  actual selection report:\n")
				for _, e := range d.Included {
					fmt.Fprintf(b, "    included %s\n", describeEntry(cs, e))
				}
				for _, e := range d.Excluded {
					fmt.Fprintf(b, "    excluded %s\n", describeEntry(cs, e))
				}
			}
		}
	}
	if c.Stderr != "" {
		fmt.Fprintf(b, "  stderr (tail):\n%s\n", indent(c.Stderr, "    | "))
	}
	b.WriteString("\n")
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

// JUnit XML structures.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Error     *junitMessage `xml:"error,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	SystemErr string        `xml:"system-err,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Body    string `xml:",chardata"`
}

// WriteJUnit writes the report as JUnit XML, one testsuite per tier and
// stage. Failures and unexpected passes are failures; errors, crashes,
// timeouts and not-run cases are errors; skips, xfails and unsupported
// cases are skipped.
func WriteJUnit(w io.Writer, r *runner.Report) error {
	out := junitSuites{Name: "cupel-conform " + r.Implementation.Name, Time: fmt.Sprintf("%.3f", secondsOf(r.Duration))}
	groups := map[string]*junitSuite{}
	var order []string
	for _, c := range r.Cases {
		g := c.Tier + "/" + c.Stage
		s := groups[g]
		if s == nil {
			s = &junitSuite{Name: g}
			groups[g] = s
			order = append(order, g)
		}
		jc := junitCase{Name: c.ID, Classname: strings.ReplaceAll(g, "/", "."), Time: fmt.Sprintf("%.3f", time.Duration(c.Duration).Seconds()), SystemErr: c.Stderr}
		body := strings.Join(c.Details, "\n")
		switch c.Status {
		case runner.StatusFail, runner.StatusUnexpectedPass:
			jc.Failure = &junitMessage{Message: c.Message, Type: string(c.Status), Body: body}
			s.Failures++
		case runner.StatusError, runner.StatusCrash, runner.StatusTimeout, runner.StatusNotRun:
			jc.Error = &junitMessage{Message: c.Message, Type: string(c.Status), Body: body}
			s.Errors++
		case runner.StatusSkip, runner.StatusXFail, runner.StatusUnsupported:
			jc.Skipped = &junitMessage{Message: string(c.Status) + ": " + c.Message}
			s.Skipped++
		}
		s.Tests++
		s.Cases = append(s.Cases, jc)
	}
	sort.Strings(order)
	for i, g := range order {
		s := groups[g]
		if i == 0 {
			s.Properties = []junitProperty{{"runner", r.Runner.Name + " " + r.Runner.Version},
				{"spec_version", r.Suite.SpecVersion}, {"suite_digest", r.Suite.Digest}, {"level", string(r.Level)}}
		}
		out.Suites = append(out.Suites, *s)
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Errors += s.Errors
		out.Skipped += s.Skipped
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

func secondsOf(d runner.Seconds) float64 { return time.Duration(d).Seconds() }

// WriteTAP writes the report as TAP version 14. Skips, unsupported and
// not-run cases are "# SKIP", expected failures "# TODO".
func WriteTAP(w io.Writer, r *runner.Report) error {
	var b strings.Builder
	b.WriteString("TAP version 14\n")
	fmt.Fprintf(&b, "1..%d\n", len(r.Cases))
	for i, c := range r.Cases {
		ok := "ok"
		directive := ""
		switch c.Status {
		case runner.StatusPass:
		case runner.StatusSkip, runner.StatusUnsupported, runner.StatusNotRun:
			directive = " # SKIP " + string(c.Status) + oneLine(c.Message)
		case runner.StatusXFail:
			ok = "not ok"
			directive = " # TODO " + oneLine(c.Message)
		default:
			ok = "not ok"
		}
		fmt.Fprintf(&b, "%s %d - %s%s\n", ok, i+1, c.ID, directive)
		if ok == "not ok" && c.Status != runner.StatusXFail {
			b.WriteString("  ---\n")
			fmt.Fprintf(&b, "  status: %s\n", c.Status)
			fmt.Fprintf(&b, "  message: %s\n", yamlString(c.Message))
			if len(c.Details) > 0 {
				b.WriteString("  details: |\n")
				for _, d := range c.Details {
					for _, l := range strings.Split(d, "\n") {
						fmt.Fprintf(&b, "    %s\n", l)
					}
				}
			}
			b.WriteString("  ...\n")
		}
	}
	fmt.Fprintf(&b, "# level: %s (%s)\n", r.Level, r.LevelReason)
	_, err := io.WriteString(w, b.String())
	return err
}

func oneLine(s string) string {
	if s == "" {
		return ""
	}
	s = strings.ReplaceAll(s, "\n", " ")
	s = strings.ReplaceAll(s, "#", "\\#")
	return ": " + s
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
	fmt.Fprintf(&b, "Runner %s %s · spec %s · suite `%s` (%d cases)\n\n", r.Runner.Name, r.Runner.Version, r.Suite.SpecVersion, short(r.Suite.Digest), r.Suite.Cases)
	if caps := describeCapabilities(r.Implementation.Capabilities); caps != "" {
		fmt.Fprintf(&b, "Implementation %s %s (%s): %s\n\n", r.Implementation.Name, r.Implementation.Version, r.Implementation.Language, caps)
	}
	b.WriteString("| tier | stage | pass | fail | other |\n|---|---|---:|---:|---:|\n")
	for _, tier := range runner.Tiers {
		for _, st := range runner.Stages {
			m := r.StageCounts[tier+"/"+st]
			if m == nil {
				continue
			}
			total := 0
			for _, n := range m {
				total += n
			}
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %d |\n", tier, st, m[runner.StatusPass], m[runner.StatusFail], total-m[runner.StatusPass]-m[runner.StatusFail])
		}
	}
	var bad []runner.CaseResult
	for _, c := range r.Cases {
		if c.Unexpected() {
			bad = append(bad, c)
		}
	}
	if len(bad) > 0 {
		b.WriteString("\n### Unexpected results\n\n| case | status | message |\n|---|---|---|\n")
		for _, c := range bad {
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", c.ID, c.Status, mdEscape(c.Message))
		}
	}
	if r.Infrastructure != "" {
		fmt.Fprintf(&b, "\n**Infrastructure error:** %s\n", mdEscape(r.Infrastructure))
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
			if c.Tier == runner.TierRequired {
				total++
				if c.Status == runner.StatusPass {
					pass++
				}
			}
		}
		b.Message, b.Color = fmt.Sprintf("%d/%d required", pass, total), "red"
		if r.Filtered {
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
	prev := map[string]runner.Status{}
	for _, c := range old.Cases {
		prev[c.ID] = c.Status
	}
	seen := map[string]bool{}
	for _, c := range new.Cases {
		seen[c.ID] = true
		o, ok := prev[c.ID]
		switch {
		case !ok:
			d.Added = append(d.Added, c.ID)
		case o == c.Status:
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

// WriteDiff writes a diff for humans.
func WriteDiff(w io.Writer, d ReportDiff) error {
	var b strings.Builder
	fmt.Fprintf(&b, "level: %s -> %s\n", d.OldLevel, d.NewLevel)
	section := func(title string, list []StatusChange) {
		if len(list) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n%s (%d):\n", title, len(list))
		for _, c := range list {
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
			for _, id := range slices.Sorted(slices.Values(l.list)) {
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

// describeEntry shows an included or excluded entry of an implementation's
// selection report; the index may be out of range (it is the
// implementation's answer).
func describeEntry(c *runner.Case, e runner.ReportEntry) string {
	content := "?"
	if e.Index >= 0 && e.Index < len(c.Input.Items) {
		content = c.Input.Items[e.Index].Content
	}
	var fields []string
	for k, val := range e.Reason {
		if k != "reason" {
			fields = append(fields, fmt.Sprintf("%s=%v", k, val))
		}
	}
	sort.Strings(fields)
	f := ""
	if len(fields) > 0 {
		f = " (" + strings.Join(fields, ", ") + ")"
	}
	return fmt.Sprintf("#%d %q score=%v %v%s", e.Index, content, float64(e.Score), e.Reason["reason"], f)
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
