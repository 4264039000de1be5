package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/cupel-go/go-cupel/internal/safetext"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// TextOptions configure the human-readable report.
type TextOptions struct {
	// Color adds ANSI colours (the CLI sets it only on a terminal without
	// NO_COLOR).
	Color bool
	// Suite, when set, lets failures show their inputs.
	Suite *casefile.Suite
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

type painter struct{ on bool }

func (p painter) c(code, s string) string {
	if !p.on {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

// PaintOutcome returns text in the terminal colour of outcome s when color is
// true (green for passes, yellow for skips and unsupported cases, red for the
// rest), and text unchanged when it is false.
func PaintOutcome(s protocol.Outcome, text string, color bool) string {
	return painter{color}.c(outcomeColor(s), text)
}

func outcomeColor(s protocol.Outcome) string {
	switch s {
	case protocol.OutcomePass, protocol.OutcomeXFail:
		return "32"
	case protocol.OutcomeSkip, protocol.OutcomeUnsupported, protocol.OutcomeNotRun:
		return "33"
	}
	return "31"
}

// countLine formats the non-zero counts of an outcome map.
func countLine(m map[protocol.Outcome]int) string {
	var parts []string
	for _, s := range protocol.Outcomes {
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
	impl := implementationName(r)
	if r.Implementation.Version != "" {
		impl += " " + r.Implementation.Version
	}
	if r.Implementation.Language != "" {
		impl += " (" + r.Implementation.Language + ")"
	}
	fmt.Fprintf(&b, "implementation: %s\n", safetext.Line(impl))
	if caps := describeCapabilities(r.Implementation.Capabilities); caps != "" {
		fmt.Fprintf(&b, "capabilities: %s\n", safetext.Line(caps))
	}
	if r.Shard.Count > 1 {
		fmt.Fprintf(&b, "shard: %s (a shard claims no level: merge the shards' JSON reports with cupel-conform report merge)\n", r.Shard)
	}
	if f := describeFilters(r.Filters); f != "" {
		fmt.Fprintf(&b, "filters: %s\n", f)
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
		case c.Outcome == protocol.OutcomeUnsupported:
			why := reasonOf(c)
			if unsupported[why] == nil {
				reasons = append(reasons, why)
			}
			unsupported[why] = append(unsupported[why], c.ID)
			if c.Tier == casefile.TierRequired {
				requiredUnsupported[why]++
			}
		case c.Outcome == protocol.OutcomeNotRun && r.Infrastructure != "":
			notRun++ // one infrastructure error, said once below
		case class[c.ID] == runner.ClassGated || class[c.ID] == runner.ClassWarning:
			failing = append(failing, c)
		}
	}
	if full {
		for i, c := range failing {
			if limit > 0 && i >= limit {
				more, noun := len(failing)-limit, "failures"
				if more == 1 {
					noun = "failure"
				}
				fmt.Fprintf(&b, "… and %d more %s (see the JSON report)\n\n", more, noun)
				break
			}
			writeFailure(&b, p, r, c, o.Suite)
		}
	}
	for _, tier := range casefile.Tiers {
		fmt.Fprintf(&b, "%-9s %s\n", tier+":", countLine(r.Counts[tier]))
		for _, st := range casefile.Stages {
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
	if lines := requirementSummary(r); lines != nil {
		q := r.Requirements
		fmt.Fprintf(&b, "\n%s\n", lines[0])
		if q.Failed.Count > 0 {
			fmt.Fprintf(&b, "  %s %s\n", p.c("31", "failed:"), idList(q.Failed.IDs, limit))
		}
		if len(lines) > 1 {
			fmt.Fprintf(&b, "  %s", lines[1])
			if q.Unchecked.Count > 0 {
				fmt.Fprintf(&b, ": %s", idList(q.Unchecked.IDs, limit))
			}
			b.WriteString("\n")
		}
	}
	if len(reasons) > 0 {
		sort.SliceStable(reasons, func(i, j int) bool { return len(unsupported[reasons[i]]) > len(unsupported[reasons[j]]) })
		fmt.Fprintf(&b, "\n%s (%d cases), by reason:\n", p.c(outcomeColor(protocol.OutcomeUnsupported), "unsupported"), r.Counts["all"][protocol.OutcomeUnsupported])
		for i, why := range reasons {
			if limit > 0 && i >= limit {
				fmt.Fprintf(&b, "  … and %d more reasons (see the JSON report)\n", len(reasons)-limit)
				break
			}
			ids := unsupported[why]
			fmt.Fprintf(&b, "  %4d  %s (%d required; %s)\n", len(ids), safetext.Line(why), requiredUnsupported[why], exampleIDs(ids))
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
			fmt.Fprintf(&b, "  %s %s\n", p.c(outcomeColor(c.Outcome), fmt.Sprintf("%-16s", c.Outcome)), c.ID)
		}
	}
	if r.Infrastructure != "" {
		if notRun > 0 {
			fmt.Fprintf(&b, "\n%s not run: the run stopped without a verdict\n", casesCount(notRun))
		}
		fmt.Fprintf(&b, "\n%s %s\n", p.c("31;1", "INFRASTRUCTURE ERROR:"), safetext.Lines(r.Infrastructure, "  "))
		if r.InfrastructureStderr != "" {
			fmt.Fprintf(&b, "stderr:\n%s\n", safetext.Block(r.InfrastructureStderr, "  | "))
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
	switch {
	case f.RerunFailed != "" && f.RerunCases == 1:
		parts = append(parts, "rerunning 1 case from "+f.RerunFailed)
	case f.RerunFailed != "":
		parts = append(parts, fmt.Sprintf("rerunning %d cases from %s", f.RerunCases, f.RerunFailed))
	case f.Run != "":
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
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, " ") + " (a filtered run claims no level)"
}

func short(d string) string {
	if len(d) > 12 {
		return d[:12]
	}
	return d
}

func writeFailure(b *strings.Builder, p painter, r *runner.Report, c runner.CaseResult, suite *casefile.Suite) {
	fmt.Fprintf(b, "%s %s", p.c(outcomeColor(c.Outcome)+";1", strings.ToUpper(string(c.Outcome))), c.ID)
	if c.Name != "" {
		fmt.Fprintf(b, " — %s", c.Name)
	}
	b.WriteString("\n")
	for _, l := range requirementText(r, c) {
		fmt.Fprintf(b, "  %s\n", l)
	}
	writeDetail(b, c, suite)
	b.WriteString("\n")
}
