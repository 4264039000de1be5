package explore

import (
	"fmt"
	"io"
	"strings"

	"github.com/cupel-go/go-cupel/internal/safetext"
)

// WriteText writes the report for people: who was compared with whom,
// the cases run and their rate, and each distinct divergence with its
// shrunk size, first difference and vector file.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	oracle := safetext.Line(r.Oracle.Title())
	if r.OracleTrusted {
		oracle += ", in process"
	}
	// The other side is go-cupel, the oracle, or with --against a second
	// implementation that is no more trusted than the first.
	other, trust := "oracle", ""
	if !r.OracleTrusted {
		other, trust = "--against implementation", ", though neither side is trusted"
	}
	fmt.Fprintf(&b, "cupel-conform explore · seed %d", r.Seed)
	if r.Shard.Count > 1 {
		fmt.Fprintf(&b, " · shard %s (merge the shards' JSON reports with cupel-conform report merge)", r.Shard)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "implementation: %s\n", safetext.Line(r.Implementation.Title()))
	if r.OracleTrusted {
		fmt.Fprintf(&b, "oracle:         %s\n", oracle)
	} else {
		fmt.Fprintf(&b, "against:        %s (neither side is trusted)\n", oracle)
	}
	if len(r.Stages) > 0 {
		fmt.Fprintf(&b, "stages:         %s\n", strings.Join(r.Stages, ", "))
	}
	fmt.Fprintf(&b, "cases:          %d run in %s (%.0f cases/s)", r.Cases, r.Duration.Round(1e6), r.CasesPerSecond())
	if r.Skipped > 0 {
		fmt.Fprintf(&b, ", %d answered unsupported although hello declares what they use", r.Skipped)
	}
	b.WriteString("\n")
	if r.Infrastructure != "" {
		fmt.Fprintf(&b, "\nno verdict: %s\n", safetext.Lines(r.Infrastructure, "  "))
	}
	if r.Interrupted {
		b.WriteString("\ninterrupted: the cases above were run, the rest were not\n")
	}
	switch n := len(r.Divergences); n {
	case 0:
		if r.Infrastructure == "" {
			b.WriteString("\nno divergence\n")
		}
	default:
		fmt.Fprintf(&b, "\n%d distinct divergence%s:\n", n, explorePlural(n))
		for _, d := range r.Divergences {
			fmt.Fprintf(&b, "\n  %s: %d case%s; shrunk from %d to %d item%s (seed %d, index %d)\n",
				d.Class, d.Count, explorePlural(d.Count), d.OriginalItems, len(d.Case.Input.Items), explorePlural(len(d.Case.Input.Items)), d.Seed, d.Index)
			msg := d.Comparison.Message
			if d.Fault != "" && msg == "" {
				msg = d.Fault
			}
			for i, l := range strings.Split(safetext.Lines(msg, ""), "\n") {
				if i == 6 {
					b.WriteString("    ...\n")
					break
				}
				fmt.Fprintf(&b, "    %s\n", l)
			}
			switch {
			case d.File != "":
				fmt.Fprintf(&b, "    vector: %s\n", d.File)
			case d.OracleFault:
				fmt.Fprintf(&b, "    (the %s failed: no vector can state an expected value)\n", other)
			}
		}
		fmt.Fprintf(&b, "\nEach vector holds the %s's outputs as its expected values%s: verify them\n"+
			"against the spec before adopting it. `cupel-conform run --suite DIR --impl-cmd CMD`\n"+
			"reproduces the divergences.\n", other, trust)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func explorePlural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
