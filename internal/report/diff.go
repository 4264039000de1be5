package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// ReportDiff compares two reports case by case.
type ReportDiff struct {
	NewlyFailing []OutcomeChange `json:"newly_failing"`
	NewlyPassing []OutcomeChange `json:"newly_passing"`
	Changed      []OutcomeChange `json:"changed"`
	Added        []string        `json:"added"`
	Removed      []string        `json:"removed"`
	OldLevel     runner.Level    `json:"old_level"`
	NewLevel     runner.Level    `json:"new_level"`
}

// OutcomeChange is a case whose outcome changed.
type OutcomeChange struct {
	ID  string           `json:"id"`
	Old protocol.Outcome `json:"old"`
	New protocol.Outcome `json:"new"`
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
		o := oc.Outcome
		switch {
		case !ok:
			d.Added = append(d.Added, c.ID)
		case o == c.Outcome, sameCause(oc, c): // an xfail that is no longer an expected failure, or back, is the same result
		case o == protocol.OutcomePass:
			d.NewlyFailing = append(d.NewlyFailing, OutcomeChange{c.ID, o, c.Outcome})
		case c.Outcome == protocol.OutcomePass:
			d.NewlyPassing = append(d.NewlyPassing, OutcomeChange{c.ID, o, c.Outcome})
		default:
			d.Changed = append(d.Changed, OutcomeChange{c.ID, o, c.Outcome})
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
	section := func(title string, list []OutcomeChange) {
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
