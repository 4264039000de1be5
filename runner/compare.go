package runner

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// Comparison is the comparator's outcome on one result, with what it
// found.
type Comparison struct {
	Outcome protocol.Outcome `json:"outcome"`
	// Message is a one-line summary (empty on pass).
	Message string `json:"message,omitempty"`
	// Details are the lines of a diff: expected vs actual, per item.
	Details []string `json:"details,omitempty"`
}

func (v *Comparison) failf(format string, args ...any) {
	v.Outcome = protocol.OutcomeFail
	v.Details = append(v.Details, fmt.Sprintf(format, args...))
}

// Compare judges an implementation's result for c.
func Compare(c *casefile.Case, r protocol.Result) Comparison {
	v := Comparison{Outcome: protocol.OutcomePass}
	exp := &c.Expect
	wantKind := exp.Error
	if exp.ConstructionError {
		wantKind = casefile.KindInvalidConfig
	}
	switch r.Kind {
	case protocol.ResultUnsupported:
		reason := r.Reason
		if reason == "" {
			reason = "(no reason given)"
		}
		return Comparison{Outcome: protocol.OutcomeUnsupported, Message: reason}
	case protocol.ResultError:
		return Comparison{Outcome: protocol.OutcomeError, Message: "implementation error: " + r.Error.Text()}
	case protocol.ResultRejected:
		got := ""
		if r.Error != nil {
			got = r.Error.Kind
		}
		if wantKind == "" {
			return Comparison{Outcome: protocol.OutcomeFail, Message: "rejected unexpectedly: " + r.Error.Text(),
				Details: []string{"expected: a successful run", "actual:   rejected with " + r.Error.Text()}}
		}
		if got != wantKind {
			return Comparison{Outcome: protocol.OutcomeFail, Message: fmt.Sprintf("rejected with %s, want %s", got, wantKind),
				Details: []string{"expected: rejected with " + wantKind, "actual:   rejected with " + r.Error.Text()}}
		}
		return v
	case protocol.ResultOK:
	default:
		return Comparison{Outcome: protocol.OutcomeError, Message: fmt.Sprintf("invalid result status %q", r.Kind)}
	}
	if wantKind != "" {
		what := "the run to fail with " + wantKind
		if exp.ConstructionError {
			what = "construction to fail (" + casefile.KindInvalidConfig + ")"
		}
		return Comparison{Outcome: protocol.OutcomeFail, Message: "expected " + what + ", got ok",
			Details: []string{"expected: " + what, "actual:   ok"}}
	}
	out := r.Output
	if out == nil {
		out = &protocol.Output{}
	}
	n := len(c.Input.Items)
	switch c.Stage {
	case casefile.StageScoring:
		compareScores(c, out, &v)
	case casefile.StageSlicing:
		if checkIndices("selected", out.Selected, n, &v) {
			compareMultiset(c, out.Selected, &v)
		}
		compareCounts(c, out, out.Shortfalls, &v)
	case casefile.StagePlacing:
		if checkIndices("ordered", out.Ordered, n, &v) {
			compareOrdered("output", c, exp.Ordered, out.Ordered, &v)
		}
	case casefile.StagePipeline:
		if checkIndices("ordered", out.Ordered, n, &v) {
			compareOrdered("output", c, exp.Ordered, out.Ordered, &v)
		}
		sf := out.Shortfalls
		if sf == nil && out.Diagnostics != nil {
			sf = out.Diagnostics.Shortfalls
		}
		compareCounts(c, out, sf, &v)
		if exp.Overflow != nil {
			switch {
			case out.Overflow == nil:
				v.failf("overflow: expected an OverflowEvent with tokens_over_budget = %d, got none", exp.Overflow.TokensOverBudget)
			case out.Overflow.TokensOverBudget != exp.Overflow.TokensOverBudget:
				v.failf("overflow: tokens_over_budget = %d, want %d", out.Overflow.TokensOverBudget, exp.Overflow.TokensOverBudget)
			}
		}
		if exp.Diagnostics != nil {
			compareDiagnostics(c, out.Diagnostics, &v)
		}
		if exp.ReportShortfalls != nil {
			switch {
			case out.Diagnostics == nil:
				v.failf("count_requirement_shortfalls: the result has no selection report (diagnostics), want %v", exp.ReportShortfalls)
			case !slices.Equal(exp.ReportShortfalls, out.Diagnostics.Shortfalls):
				v.failf("count_requirement_shortfalls differ (in order): expected %v, got %v", exp.ReportShortfalls, out.Diagnostics.Shortfalls)
			}
		}
	}
	if v.Outcome == protocol.OutcomeFail && v.Message == "" {
		// Details hold problems, each followed by indented lines of diff.
		problems := 0
		for _, d := range v.Details {
			if !strings.HasPrefix(d, " ") {
				problems++
			}
		}
		v.Message = v.Details[0] + moreProblems(problems-1)
	}
	return v
}

