package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupeltest"
)

// Dir is the directory, relative to the test's working directory, that
// holds the golden files.
const Dir = "testdata/golden"

// Option chooses what a snapshot keeps. Without options a snapshot is
// lossless: the whole report.
type Option func(*options)

type options struct {
	noEvents      bool
	decisionsOnly bool
}

// WithoutEvents leaves the report's events out of the snapshot; the rest
// stays as in the lossless form.
func WithoutEvents() Option { return func(o *options) { o.noEvents = true } }

// DecisionsOnly keeps only the included and the excluded lists, one entry
// per line, so that a 30-item run snapshots to a few dozen lines:
//
//	{
//	  "included": [
//	    {"item":{"content":"user: hello","tokens":3,"kind":"Message","source":"Chat"},"score":0.5,"reason":{"reason":"Scored"}}
//	  ],
//	  "excluded": []
//	}
func DecisionsOnly() Option { return func(o *options) { o.decisionsOnly = true } }

// Canonical returns the report's canonical JSON: the wire format of
// cupel's SelectionReport.MarshalJSON with every event's duration_ms set
// to 0, indented with two spaces and ending with a newline. Options leave
// parts out ([WithoutEvents], [DecisionsOnly]). The report is not modified.
func Canonical(report *cupel.SelectionReport, opts ...Option) ([]byte, error) {
	if report == nil {
		return nil, errors.New("snapshot: the report is nil")
	}
	var o options
	for _, opt := range opts {
		if opt == nil {
			return nil, errors.New("snapshot: invalid argument: a nil Option")
		}
		opt(&o)
	}
	r := *report
	r.Events = slices.Clone(report.Events)
	for i := range r.Events {
		r.Events[i].DurationMs = 0
	}
	raw, err := json.Marshal(&r)
	if err != nil {
		return nil, fmt.Errorf("snapshot: encoding the report: %w", err)
	}
	if o.decisionsOnly {
		return decisions(raw)
	}
	if o.noEvents {
		if raw, err = withoutField(raw, "events"); err != nil {
			return nil, err
		}
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		return nil, fmt.Errorf("snapshot: indenting the report: %w", err)
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// withoutField removes a top-level field from a JSON object, keeping the
// order of the others.
func withoutField(raw []byte, name string) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // {
		return nil, fmt.Errorf("snapshot: re-reading the report: %w", err)
	}
	var out bytes.Buffer
	out.WriteByte('{')
	first := true
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("snapshot: re-reading the report: %w", err)
		}
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, fmt.Errorf("snapshot: re-reading the report: %w", err)
		}
		if key == name {
			continue
		}
		if !first {
			out.WriteByte(',')
		}
		first = false
		k, _ := json.Marshal(key)
		out.Write(k)
		out.WriteByte(':')
		out.Write(val)
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}

// decisions renders the included and excluded lists of a report's JSON,
// one compact entry per line.
func decisions(raw []byte) ([]byte, error) {
	var lists struct {
		Included []json.RawMessage `json:"included"`
		Excluded []json.RawMessage `json:"excluded"`
	}
	if err := json.Unmarshal(raw, &lists); err != nil {
		return nil, fmt.Errorf("snapshot: re-reading the report: %w", err)
	}
	var buf bytes.Buffer
	writeList := func(name string, entries []json.RawMessage, last bool) {
		buf.WriteString("  \"" + name + "\": [")
		for i, e := range entries {
			if i == 0 {
				buf.WriteByte('\n')
			}
			buf.WriteString("    ")
			buf.Write(e) // json.Marshal output is already compact
			if i < len(entries)-1 {
				buf.WriteByte(',')
			}
			buf.WriteByte('\n')
		}
		if len(entries) > 0 {
			buf.WriteString("  ")
		}
		buf.WriteByte(']')
		if !last {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
	}
	buf.WriteString("{\n")
	writeList("included", lists.Included, false)
	writeList("excluded", lists.Excluded, true)
	buf.WriteString("}\n")
	return buf.Bytes(), nil
}

// Updating reports whether golden files are being rewritten: goldie's
// -update flag is set, or GOLDIE_UPDATE is "1", "true" or "t" (any case).
func Updating() bool {
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		return true
	}
	switch strings.ToLower(os.Getenv("GOLDIE_UPDATE")) {
	case "1", "true", "t":
		return true
	}
	return false
}

// Path returns the golden file's path for name: testdata/golden/<name>.golden.
func Path(name string) string { return newGoldie().GoldenFileName(nil, name) }

// Match compares the report's canonical JSON with the golden file
// testdata/golden/<name>.golden and reports a mismatch to t with goldie's
// diff. When updating ([Updating]) it writes the file instead and passes.
// name should keep to letters, digits, '-', '_' and '/' (a '/' makes a
// sub-directory). t may be a *testing.T, a *testing.B or GinkgoT(). Options
// ([WithoutEvents], [DecisionsOnly]) make the snapshot smaller; without
// them it is lossless.
func Match(t cupeltest.TB, name string, report *cupel.SelectionReport, opts ...Option) {
	t.Helper()
	if err := check(name, report, Updating(), opts); err != nil {
		t.Errorf("%s", err)
	}
}

// Check is Match for code outside go test: it returns the mismatch (or the
// missing file, or the failure to write it) as an error instead.
func Check(name string, report *cupel.SelectionReport, opts ...Option) error {
	return check(name, report, Updating(), opts)
}

func newGoldie() *goldie.Goldie {
	// goldie.New touches its testing.TB only when an option fails to apply,
	// and these options cannot fail.
	return goldie.New(nil, goldie.WithFixtureDir(Dir), goldie.WithNameSuffix(".golden"), goldie.WithDiffEngine(goldie.ClassicDiff))
}

func check(name string, report *cupel.SelectionReport, update bool, opts []Option) error {
	actual, err := Canonical(report, opts...)
	if err != nil {
		return err
	}
	g := newGoldie()
	var tb testing.TB // goldie reads the test name only for per-test directories, which are off
	if update {
		if err := g.Update(tb, name, actual); err != nil {
			return fmt.Errorf("snapshot %q: writing %s: %w", name, g.GoldenFileName(tb, name), err)
		}
		return nil
	}
	path := g.GoldenFileName(tb, name)
	expected, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("snapshot %q: golden file %s not found; run the tests with GOLDIE_UPDATE=1 to create it", name, path)
	}
	if err != nil {
		return fmt.Errorf("snapshot %q: reading %s: %w", name, path, err)
	}
	if bytes.Equal(actual, expected) {
		return nil
	}
	return fmt.Errorf("snapshot %q: report did not match the golden file %s (run with GOLDIE_UPDATE=1 to accept it). Diff is below:\n\n%s",
		name, path, goldie.Diff(goldie.ClassicDiff, string(actual), string(expected)))
}
