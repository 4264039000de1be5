package explore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cupel-go/go-cupel/internal/safetext"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
	"github.com/cupel-go/go-cupel/runner/requirement"
)

// This file writes a case as a vector file in the suite format of
// vectors/README.md: what the loader reads back into the same inputs and
// expectations.

// VectorTOML returns d's case as a vector file. Its header comment gives
// the seed and index, both sides' outputs, the comparator's verdict, the
// warning that the expected values are the oracle's, to be verified
// against the specification before the vector is adopted, and the
// requirements the vector may cover, for a person to choose from (see
// writeCandidates): it has no [test] covers. rep names the two sides in
// the header and holds the catalogue (Options.Requirements); it may be
// nil, for the embedded catalogue.
func (d *Divergence) VectorTOML(rep *Report) ([]byte, error) {
	cat := (*requirement.Catalogue)(nil)
	if rep != nil {
		cat = rep.requirements
	}
	if cat == nil {
		var err error
		if cat, err = requirement.Embedded(); err != nil {
			return nil, err
		}
	}
	var w tomlWriter
	c := d.Case
	oracle, impl := "go-cupel (in process)", "the implementation"
	if rep != nil {
		impl = rep.Implementation.Title()
		oracle = rep.Oracle.Title()
	}
	if d.Index < 0 {
		w.comment("Found by explore's fuzz target under go test -fuzz, from the input of SHA-256 %s...", d.Input)
		w.comment("(the fuzzer saves its input under testdata/fuzz; the case had %d items before shrinking,", d.OriginalItems)
		w.comment("%d runs shrank it to %d).", d.ShrinkRuns, len(c.Input.Items))
	} else {
		w.comment("Found by cupel-conform explore: seed %d, index %d (regenerate with --seed %d; the case", d.Seed, d.Index, d.Seed)
		w.comment("had %d items before shrinking, %d runs shrank it to %d).", d.OriginalItems, d.ShrinkRuns, len(c.Input.Items))
	}
	w.comment("")
	w.comment("VERIFY AGAINST THE SPEC BEFORE ADOPTING. The expected values below are the")
	w.comment("outputs of %s, not a derivation from the specification.", oracle)
	if rep != nil && !rep.OracleTrusted {
		w.comment("Neither side is trusted: either may be wrong, or both.")
	}
	w.comment("")
	w.comment("Divergence: %s", d.Class)
	w.comment("Implementation: %s", impl)
	w.comment("Oracle:         %s", oracle)
	w.comment("")
	w.comment("Implementation output:")
	w.commentResult(d.Actual, d.Fault)
	if d.ActualCut != "" {
		w.comment("  (%s)", d.ActualCut)
	}
	w.comment("Oracle output (the expected values):")
	w.commentResult(d.OracleResult, "")
	w.comment("")
	w.comment("Outcome: %s", d.Comparison.Outcome)
	if len(d.Comparison.Details) == 0 && d.Comparison.Message != "" {
		w.comment("%s", d.Comparison.Message)
	}
	for i, l := range d.Comparison.Details {
		if i == 30 {
			w.comment("  ... (%d more lines)", len(d.Comparison.Details)-i)
			break
		}
		for _, part := range strings.Split(l, "\n") {
			w.comment("%s", part)
		}
	}
	if d.Stderr != "" {
		w.comment("")
		w.comment("Implementation stderr (tail):")
		lines := strings.Split(strings.TrimRight(d.Stderr, "\n"), "\n")
		for _, l := range lines[max(0, len(lines)-15):] {
			w.comment("  %s", l)
		}
	}
	w.comment("")
	w.writeCandidates(cat, d)
	w.blank()
	name := fmt.Sprintf("explore: %s (seed %d, index %d)", d.Class, d.Seed, d.Index)
	if d.Index < 0 {
		name = fmt.Sprintf("explore fuzz: %s (input %s)", d.Class, d.Input)
	}
	if err := writeCase(&w, c, name); err != nil {
		return nil, err
	}
	return w.buf.Bytes(), nil
}