// moreProblems is what a one-line message adds for the n problems it
// leaves out: " (and 1 more problem)", " (and n more problems)", or ""
// when n is 0.
func moreProblems(n int) string {
	switch {
	case n <= 0:
		return ""
	case n == 1:
		return " (and 1 more problem)"
	}
	return fmt.Sprintf(" (and %d more problems)", n)
}

func checkIndices(what string, idx []int, n int, v *Comparison) bool {
	var buf [256]bool // seen, without an allocation for most cases
	seen := buf[:]
	if n > len(buf) {
		seen = make([]bool, n)
	}
	for _, i := range idx {
		if i < 0 || i >= n {
			v.failf("%s: index %d is out of range (%d items)", what, i, n)
			return false
		}
		if seen[i] {
			v.failf("%s: index %d appears twice", what, i)
			return false
		}
		seen[i] = true
	}
	return true
}

// ScoresMatch is the spec's epsilon comparison, extended to non-finite
// expectations: NaN matches NaN, an infinity matches the same infinity.
func ScoresMatch(actual, expected, epsilon float64) bool {
	if math.IsNaN(expected) || math.IsInf(expected, 0) {
		return actual == expected || (math.IsNaN(actual) && math.IsNaN(expected))
	}
	return math.Abs(actual-expected) < epsilon
}

func compareScores(c *casefile.Case, out *protocol.Output, v *Comparison) {
	got := map[int]float64{}
	for _, s := range out.Scores {
		if s.Index < 0 || s.Index >= len(c.Input.Items) {
			v.failf("scores: index %d is out of range (%d items)", s.Index, len(c.Input.Items))
			return
		}
		if _, dup := got[s.Index]; dup {
			v.failf("scores: index %d appears twice", s.Index)
			return
		}
		got[s.Index] = float64(s.Score)
	}
	for _, e := range c.Expect.Scores {
		a, ok := got[e.Resolved]
		switch {
		case !ok:
			v.failf("score of #%d %q: missing, want %v", e.Resolved, e.Content, e.Score)
		case !ScoresMatch(a, float64(e.Score), c.Expect.Epsilon):
			v.failf("score of #%d %q: got %v, want %v (delta %.3g, epsilon %g)", e.Resolved, e.Content, a, e.Score, math.Abs(a-float64(e.Score)), c.Expect.Epsilon)
		}
	}
}

