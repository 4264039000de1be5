package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// WriteTAP writes the report as TAP version 14, rendering the run's
// [runner.Verdict]: one test point per case and, when the run has a target
// level, a last one, "conformance level", that fails exactly when the level
// misses the target. A gated case is "not ok", with a YAML block holding
// the message, the inputs and the diff; a warning is "not ok # TODO" (known,
// not counted), as is an expected failure that does not count; a case not
// run is "ok # SKIP". A run that stopped without a verdict ends with one
// "not ok" point, "infrastructure", holding the error and the
// implementation's stderr tail, instead of "conformance level". suite,
// when set, lets failures show their inputs.
func WriteTAP(w io.Writer, r *runner.Report, suite *casefile.Suite) error {
	v := r.Verdict()
	class := v.Classes()
	exists, levelOK, why := levelTest(r, v)
	infra := r.Infrastructure != ""
	n := len(r.Cases)
	if exists || infra {
		n++ // never both
	}
	b := bufio.NewWriter(w) // streamed: the document is never held whole
	b.WriteString("TAP version 14\n")
	fmt.Fprintf(b, "1..%d\n", n)
	for i, c := range r.Cases {
		ok := "ok"
		directive := ""
		yaml := false
		switch class[c.ID] {
		case runner.ClassGated:
			ok, yaml = "not ok", true
		case runner.ClassWarning:
			ok = "not ok"
			directive = " # TODO " + tapEscape(warningMessage(c, v))
		case runner.ClassOK:
			if c.Ran() {
				if c.Outcome == protocol.OutcomeXFail {
					ok = "not ok"
					directive = " # TODO " + tapEscape(outcomeMessage(c.Outcome, c.Message))
				}
				break
			}
			directive = " # SKIP " + tapEscape(outcomeMessage(c.Outcome, c.Message))
		}
		fmt.Fprintf(b, "%s %d - %s%s\n", ok, i+1, tapEscape(c.ID), directive)
		if yaml {
			b.WriteString("  ---\n")
			fmt.Fprintf(b, "  outcome: %s\n", c.Outcome)
			fmt.Fprintf(b, "  tier: %s\n", c.Tier)
			if c.Outcome == protocol.OutcomeUnsupported {
				fmt.Fprintf(b, "  message: %s\n", yamlString(c.Tier+" case unsupported: "+reasonOf(c)))
			} else {
				msg, _, _ := strings.Cut(c.Message, "\n") // the rest is in the detail
				fmt.Fprintf(b, "  message: %s\n", yamlString(msg))
			}
			fmt.Fprintf(b, "  duration_ms: %.3f\n", float64(time.Duration(c.Duration).Microseconds())/1000)
			if len(c.Requirements) > 0 {
				fmt.Fprintf(b, "  requirements: %s\n", yamlList(c.Requirements))
			}
			if d := tapSafe(caseDetail(r, c, suite)); d != "" {
				lines := strings.Split(strings.TrimRight(d, "\n"), "\n")
				fmt.Fprintf(b, "  detail: %s\n", yamlBlockHeader(lines))
				for _, l := range lines {
					fmt.Fprintf(b, "    %s\n", l)
				}
			}
			b.WriteString("  ...\n")
		}
	}
	switch {
	case infra:
		fmt.Fprintf(b, "not ok %d - %s\n", n, InfrastructureTestName)
		b.WriteString("  ---\n")
		fmt.Fprintf(b, "  message: %s\n", yamlString(r.Infrastructure))
		if stderr := infrastructureStderr(r); stderr != nil {
			lines := strings.Split(tapSafe(strings.Join(stderr, "\n")), "\n")
			fmt.Fprintf(b, "  detail: %s\n", yamlBlockHeader(lines))
			for _, l := range lines {
				fmt.Fprintf(b, "    %s\n", l)
			}
		}
		b.WriteString("  ...\n")
	case !exists:
	case levelOK:
		fmt.Fprintf(b, "ok %d - %s\n", n, LevelTestName)
	default:
		fmt.Fprintf(b, "not ok %d - %s\n", n, LevelTestName)
		b.WriteString("  ---\n")
		fmt.Fprintf(b, "  message: %s\n", yamlString(why))
		fmt.Fprintf(b, "  level: %s\n", v.Level)
		fmt.Fprintf(b, "  target: %s\n", v.Target)
		b.WriteString("  ...\n")
	}
	fmt.Fprintf(b, "# level: %s (%s)\n", v.LevelText, r.LevelReason)
	for _, l := range requirementSummary(r) {
		fmt.Fprintf(b, "# %s\n", l)
	}
	fmt.Fprintf(b, "# %s\n", tapEscape(v.Line()))
	return b.Flush()
}

// tapEscape keeps a description or directive on one line and escapes the
// characters TAP gives a meaning: # and the backslash.
func tapEscape(s string) string {
	s = strings.ReplaceAll(tapSafe(s), "\n", " ")
	s = strings.ReplaceAll(s, "\\", "\\\\")
	return strings.ReplaceAll(s, "#", "\\#")
}

// yamlList is a flow sequence of YAML strings: ["R26.1", "R6.1"].
func yamlList(list []string) string {
	parts := make([]string, len(list))
	for i, s := range list {
		parts[i] = yamlString(s)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func yamlString(s string) string {
	b, _ := json.Marshal(tapSafe(s))
	return string(b)
}
