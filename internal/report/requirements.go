package report

import (
	"fmt"
	"strings"

	"github.com/cupel-go/go-cupel/internal/safetext"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
)

// requirementText is what the text, JUnit, TAP and go test -json reports
// say of the requirements a case covers, one line a slice entry: for each
// id, "requirement R26.1 (MUST): the statement" and, indented, its source
// and link; an id the catalogue does not hold (a foreign suite's) alone.
// Ids come from vector files and are cleaned as implementation text is
// (safetext.Line); statements, sources and links from the catalogue.
func requirementText(r *runner.Report, c runner.CaseResult) []string {
	var lines []string
	for _, id := range c.Requirements {
		q, ok := r.Requirement(id)
		if !ok {
			lines = append(lines, "requirement "+safetext.Line(id)+" (not in the requirements catalogue)")
			continue
		}
		lines = append(lines, "requirement "+q.ID+" ("+string(q.Kind)+"): "+safetext.Line(q.Statement),
			"  "+safetext.Line(q.Source())+": "+q.URL())
	}
	return lines
}

// caseDetail is a case's requirements (requirementText) followed by its
// FailureDetail: the body of a gated case in JUnit, TAP and go test -json.
func caseDetail(r *runner.Report, c runner.CaseResult, suite *casefile.Suite) string {
	lines := requirementText(r, c)
	if len(lines) == 0 {
		return FailureDetail(c, suite)
	}
	return strings.Join(lines, "\n") + "\n" + FailureDetail(c, suite)
}

// requirementSummary is what the text report and TAP say of the run's
// requirements, one line a slice entry, without the ids: "14 of 16
// testable requirements met (1 failed, 1 untested)" and what the level
// leaves unchecked; nil when the catalogue has no testable requirement.
func requirementSummary(r *runner.Report) []string {
	q := r.Requirements
	if q == nil || q.Testable == 0 {
		return nil
	}
	lines := []string{q.Summary()}
	if u := q.UncheckedSummary(); u != "" {
		lines = append(lines, u)
	}
	return lines
}

// idList is ids joined by ", ", the first limit of them (0: all) and how
// many more; ids from vector files are cleaned (safetext.Line).
func idList(ids []string, limit int) string {
	shown := ids
	if limit > 0 && len(ids) > limit {
		shown = ids[:limit]
	}
	parts := make([]string, len(shown))
	for i, id := range shown {
		parts[i] = safetext.Line(id)
	}
	s := strings.Join(parts, ", ")
	if len(shown) < len(ids) {
		s += fmt.Sprintf(" … and %d more (see the JSON report)", len(ids)-len(shown))
	}
	return s
}

// markdownIDs are requirement ids for a Markdown table cell, each linked
// to its source when the catalogue holds it; "—" for none.
func markdownIDs(r *runner.Report, ids []string) string {
	if len(ids) == 0 {
		return "—"
	}
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = safetext.Markdown(id)
		if q, ok := r.Requirement(id); ok {
			parts[i] = "[" + q.ID + "](" + q.URL() + ")"
		}
	}
	return strings.Join(parts, ", ")
}

// writeMarkdownRequirements writes the Markdown section of the
// requirements the run failed: each with its kind, statement and linked
// source, and the cases that cover it and did not pass.
func writeMarkdownRequirements(b *strings.Builder, r *runner.Report) {
	q := r.Requirements
	if q == nil || q.Failed.Count == 0 {
		return
	}
	failing := map[string][]string{}
	for _, c := range r.Cases {
		if c.RequirementState() == runner.RequirementFailed {
			for _, id := range c.Requirements {
				failing[id] = append(failing[id], "`"+c.ID+"`")
			}
		}
	}
	fmt.Fprintf(b, "\n### Requirements failed\n\n| requirement | kind | statement | source | failing cases |\n|---|---|---|---|---|\n")
	for _, id := range q.Failed.IDs {
		req, ok := r.Requirement(id)
		if !ok {
			continue // a report read back against another catalogue
		}
		fmt.Fprintf(b, "| %s | %s | %s | [%s](%s) | %s |\n", req.ID, req.Kind, safetext.Markdown(req.Statement),
			safetext.Markdown(req.Source()), req.URL(), strings.Join(failing[id], ", "))
	}
}
