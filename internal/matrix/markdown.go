package matrix

import (
	"cmp"
	"fmt"
	"io"
	"strings"

	"github.com/cupel-go/go-cupel/internal/safetext"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// mdFoldAfter is how many disagreements where nobody fails are shown
// before the rest is folded into a <details> block.
const mdFoldAfter = 20

// WriteMarkdown writes the comparison as GitHub-flavoured Markdown (a job
// summary or a pull-request comment): the level of each implementation, a
// compact stage × implementation matrix of passes, then the cases on
// which they disagree, the failing ones first.
func WriteMarkdown(w io.Writer, m *Matrix) error {
	var b strings.Builder
	names := make([]string, len(m.Implementations)) // as Markdown
	for i, im := range m.Implementations {
		names[i] = safetext.Markdown(im.Name)
	}
	fmt.Fprintf(&b, "## Cupel conformance: %s\n\n", strings.Join(names, " · "))
	fmt.Fprintf(&b, "Runner %s %s · spec %s · suite `%s` (%d cases)\n\n", m.Runner.Name, m.Runner.Version,
		m.Suite.SpecVersion, short(m.Suite.Digest), m.Suite.Cases)
	reqs := false // a column of requirements, when a report judged some
	for _, im := range m.Implementations {
		reqs = reqs || requirementsOf(im) != ""
	}
	b.WriteString("| implementation | level | required | optional |")
	if reqs {
		b.WriteString(" requirements |")
	}
	b.WriteString("\n|---|---|---:|---:|")
	if reqs {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for i, im := range m.Implementations {
		fmt.Fprintf(&b, "| **%s** <br>%s | %s %s | %s | %s |", names[i], safetext.Markdown(describe(im.Info)),
			levelMark(im.Level), levelText(im), fraction(tally(im.Counts[casefile.TierRequired])),
			fraction(tally(im.Counts[casefile.TierOptional])))
		if reqs {
			fmt.Fprintf(&b, " %s |", cmp.Or(requirementsOf(im), "—"))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n| tier | stage |")
	for _, n := range names {
		fmt.Fprintf(&b, " %s |", n)
	}
	b.WriteString("\n|---|---|" + strings.Repeat("---:|", len(names)) + "\n")
	for _, g := range m.Groups {
		tier, stage := splitGroup(g)
		fmt.Fprintf(&b, "| %s | %s |", tier, stage)
		for _, im := range m.Implementations {
			fmt.Fprintf(&b, " %s |", mdCell(tally(im.StageCounts[g])))
		}
		b.WriteString("\n")
	}
	for _, wng := range m.Warnings {
		fmt.Fprintf(&b, "\n> **Warning:** %s\n", safetext.Markdown(wng))
	}
	if len(m.Implementations) > 1 {
		writeMDDisagreements(&b, m, names)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeMDDisagreements(b *strings.Builder, m *Matrix, names []string) {
	if len(m.Disagreements) == 0 {
		fmt.Fprintf(b, "\nThe %d implementations agree on every case.\n", len(m.Implementations))
		return
	}
	fmt.Fprintf(b, "\n### %d %s where they disagree\n\n", len(m.Disagreements), plural(len(m.Disagreements), "case", "cases"))
	head := "| case |"
	for _, n := range names {
		head += " " + n + " |"
	}
	head += "\n|---|" + strings.Repeat("---|", len(names)) + "\n"
	row := func(d Disagreement) {
		fmt.Fprintf(b, "| `%s` |", d.ID)
		for _, im := range m.Implementations {
			s := d.Outcomes[im.Name]
			if failing(s) {
				fmt.Fprintf(b, " ❌ **%s** |", s)
			} else if s == protocol.OutcomePass {
				b.WriteString(" ✅ pass |")
			} else {
				fmt.Fprintf(b, " %s |", s)
			}
		}
		b.WriteString("\n")
	}
	b.WriteString(head)
	shown, folded := 0, false
	for _, d := range m.Disagreements {
		if !d.Failing && shown >= mdFoldAfter && !folded {
			rest := len(m.Disagreements) - shown
			fmt.Fprintf(b, "\n<details><summary>%d more where only what they support differs</summary>\n\n%s", rest, head)
			folded = true
		}
		row(d)
		shown++
	}
	if folded {
		b.WriteString("\n</details>\n")
	}
}

func levelMark(l runner.Level) string {
	switch l {
	case runner.LevelFullyConformant, runner.LevelConformant:
		return "✅"
	}
	return "❌"
}

func levelText(im Summary) string {
	s := "**" + im.Verdict.LevelText + "** (" + im.LevelReason + ")"
	if im.Infrastructure != "" {
		s += "; infrastructure error: " + safetext.Markdown(im.Infrastructure)
	}
	return s + "; " + im.Verdict.Line()
}

func fraction(t Tally) string {
	if t.Total == 0 {
		return "—"
	}
	return fmt.Sprintf("%d/%d", t.Pass, t.Total)
}

// mdCell is "41/41", or "14/41 · 27 unsupported" with the other outcomes.
func mdCell(t Tally) string {
	if t.Total == 0 {
		return "—"
	}
	s := fmt.Sprintf("%d/%d", t.Pass, t.Total)
	for _, o := range t.Other {
		if failing(o.Outcome) {
			s += fmt.Sprintf(" · **%d %s**", o.N, o.Outcome)
		} else {
			s += fmt.Sprintf(" · %d %s", o.N, o.Outcome)
		}
	}
	if t.Pass == t.Total {
		s = "✅ " + s
	}
	return s
}
