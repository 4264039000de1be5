package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cupel-go/go-cupel/internal/bound"
	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/internal/testtool"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// The memory target of PROTOCOL.md ("What the runner keeps"): a full run
// against an implementation that sends maximal lines (a hello name and an
// unsupported reason on every case of nearly protocol.MaxLine bytes each)
// stays under maxRSS with every report written, and no report file
// exceeds maxReport.
const (
	maxRSS    = 250 << 20
	maxReport = 64 << 20
)

// maxRSSLine is GNU time's line for the peak resident set size (of the
// runner and of the implementation's process, the largest of them).
var maxRSSLine = regexp.MustCompile(`(?m)^\s*Maximum resident set size \(kbytes\): (\d+)$`)

// timeV returns GNU time, which -v makes print the peak resident set size
// (Debian's package "time"). Without it the test skips, and fails under
// CI=true.
func timeV(t *testing.T) string {
	t.Helper()
	const why = "the memory target (GNU time -v measures the peak RSS)"
	for _, p := range []string{"/usr/bin/time", "gtime"} {
		var out strings.Builder
		cmd := exec.Command(p, "-v", "true")
		cmd.Stderr = &out
		if cmd.Run() == nil && maxRSSLine.MatchString(out.String()) {
			return p
		}
	}
	return testtool.Need(t, why, "GNU time (Debian's package time)")
}

// goBuild builds pkg into dir and returns the binary's path.
func goBuild(t *testing.T, dir, pkg string) string {
	t.Helper()
	out := filepath.Join(dir, filepath.Base(pkg))
	if b, err := exec.Command("go", "build", "-o", out, pkg).CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	return out
}

func TestMemoryTarget(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole suite twice with 16 MiB lines (-short)")
	}
	if testtool.Race {
		t.Skip("measures the built binary, not this test: the plain pass runs it")
	}
	gnuTime := timeV(t)
	bin := t.TempDir()
	cc := goBuild(t, bin, "github.com/cupel-go/go-cupel/cmd/cupel-conform")
	adapter := goBuild(t, bin, "github.com/cupel-go/go-cupel/internal/hostile/hostileadapter")
	impl := "HOSTILE=maximal exec " + adapter

	// measure runs cupel-conform under GNU time, wanting the exit code
	// code, and returns its stdout and peak RSS in bytes.
	measure := func(dir string, code int, args ...string) (string, int) {
		t.Helper()
		args = append([]string{"-v", cc, "run", "--impl-cmd", impl, "--timeout", "5m", "--startup-timeout", "5m"}, args...)
		cmd := exec.Command(gnuTime, args...)
		cmd.Dir = dir
		var stderr strings.Builder
		cmd.Stderr = &stderr
		stdout, err := cmd.Output()
		got := 0
		if ee, ok := err.(*exec.ExitError); ok {
			got = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if got != code {
			t.Fatalf("cupel-conform run %v: exit %d, want %d\n%s", args, got, code, stderr.String())
		}
		m := maxRSSLine.FindStringSubmatch(stderr.String())
		if m == nil {
			t.Fatalf("%s -v printed no peak RSS (is it GNU time?):\n%s", gnuTime, stderr.String())
		}
		kb, _ := strconv.Atoi(m[1])
		return string(stdout), kb << 10
	}

	dir := t.TempDir()
	text, rss := measure(dir, 1, "--json", "r.json", "--junit", "r.xml", "--tap", "r.tap", "--markdown", "r.md",
		"--html", "r.html", "--badge", "badge.json", "--save-failed", "failed")
	t.Logf("text, JSON, JUnit, TAP, Markdown, HTML, badge, save-failed: peak RSS %d MiB", rss>>20)
	if rss > maxRSS {
		t.Errorf("peak RSS %d MiB, over the target of %d MiB", rss>>20, maxRSS>>20)
	}
	// --write-expectations makes the run exit 0.
	stream, rss2 := measure(dir, 0, "--test2json", "--write-expectations", "exp.json")
	t.Logf("test2json, expectations: peak RSS %d MiB", rss2>>20)
	if rss2 > maxRSS {
		t.Errorf("peak RSS with --test2json %d MiB, over the target of %d MiB", rss2>>20, maxRSS>>20)
	}
	for _, out := range []string{text, stream} {
		if len(out) > maxReport {
			t.Errorf("stdout is %d MiB, over %d MiB", len(out)>>20, maxReport>>20)
		}
	}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err == nil && info.Size() > maxReport {
			t.Errorf("%s is %d MiB, over %d MiB", path, info.Size()>>20, maxReport>>20)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}

	// The run judged what the lines said: every case unsupported, the
	// reason and the name kept cut.
	rep, err := report.ReadReport(filepath.Join(dir, "r.json"))
	if err != nil {
		t.Fatal(err)
	}
	if n := utf8.RuneCountInString(rep.Implementation.Name); n != bound.MaxName || !strings.HasSuffix(rep.Implementation.Name, " characters cut]") {
		t.Errorf("the name is %d characters, ending %q: want it cut to %d", n, rep.Implementation.Name[len(rep.Implementation.Name)-30:], bound.MaxName)
	}
	suite, err := casefile.LoadSuite(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Cases) != len(suite.Cases) {
		t.Errorf("%d cases, want the embedded suite's %d", len(rep.Cases), len(suite.Cases))
	}
	for _, c := range rep.Cases {
		if c.Outcome != protocol.OutcomeUnsupported || len(c.Message) > bound.MaxText || !strings.HasSuffix(c.Message, " bytes cut]") {
			t.Fatalf("%s: %s with a message of %d bytes ending %q: want unsupported, its reason cut", c.ID, c.Outcome, len(c.Message), c.Message[max(0, len(c.Message)-30):])
		}
	}
}