func contentsOf(c *casefile.Case, idx []int) []string {
	out := make([]string, len(idx))
	for i, x := range idx {
		out[i] = c.Input.Items[x].Content
	}
	return out
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func compareMultiset(c *casefile.Case, selected []int, v *Comparison) {
	want := map[string]int{}
	var wantIdx []int
	for _, r := range c.Expect.Selected {
		if r.Index != nil {
			wantIdx = append(wantIdx, *r.Index)
			continue
		}
		want[r.Content]++
	}
	got := map[string]int{}
	for _, i := range selected {
		if slices.Contains(wantIdx, i) {
			continue
		}
		got[c.Input.Items[i].Content]++
	}
	var missing, extra []string
	for _, i := range wantIdx {
		if !slices.Contains(selected, i) {
			missing = append(missing, fmt.Sprintf("#%d", i))
		}
	}
	if len(missing) == 0 && maps.Equal(want, got) {
		return // the common case: nothing to list
	}
	keys := map[string]bool{}
	for k := range want {
		keys[k] = true
	}
	for k := range got {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		for d := got[k] - want[k]; d > 0; d-- {
			extra = append(extra, k)
		}
		for d := want[k] - got[k]; d > 0; d-- {
			missing = append(missing, k)
		}
	}
	if len(missing)+len(extra) == 0 {
		return
	}
	wantList := make([]string, len(c.Expect.Selected))
	for i, r := range c.Expect.Selected {
		wantList[i] = r.Content
	}
	v.failf("selection differs (as a set): expected %s, got %s", quoteList(wantList), quoteList(contentsOf(c, selected)))
	if len(missing) > 0 {
		v.Details = append(v.Details, "  - missing:    "+quoteList(missing))
	}
	if len(extra) > 0 {
		v.Details = append(v.Details, "  + unexpected: "+quoteList(extra))
	}
}

func refMatches(c *casefile.Case, r casefile.Ref, idx int) bool {
	if r.Index != nil {
		return *r.Index == idx
	}
	return c.Input.Items[idx].Content == r.Content
}

func refName(r casefile.Ref) string {
	if r.Index != nil {
		return fmt.Sprintf("#%d %q", *r.Index, r.Content)
	}
	return fmt.Sprintf("%q", r.Content)
}

// longOrder is the length above which an ordering failure's message gives
// the lists' sizes instead of the lists.
const longOrder = 12

func compareOrdered(what string, c *casefile.Case, want []casefile.Ref, got []int, v *Comparison) {
	ok := len(want) == len(got)
	first := -1
	for i := 0; i < len(want) && i < len(got); i++ {
		if !refMatches(c, want[i], got[i]) {
			ok = false
			if first < 0 {
				first = i
			}
		}
	}
	if ok {
		return
	}
	if first < 0 {
		first = min(len(want), len(got))
	}
	if max(len(want), len(got)) > longOrder {
		// The lists in full would be a line of thousands of characters
		// before the diff: the message gives their sizes, the diff leads.
		v.failf("%s differs (in order): %d items expected, %d got; first difference at position %d", what, len(want), len(got), first)
	} else {
		wantList := make([]string, len(want))
		for i, r := range want {
			wantList[i] = r.Content
		}
		v.failf("%s differs (in order): expected %s, got %s", what, quoteList(wantList), quoteList(contentsOf(c, got)))
		v.Details = append(v.Details, fmt.Sprintf("  first difference at position %d", first))
	}
	// Show the positions around the first difference, at most 40 rows.
	from := max(0, first-5)
	to := min(max(len(want), len(got)), from+40)
	for i := from; i < to; i++ {
		e, a := "-", "-"
		if i < len(want) {
			e = refName(want[i])
		}
		if i < len(got) {
			a = fmt.Sprintf("#%d %q", got[i], c.Input.Items[got[i]].Content)
		}
		mark := " "
		if i >= len(want) || i >= len(got) || !refMatches(c, want[i], got[i]) {
			mark = "!"
		}
		v.Details = append(v.Details, fmt.Sprintf("  %s %2d  expected %-24s actual %s", mark, i, e, a))
	}
}

func compareCounts(c *casefile.Case, out *protocol.Output, shortfalls []casefile.Shortfall, v *Comparison) {
	exp := &c.Expect
	if exp.ShortfallCount != nil && len(shortfalls) != *exp.ShortfallCount {
		v.failf("shortfalls: %d recorded, want %d (%v)", len(shortfalls), *exp.ShortfallCount, shortfalls)
	}
	if exp.CapExcludedCount != nil {
		switch {
		case out.CapExcludedCount == nil:
			v.failf("cap_excluded_count: not reported, want %d", *exp.CapExcludedCount)
		case *out.CapExcludedCount != *exp.CapExcludedCount:
			v.failf("cap_excluded_count: %d, want %d", *out.CapExcludedCount, *exp.CapExcludedCount)
		}
	}
	if exp.Shortfalls != nil && !slices.Equal(exp.Shortfalls, shortfalls) {
		v.failf("shortfalls differ (in order): expected %v, got %v", exp.Shortfalls, shortfalls)
	}
}

func compareDiagnostics(c *casefile.Case, d *protocol.Diagnostics, v *Comparison) {
	exp := c.Expect.Diagnostics
	if d == nil {
		v.failf("diagnostics: expected a selection report, got none")
		return
	}
	if exp.TotalCandidates != nil && d.TotalCandidates != *exp.TotalCandidates {
		v.failf("diagnostics: total_candidates = %d, want %d", d.TotalCandidates, *exp.TotalCandidates)
	}
	if exp.TotalTokensConsidered != nil && d.TotalTokensConsidered != *exp.TotalTokensConsidered {
		v.failf("diagnostics: total_tokens_considered = %d, want %d", d.TotalTokensConsidered, *exp.TotalTokensConsidered)
	}
	if exp.Included != nil {
		compareEntries(c, "included", exp.Included, d.Included, v)
	}
	if exp.Excluded != nil {
		compareEntries(c, "excluded", exp.Excluded, d.Excluded, v)
	}
}

// DescribeItem renders e for people: its index, the content of the item it
// names in c ("?" when the index is out of range, since e is an
// implementation's answer), its score, and its reason with the reason's
// fields in name order. Diffs and reports show entries this way.
func DescribeItem(e protocol.DiagnosticItem, c *casefile.Case) string {
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
	return fmt.Sprintf("#%d %q score=%v %v%s", e.Index, content, e.Score, e.Reason["reason"], fieldList(fields))
}

func describeExpected(e casefile.ExpectedDiagnosticItem) string {
	var fields []string
	for k, val := range e.Fields {
		fields = append(fields, fmt.Sprintf("%s=%v", k, val))
	}
	s := "score=?"
	if e.Score != nil {
		s = fmt.Sprintf("score=%v", float64(*e.Score))
	}
	return fmt.Sprintf("%s %s %s%s", refName(e.Ref), s, e.Reason, fieldList(fields))
}

// fieldList formats reason fields as " (a=1, b=2)", sorted, or "".
func fieldList(fields []string) string {
	if len(fields) == 0 {
		return ""
	}
	sort.Strings(fields)
	return " (" + strings.Join(fields, ", ") + ")"
}

func compareEntries(c *casefile.Case, what string, want []casefile.ExpectedDiagnosticItem, got []protocol.DiagnosticItem, v *Comparison) {
	var problems []string
	if len(want) != len(got) {
		problems = append(problems, fmt.Sprintf("%d entries, want %d", len(got), len(want)))
	}
	for i := 0; i < len(want) && i < len(got); i++ {
		e, a := want[i], got[i]
		if a.Index < 0 || a.Index >= len(c.Input.Items) {
			problems = append(problems, fmt.Sprintf("[%d] index %d is out of range", i, a.Index))
			continue
		}
		var diffs []string
		if !refMatches(c, e.Ref, a.Index) {
			diffs = append(diffs, "item")
		}
		if e.Score != nil && !ScoresMatch(float64(a.Score), float64(*e.Score), c.Expect.Epsilon) {
			diffs = append(diffs, "score")
		}
		if name, _ := a.Reason["reason"].(string); name != e.Reason {
			diffs = append(diffs, "reason")
		}
		for k, f := range e.Fields {
			if !fieldEqual(a.Reason[k], f) {
				// Name the fields that differ in order (rarely: sorting
				// the keys of every entry is a tenth of a comparison).
				for _, k := range slices.Sorted(maps.Keys(e.Fields)) {
					if !fieldEqual(a.Reason[k], e.Fields[k]) {
						diffs = append(diffs, k)
					}
				}
				break
			}
		}
		if len(diffs) > 0 {
			problems = append(problems, fmt.Sprintf("[%d] %s differ: expected %s, actual %s", i, strings.Join(diffs, ", "), describeExpected(e), DescribeItem(a, c)))
		}
	}
	if len(problems) == 0 {
		return
	}
	v.failf("diagnostics %s differ (in order, in full): %s", what, problems[0])
	for _, p := range problems[1:min(len(problems), 20)] {
		v.Details = append(v.Details, "  "+p)
	}
	for i := 0; i < min(max(len(want), len(got)), 40); i++ {
		e, a := "-", "-"
		if i < len(want) {
			e = describeExpected(want[i])
		}
		if i < len(got) {
			a = DescribeItem(got[i], c)
		}
		v.Details = append(v.Details, fmt.Sprintf("  %2d  expected %s\n      actual   %s", i, e, a))
	}
}

func fieldEqual(actual, want any) bool {
	switch a := actual.(type) {
	case casefile.Float:
		actual = float64(a)
	case string:
		// A non-finite float arrives as its string form.
		if _, isFloat := want.(float64); isFloat {
			var f casefile.Float
			if err := f.UnmarshalJSON([]byte(strconv.Quote(a))); err == nil {
				actual = float64(f)
			}
		}
	}
	switch w := want.(type) {
	case int64:
		switch a := actual.(type) {
		case float64:
			return a == float64(w)
		case int64:
			return a == w
		case int:
			return int64(a) == w
		}
		return false
	case float64:
		switch a := actual.(type) {
		case float64:
			return a == w || (math.IsNaN(a) && math.IsNaN(w))
		case int64:
			return float64(a) == w
		case int:
			return float64(a) == w
		}
		return false
	case string:
		a, ok := actual.(string)
		return ok && a == w
	}
	return false
}
