package matrix

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/cupel-go/go-cupel/internal/safetext"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// TextOptions configure WriteText.
type TextOptions struct {
	// MaxCases bounds how many cases each group of disagreements lists
	// (0: all, negative: none, only the groups and their sizes).
	MaxCases int
}

// WriteText writes the comparison for a terminal: a header, the level of
// each implementation, a tier/stage × implementation table of passes, and
// the cases on which they disagree, grouped by who got which status.
func WriteText(w io.Writer, m *Matrix, o TextOptions) error {
	var b strings.Builder
	writeHeader(&b, m)
	b.WriteString("\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, im := range m.Implementations {
		fmt.Fprintf(tw, "%s\t%s\t(%s)\t%s\n", safetext.Line(im.Name), im.Verdict.LevelText, im.LevelReason, safetext.Line(describe(im.Info)))
	}
	tw.Flush()
	for _, im := range m.Implementations {
		if q := requirementsOf(im); q != "" {
			fmt.Fprintf(&b, "%s: %s\n", safetext.Line(im.Name), q)
		}
	}
	for _, im := range m.Implementations {
		if im.Infrastructure != "" {
			fmt.Fprintf(&b, "%s: INFRASTRUCTURE ERROR: %s\n", safetext.Line(im.Name), safetext.Lines(im.Infrastructure, "  "))
		}
	}
	b.WriteString("\n")
	tw = tabwriter.NewWriter(&b, 0, 0, 3, ' ', 0)
	for _, im := range m.Implementations {
		fmt.Fprintf(tw, "\t%s", safetext.Line(im.Name))
	}
	fmt.Fprint(tw, "\n")
	for _, tier := range tiersOf(m) {
		fmt.Fprint(tw, tier)
		for _, im := range m.Implementations {
			fmt.Fprintf(tw, "\t%s", cellText(tally(im.Counts[tier])))
		}
		fmt.Fprint(tw, "\n")
		for _, g := range m.Groups {
			t, st := splitGroup(g)
			if t != tier {
				continue
			}
			fmt.Fprintf(tw, "  %s", st)
			for _, im := range m.Implementations {
				fmt.Fprintf(tw, "\t%s", cellText(tally(im.StageCounts[g])))
			}
			fmt.Fprint(tw, "\n")
		}
	}
	tw.Flush()
	for _, wng := range m.Warnings {
		fmt.Fprintf(&b, "\nwarning: %s", safetext.Line(wng))
	}
	if len(m.Warnings) > 0 {
		b.WriteString("\n")
	}
	if len(m.Implementations) > 1 {
		writeDisagreements(&b, m, o)
	}
	writeRequired(&b, m)
	_, err := io.WriteString(w, b.String())
	return err
}

func writeHeader(b *strings.Builder, m *Matrix) {
	fmt.Fprintf(b, "%s %s · spec %s · suite %s (%d cases, sha256 %s)\n", m.Runner.Name, m.Runner.Version,
		m.Suite.SpecVersion, m.Suite.Source, m.Suite.Cases, short(m.Suite.Digest))
}

// describe is "name version (language)" of an implementation's hello.
func describe(in protocol.Identity) string {
	s := in.Name
	if s == "" {
		s = "(unknown)"
	}
	if in.Version != "" {
		s += " " + in.Version
	}
	if in.Language != "" {
		s += " (" + in.Language + ")"
	}
	return s
}

// tiersOf lists the tiers of the groups, in order.
func tiersOf(m *Matrix) []string {
	var out []string
	for _, g := range m.Groups {
		t, _ := splitGroup(g)
		if len(out) == 0 || out[len(out)-1] != t {
			out = append(out, t)
		}
	}
	return out
}

// cellText is "pass/total", then the other statuses: "14/41 (27 unsupported)".
func cellText(t Tally) string {
	if t.Total == 0 {
		return "—"
	}
	s := fmt.Sprintf("%d/%d", t.Pass, t.Total)
	if len(t.Other) > 0 {
		parts := make([]string, len(t.Other))
		for i, o := range t.Other {
			parts[i] = fmt.Sprintf("%d %s", o.N, o.Status)
		}
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	return s
}

// group is a set of disagreements with the same status per implementation.
type group struct {
	signature string
	failing   bool
	cases     []Disagreement
}

// groupDisagreements groups the disagreements by signature ("pass:
// go-cupel · fail: python"), failing groups first, each group where its
// first case is.
func groupDisagreements(m *Matrix) []*group {
	var out []*group
	idx := map[string]*group{}
	for _, d := range m.Disagreements {
		sig := signature(m, d)
		g := idx[sig]
		if g == nil {
			g = &group{signature: sig, failing: d.Failing}
			idx[sig] = g
			out = append(out, g)
		}
		g.cases = append(g.cases, d)
	}
	return out
}

// signature lists, per status in report order, who got it.
func signature(m *Matrix, d Disagreement) string {
	var parts []string
	for _, s := range append(append([]protocol.Status{}, protocol.Statuses...), StatusAbsent) {
		var who []string
		for _, im := range m.Implementations {
			if d.Statuses[im.Name] == s {
				who = append(who, im.Name)
			}
		}
		if len(who) > 0 {
			parts = append(parts, string(s)+": "+strings.Join(who, ", "))
		}
	}
	return strings.Join(parts, " · ")
}

// firstProblem is "name: message" of the first implementation with a
// failing status on the case, for a one-line hint.
func firstProblem(m *Matrix, c *Case) string {
	for i, r := range c.Results {
		if r != nil && failing(r.Status) {
			msg := r.Message
			if j := strings.IndexByte(msg, '\n'); j >= 0 {
				msg = msg[:j]
			}
			if r := []rune(msg); len(r) > 100 {
				msg = string(r[:100]) + "…"
			}
			return m.Implementations[i].Name + ": " + msg
		}
	}
	return ""
}

func writeDisagreements(b *strings.Builder, m *Matrix, o TextOptions) {
	if len(m.Disagreements) == 0 {
		fmt.Fprintf(b, "\nthe %d implementations agree on every case\n", len(m.Implementations))
		return
	}
	nf := 0
	for _, d := range m.Disagreements {
		if d.Failing {
			nf++
		}
	}
	fmt.Fprintf(b, "\n%d %s where they disagree (%d where one fails):\n", len(m.Disagreements), plural(len(m.Disagreements), "case", "cases"), nf)
	for _, g := range groupDisagreements(m) {
		fmt.Fprintf(b, "  %s (%d %s)\n", safetext.Line(g.signature), len(g.cases), plural(len(g.cases), "case", "cases"))
		if o.MaxCases < 0 {
			continue
		}
		tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
		for i, d := range g.cases {
			if o.MaxCases > 0 && i == o.MaxCases {
				tw.Flush()
				fmt.Fprintf(b, "    … and %d more\n", len(g.cases)-i)
				break
			}
			if p := firstProblem(m, d.Case); p != "" {
				fmt.Fprintf(tw, "    %s\t%s\n", d.ID, safetext.Line(p))
			} else {
				fmt.Fprintf(tw, "    %s\n", d.ID)
			}
		}
		tw.Flush()
	}
}

// writeRequired ends the text with each implementation's verdict line.
func writeRequired(b *strings.Builder, m *Matrix) {
	b.WriteString("\n")
	for _, im := range m.Implementations {
		fmt.Fprintf(b, "%s: %s\n", safetext.Line(im.Name), im.Verdict.Line())
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
