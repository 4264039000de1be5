package report

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/protocol"
	"github.com/cupel-go/go-cupel/runner/vector"
)

// WriteMarkdown writes a Markdown summary rendering the run's
// [runner.Verdict]: the level, a table of outcomes per tier and stage, the
// gated results and warnings, the unsupported reasons and, last, the
// verdict line ([runner.Verdict.Line]).
func WriteMarkdown(w io.Writer, r *runner.Report) error {
	v := r.Verdict()
	class := v.Classes()
	var b strings.Builder
	fmt.Fprintf(&b, "## Cupel conformance: %s\n\n", MarkdownText(r.Implementation.Name))
	if v.LevelClaimed {
		fmt.Fprintf(&b, "**%s** — %s\n\n", v.LevelText, r.LevelReason)
	} else {
		fmt.Fprintf(&b, "**%s**\n\n", v.LevelText) // the text says why
	}
	fmt.Fprintf(&b, "Runner %s %s · spec %s · suite `%s` (%d cases)\n\n", r.Runner.Name, r.Runner.Version, r.Suite.SpecVersion, short(r.Suite.Digest), r.Suite.Cases)
	if caps := describeCapabilities(r.Implementation.Capabilities); caps != "" {
		fmt.Fprintf(&b, "Implementation %s %s (%s): %s\n\n", MarkdownText(r.Implementation.Name), MarkdownText(r.Implementation.Version),
			MarkdownText(r.Implementation.Language), MarkdownText(caps))
	}
	rows := map[string]map[runner.Outcome]int{}
	for _, c := range r.Cases {
		if r.Filtered && c.Status == protocol.StatusSkip {
			continue // filtered out: a row of them would say "not run" again and again
		}
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
				fmt.Fprintf(&b, "| `%s` | %s | %s |\n", c.ID, c.Status, MarkdownText(c.Message))
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
			fmt.Fprintf(&b, "| %s | %d | %d |\n", MarkdownText(why), unsupported[why][vector.TierRequired], unsupported[why][vector.TierOptional])
		}
	}
	if r.Infrastructure != "" {
		fmt.Fprintf(&b, "\n**Infrastructure error:** %s\n", MarkdownText(r.Infrastructure))
		if notRun > 0 {
			fmt.Fprintf(&b, "\n%d cases not run: the run stopped without a verdict.\n", notRun)
		}
	}
	fmt.Fprintf(&b, "\n%s\n", v.Line())
	_, err := io.WriteString(w, b.String())
	return err
}

// markdownCut is how many bytes of a piece of implementation text the
// Markdown summary shows, before "…".
const markdownCut = 300

// MarkdownText is implementation text for a Markdown report, in the
// middle of one of its lines (a heading, a paragraph or a table cell). It
// is cleaned as the text report cleans it, kept on the line (a newline is
// a space), cut after markdownCut bytes, and every character that could
// start markup there is written as a character reference, which CommonMark
// and GitHub show as the character and never read as syntax:
//
//   - always: & (&amp;), < (&lt;: HTML, comments, autolinks), ` (code
//     spans), * and ~ (emphasis, strikethrough), | (table cells) and $
//     (GitHub's maths);
//   - where it has a meaning: _ unless between two letters or digits
//     (where it cannot open or close emphasis), ] before ( (a link or an
//     image), \ before ASCII punctuation or at the end (it would escape
//     the next character), and # in a run of them that would close a
//     heading (after a space, with nothing but spaces or # after it).
//
// Ordinary text (names, reasons, messages without those characters, "C#",
// "pinned_exceeds_budget", "score of #0", "[1, 2]") is written unchanged.
func MarkdownText(s string) string {
	s = strings.ReplaceAll(cleanText(s), "\n", " ")
	if len(s) > markdownCut {
		i := markdownCut
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		s = s[:i] + "…"
	}
	if !strings.ContainsAny(s, "&<`*~|$_]\\#") {
		return s
	}
	rs := []rune(s)
	at := func(i int) rune {
		if i < 0 || i >= len(rs) {
			return 0
		}
		return rs[i]
	}
	word := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	var b strings.Builder
	for i, r := range rs {
		escape := false
		switch r {
		case '&', '<', '`', '*', '~', '|', '$':
			escape = true
		case '_':
			escape = !word(at(i-1)) || !word(at(i+1))
		case ']':
			escape = at(i+1) == '('
		case '\\':
			next := at(i + 1)
			escape = next == 0 || next < 0x80 && unicode.IsPunct(next) || next < 0x80 && unicode.IsSymbol(next)
		case '#':
			escape = closesHeading(rs, i)
		}
		switch {
		case !escape:
			b.WriteRune(r)
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		default:
			fmt.Fprintf(&b, "&#%d;", r)
		}
	}
	return b.String()
}

// closesHeading reports whether the # at rs[i] is part of the closing
// sequence of an ATX heading if rs ended one: a run of # after a space (or
// at the start) with nothing but spaces, tabs and # after it.
func closesHeading(rs []rune, i int) bool {
	j := i
	for j > 0 && rs[j-1] == '#' {
		j--
	}
	if j > 0 && rs[j-1] != ' ' && rs[j-1] != '\t' {
		return false
	}
	for _, r := range rs[i+1:] {
		if r != '#' && r != ' ' && r != '\t' {
			return false
		}
	}
	return true
}
