package pythonimpl

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cupel-go/go-cupel/internal/cli"
	"github.com/cupel-go/go-cupel/internal/matrix"
	"github.com/cupel-go/go-cupel/internal/testtool"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// breakages are the two bugs of the deliberately broken copy: u-shaped
// ties broken by the wrong end, and the reflexive scorer not clamped
// above. README.md's "Comparing implementations" makes the same copy with
// sed.
var breakages = [][2]string{
	{"return (0, -score, position)", "return (0, -score, -position)"},
	{"min(max(hint, 0.0), 1.0)", "max(hint, 0.0)"},
}

// brokenCopy writes cupel_impl.py with the breakages to a temporary
// directory and returns its path.
func brokenCopy(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	out := string(src)
	for _, b := range breakages {
		if !strings.Contains(out, b[0]) {
			t.Fatalf("%s no longer contains %q: update the breakages (and README.md)", script, b[0])
		}
		out = strings.Replace(out, b[0], b[1], 1)
	}
	path := filepath.Join(t.TempDir(), "broken_impl.py")
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCompareImplementations is the command of README.md's "Comparing
// implementations": go-cupel, the Python example and a broken copy of it,
// side by side in one run. The text, Markdown, JSON and HTML reports name
// every case on which the broken copy fails and the others pass, and the
// page shows them in Chromium (where it is installed).
func TestCompareImplementations(t *testing.T) {
	py := python3(t)
	broken := brokenCopy(t)
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"run", "-i", "go-cupel", "-i", "python=" + py + " " + script, "-i", "broken=" + py + " " + broken,
		"--markdown", filepath.Join(dir, "m.md"), "--html", filepath.Join(dir, "m.html"), "--json", filepath.Join(dir, "m.json")}
	code := cli.Main(args, strings.NewReader(""), &stdout, &stderr)
	text := stdout.String()
	t.Logf("cupel-conform %s\n%s", strings.Join(args, " "), text)
	if code != 1 {
		t.Fatalf("exit code %d, want %d (python and broken are not conformant)\nstderr:\n%s", code, 1, stderr.String())
	}

	// The cases where broken fails, from the JSON: each passes for go-cupel
	// and python.
	data, err := os.ReadFile(filepath.Join(dir, "m.json"))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := matrix.Decode(data, "m.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := matrix.New(entries, matrix.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var failing []string
	for _, d := range m.Disagreements {
		if d.Failing {
			failing = append(failing, d.ID)
			if d.Outcomes["broken"] != protocol.OutcomeFail || strings.Join(d.Passed, ",") != "go-cupel,python" {
				t.Errorf("%s: statuses %v, passed %v; want only broken to fail", d.ID, d.Outcomes, d.Passed)
			}
		}
	}
	for _, id := range []string{"required/placing/u-shaped-tied-scores", "required/scoring/reflexive-clamped"} {
		if !strings.Contains(strings.Join(failing, " "), id) {
			t.Errorf("%s is not among the failing disagreements %v", id, failing)
		}
	}

	md, err := os.ReadFile(filepath.Join(dir, "m.md"))
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, "m.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "  pass: go-cupel, python · fail: broken (") {
		t.Errorf("the text lacks the group of cases only broken fails")
	}
	for _, id := range failing {
		if !regexp.MustCompile(`(?m)^    ` + regexp.QuoteMeta(id) + ` +broken: `).MatchString(text) {
			t.Errorf("the text does not list %s with broken's message", id)
		}
		if !strings.Contains(string(md), "| `"+id+"` | ✅ pass | ✅ pass | ❌ **fail** |") {
			t.Errorf("the Markdown does not list %s", id)
		}
		if !strings.Contains(string(page), `<a href="#case:`+id+`"><code>`+id+`</code></a>`) {
			t.Errorf("the HTML's disagreements do not list %s", id)
		}
	}

	bin := chromium(t)
	dom := dumpDOM(t, bin, "file://"+filepath.Join(dir, "m.html")+"#status=x-failing")
	for _, want := range []string{
		`data-ready="1"`,
		`<p class="level">Cupel Fully Conformant</p>`,
		`<article class="banner lvl-none" data-impl="broken">`,
	} {
		if !strings.Contains(dom, want) {
			t.Errorf("the DOM after the page's script lacks %s", want)
		}
	}
	for _, id := range failing {
		open := regexp.MustCompile(`<details class="case failing" id="case:` + regexp.QuoteMeta(id) + `" [^>]*>`).FindString(dom)
		if open == "" || strings.Contains(open, "hidden") {
			t.Errorf("the failing case %s is not shown: %q", id, open)
		}
	}
	if !regexp.MustCompile(`<span class="d-bad">\s*!\s+0\s+expected "b" +actual #\d+ "d"</span>`).MatchString(dom) {
		t.Errorf("the DOM lacks the diff of required/placing/u-shaped-tied-scores")
	}
}

// chromium returns the path of Debian's chromium, or skips (fails under
// CI=true, where .ci/run installs it).
func chromium(t *testing.T) string {
	t.Helper()
	return testtool.Need(t, "the check of the HTML report in a browser", "chromium", "chromium-browser")
}

// dumpDOM loads url in headless Chromium and returns the DOM after the
// page's scripts ran.
func dumpDOM(t *testing.T, bin, url string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--dump-dom", url)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium --dump-dom %s: %v\n%s", url, err, stderr.String())
	}
	return stdout.String()
}