// writeCandidates says that a person must give the vector its covers,
// and lists the candidates: the protocol requirements of the chapters of
// the component and stage d exercises (requirement.CandidateChapters).
// explore cannot choose: a vector covers a requirement only if an
// implementation that breaks the requirement fails it, which a generated
// case does not promise.
func (w *tomlWriter) writeCandidates(cat *requirement.Catalogue, d *Divergence) {
	chapters := requirement.CandidateChapters(d.Case, strings.HasPrefix(d.Kind, "diagnostics"))
	cands := cat.Candidates(chapters)
	w.comment("COVERS: A PERSON MUST CHOOSE. A vector covers a requirement only if an")
	w.comment("implementation that breaks the requirement fails it, which a generated case")
	w.comment("cannot promise. So this file has no [test] covers, and cupel-conform lint")
	w.comment("refuses it in a suite that uses covers until someone adds the ids of the")
	w.comment("requirements it checks (docs/requirements.md).")
	if len(chapters) == 0 {
		w.comment("No spec chapter defines %s: pick from cupel-conform requirements.", d.Component)
		return
	}
	names := make([]string, len(chapters))
	for i, ch := range chapters {
		names[i] = fmt.Sprintf("%02d", ch)
		if t := chapterTitle(cat, ch); t != "" {
			names[i] += " (" + t + ")"
		}
	}
	if len(cands) == 0 {
		w.comment("The catalogue holds no protocol requirement of spec %s %s:", chapterWord(len(names)), strings.Join(names, ", "))
		w.comment("pick from cupel-conform requirements.")
		return
	}
	w.comment("Candidates, the protocol requirements of spec %s %s:", chapterWord(len(names)), strings.Join(names, ", "))
	for _, r := range cands {
		w.comment("  %s (%s) %s", r.ID, r.Kind, r.Statement)
	}
}

// chapterWord is "chapter" or "chapters", for n chapters.
func chapterWord(n int) string {
	if n == 1 {
		return "chapter"
	}
	return "chapters"
}

// chapterTitle is chapter ch's title as the catalogue spells it, "" when
// it holds no requirement of ch.
func chapterTitle(cat *requirement.Catalogue, ch int) string {
	for _, r := range cat.All() {
		if r.Ruling == 0 && r.Chapter == ch {
			return r.Title
		}
	}
	return ""
}

// writeCase writes c (inputs and expectations) as a vector named name:
// casefile.Marshal's file, after the header.
func writeCase(w *tomlWriter, c *casefile.Case, name string) error {
	b, err := casefile.Marshal(c, name)
	if err != nil {
		return err
	}
	w.buf.Write(b)
	return nil
}

// tomlWriter writes TOML. Keys of a table come before its sub-tables.
type tomlWriter struct {
	buf bytes.Buffer
}

func (w *tomlWriter) comment(format string, args ...any) {
	s := safetext.Lines(fmt.Sprintf(format, args...), "") // TOML comments allow no control character but tab
	if s == "" {
		w.buf.WriteString("#\n")
		return
	}
	for _, l := range strings.Split(s, "\n") {
		w.buf.WriteString("# " + l + "\n")
	}
}

func (w *tomlWriter) commentResult(r *protocol.Result, fault string) {
	if fault != "" {
		w.comment("  %s", fault)
		return
	}
	if r == nil {
		w.comment("  (none)")
		return
	}
	b, err := json.Marshal(r)
	if err != nil {
		w.comment("  (unprintable: %v)", err)
		return
	}
	// Wrap long JSON at commas, about 100 columns a line.
	s := string(b)
	for len(s) > 100 {
		cut := strings.LastIndexByte(s[:100], ',')
		if cut < 20 {
			cut = 100
		} else {
			cut++
		}
		w.comment("  %s", s[:cut])
		s = s[cut:]
	}
	w.comment("  %s", s)
}

func (w *tomlWriter) blank() { w.buf.WriteByte('\n') }
