package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/cupel-go/go-cupel/internal/safetext"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// WriteMarkdown writes a Markdown summary rendering the run's
// [runner.Verdict]: the level, a table of outcomes per tier and stage, the
// gated results and warnings, the unsupported reasons and, last, the
// verdict line ([runner.Verdict.Line]).
func WriteMarkdown(w io.Writer, r *runner.Report) error {
	v := r.Verdict()
	class := v.Classes()
	var b strings.Builder
	fmt.Fprintf(&b, "## Cupel conformance: %s\n\n", safetext.Markdown(implementationName(r)))
	if v.LevelClaimed {
		fmt.Fprintf(&b, "**%s** — %s\n\n", v.LevelText, r.LevelReason)
	} else {
		fmt.Fprintf(&b, "**%s**\n\n", v.LevelText) // the text says why
	}
	fmt.Fprintf(&b, "Runner %s %s · spec %s · suite `%s` (%d cases)\n\n", r.Runner.Name, r.Runner.Version, r.Suite.SpecVersion, short(r.Suite.Digest), r.Suite.Cases)
	if lines := requirementSummary(r); lines != nil {
		fmt.Fprintf(&b, "%s.\n\n", strings.Join(lines, "; "))
	}
	if caps := describeCapabilities(r.Implementation.Capabilities); caps != "" {
		fmt.Fprintf(&b, "Implementation %s %s (%s): %s\n\n", safetext.Markdown(r.Implementation.Name), safetext.Markdown(r.Implementation.Version),
			safetext.Markdown(r.Implementation.Language), safetext.Markdown(caps))
	}
	rows := map[string]map[runner.Outcome]int{}
	seen := map[runner.Outcome]bool{protocol.OutcomePass: true, protocol.OutcomeFail: true}
	for _, c := range r.Cases {
		if r.Filtered && c.Outcome == protocol.OutcomeSkip {
			continue // filtered out: a row of them would say "not run" again and again
		}
		g := c.Tier + "/" + c.Stage
		if rows[g] == nil {
			rows[g] = map[runner.Outcome]int{}
		}
		rows[g][c.Outcome]++
		seen[c.Outcome] = true
	}
	var columns []runner.Outcome // pass, fail and the outcomes the run has
	for _, o := range runner.Outcomes {
		if seen[o] {
			columns = append(columns, o)
		}
	}
	b.WriteString("| tier | stage |")
	for _, o := range columns {
		fmt.Fprintf(&b, " %s |", o)
	}
	b.WriteString("\n|---|---|" + strings.Repeat("---:|", len(columns)) + "\n")
	for _, tier := range casefile.Tiers {
		for _, st := range casefile.Stages {
			if x := rows[tier+"/"+st]; x != nil {
				fmt.Fprintf(&b, "| %s | %s |", tier, st)
				for _, o := range columns {
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
			if class[c.ID] == l.class && c.Outcome != protocol.OutcomeUnsupported {
				list = append(list, c)
			}
		}
		if len(list) > 0 {
			fmt.Fprintf(&b, "\n### %s\n\n| case | outcome | requirements | message |\n|---|---|---|---|\n", l.title)
			for _, c := range list {
				fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", c.ID, c.Outcome, markdownIDs(r, c.Requirements), safetext.Markdown(c.Message))
			}
		}
	}
	writeMarkdownRequirements(&b, r)
	unsupported := map[string]map[string]int{}
	var reasons []string
	for _, c := range r.Cases {
		if c.Outcome == protocol.OutcomeNotRun && r.Infrastructure != "" {
			notRun++ // one infrastructure error, said once below
		}
		if c.Outcome == protocol.OutcomeUnsupported {
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
			fmt.Fprintf(&b, "| %s | %d | %d |\n", safetext.Markdown(why), unsupported[why][casefile.TierRequired], unsupported[why][casefile.TierOptional])
		}
	}
	if r.Infrastructure != "" {
		fmt.Fprintf(&b, "\n**Infrastructure error:** %s\n", safetext.Markdown(r.Infrastructure))
		if r.InfrastructureStderr != "" {
			// Implementation text never starts a line of the summary: the
			// tail follows the label on one line (newlines become spaces),
			// escaped as the rest of its text is.
			fmt.Fprintf(&b, "\n**The implementation's stderr (tail):** %s\n", safetext.Markdown(strings.TrimSpace(r.InfrastructureStderr)))
		}
		if notRun > 0 {
			fmt.Fprintf(&b, "\n%s not run: the run stopped without a verdict.\n", casesCount(notRun))
		}
	}
	fmt.Fprintf(&b, "\n%s\n", v.Line())
	_, err := io.WriteString(w, b.String())
	return err
}
