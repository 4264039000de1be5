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

// Canonical returns the report's canonical JSON: the wire format of
// cupel's SelectionReport.MarshalJSON with every event's duration_ms set
// to 0, indented with two spaces and ending with a newline. The report is
// not modified.
func Canonical(report *cupel.SelectionReport) ([]byte, error) {
	if report == nil {
		return nil, errors.New("snapshot: the report is nil")
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
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		return nil, fmt.Errorf("snapshot: indenting the report: %w", err)
	}
	buf.WriteByte('\n')
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
// sub-directory). t may be a *testing.T, a *testing.B or GinkgoT().
func Match(t cupeltest.TB, name string, report *cupel.SelectionReport) {
	t.Helper()
	if err := check(name, report, Updating()); err != nil {
		t.Errorf("%s", err)
	}
}

// Check is Match for code outside go test: it returns the mismatch (or the
// missing file, or the failure to write it) as an error instead.
func Check(name string, report *cupel.SelectionReport) error {
	return check(name, report, Updating())
}

func newGoldie() *goldie.Goldie {
	// goldie.New touches its testing.TB only when an option fails to apply,
	// and these options cannot fail.
	return goldie.New(nil, goldie.WithFixtureDir(Dir), goldie.WithNameSuffix(".golden"), goldie.WithDiffEngine(goldie.ClassicDiff))
}

func check(name string, report *cupel.SelectionReport, update bool) error {
	actual, err := Canonical(report)
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
