package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cupel-go/go-cupel/internal/cli"
	"github.com/cupel-go/go-cupel/internal/fakeimpl"
	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// implCmd is the shell command that starts the test implementation called
// name as a process: this test binary, which TestMain turns into the
// implementation when $TESTIMPL is set.
func implCmd(t *testing.T, name string) string {
	return fmt.Sprintf("TESTIMPL=%s TESTIMPL_SUITE=%s %s", name, abs(t, fixtureSuite), os.Args[0])
}

func cupelConform(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = cli.Main(args, strings.NewReader(""), &o, &e)
	return code, o.String(), e.String()
}

// checkReports asserts what every report format written to dir says about
// the run: the JSON report's statuses and level, and every case in the
// JUnit, TAP and Markdown outputs and the badge's verdict.
func checkReports(t *testing.T, dir string, want func(*casefile.Case) protocol.Outcome, level runner.Level) {
	t.Helper()
	suite, err := casefile.LoadSuite(os.DirFS("../../runner/testdata/suite"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := report.ReadReport(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Level != level {
		t.Errorf("level %s (%s), want %s", rep.Level, rep.LevelReason, level)
	}
	if len(rep.Cases) != len(suite.Cases) {
		t.Errorf("%d cases in the report, want %d", len(rep.Cases), len(suite.Cases))
	}
	for _, c := range rep.Cases {
		if w := want(suite.Case(c.ID)); c.Outcome != w {
			t.Errorf("%s: %s (%s), want %s", c.ID, c.Outcome, c.Message, w)
		}
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	junit, tap, md := read("report.xml"), read("report.tap"), read("report.md")
	for _, c := range rep.Cases {
		if !strings.Contains(junit, `name="`+c.ID+`"`) || !strings.Contains(tap, c.ID) {
			t.Errorf("%s is missing from the JUnit or TAP report", c.ID)
		}
		// Unsupported cases are grouped by reason in the Markdown summary;
		// every other unexpected result is listed.
		if c.Outcome == protocol.OutcomeUnsupported {
			if !strings.Contains(md, "| "+c.Message+" |") {
				t.Errorf("%s: the reason %q is missing from the Markdown summary", c.ID, c.Message)
			}
		} else if runner.Classify(c, "") == runner.ClassGated && !strings.Contains(md, c.ID) {
			t.Errorf("%s (%s) is missing from the Markdown summary", c.ID, c.Outcome)
		}
	}
	// The "conformance level" test exists only with a target, and fails
	// exactly when the level misses it; Markdown ends with the verdict line.
	v := rep.Verdict()
	hasLevel := strings.Contains(junit, `<testcase name="conformance level"`)
	if hasLevel != (v.Target != "") || strings.Contains(tap, " - conformance level\n") != (v.Target != "") {
		t.Errorf("the conformance level test exists in JUnit=%v, TAP=%v with target %q", hasLevel, strings.Contains(tap, " - conformance level"), v.Target)
	}
	reached := v.Target == "" || level.AtLeast(v.Target)
	levelFailed := regexp.MustCompile(`<testcase name="conformance level" classname="conformance" time="0.000">\s*<failure`).MatchString(junit)
	if levelFailed == reached {
		t.Errorf("JUnit: the conformance level case fails=%v for level %s", levelFailed, level)
	}
	if strings.Contains(tap, "\nnot ok "+fmt.Sprint(len(rep.Cases)+1)+" - conformance level\n") == reached {
		t.Errorf("TAP: the conformance level point disagrees with level %s", level)
	}
	if !strings.HasSuffix(md, "\n"+v.Line()+"\n") {
		t.Errorf("Markdown does not end with the verdict line %q", v.Line())
	}
	var badge report.Badge
	if err := json.Unmarshal([]byte(read("badge.json")), &badge); err != nil {
		t.Fatal(err)
	}
	if (level == runner.LevelNone) != (badge.Color == "red") {
		t.Errorf("badge %+v for level %s", badge, level)
	}
}

func outputs(dir string) []string {
	return []string{"--json", filepath.Join(dir, "report.json"), "--junit", filepath.Join(dir, "report.xml"),
		"--tap", filepath.Join(dir, "report.tap"), "--markdown", filepath.Join(dir, "report.md"), "--badge", filepath.Join(dir, "badge.json")}
}

// wantCode is cupel-conform's exit code for the implementation called
// name with the required level (none for "").
func wantCode(name string, require runner.Level) int {
	if require == "" {
		if name == fakeimpl.Conformant {
			return 0
		}
		return 1
	}
	if fakeimpl.Level(name).AtLeast(require) {
		return 0
	}
	return 1
}

// TestCLIFrontEnd runs every test implementation as a process through
// cupel-conform run, with and without a required level.
func TestCLIFrontEnd(t *testing.T) {
	for _, name := range fakeimpl.Names {
		for _, require := range []runner.Level{"", runner.LevelConformant} {
			t.Run(name+"/"+string(require), func(t *testing.T) {
				dir := t.TempDir()
				args := append([]string{"run", "--suite", "../../runner/testdata/suite", "--impl-cmd", implCmd(t, name),
					"--timeout", "1s", "--startup-timeout", "20s"}, outputs(dir)...)
				if require != "" {
					args = append(args, "--require-level", string(require))
				}
				code, stdout, stderr := cupelConform(args...)
				if w := wantCode(name, require); code != w {
					t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, w, stdout, stderr)
				}
				if !strings.Contains(stdout, "level: "+fakeimpl.Level(name).Title()) {
					t.Errorf("the text report does not give the level %s:\n%s", fakeimpl.Level(name).Title(), stdout)
				}
				checkReports(t, dir, func(c *casefile.Case) protocol.Outcome { return fakeimpl.Want(name, c) }, fakeimpl.Level(name))
				if name == fakeimpl.Crashing && !strings.Contains(stdout, "fakeimpl: segmentation violation on "+fakeimpl.CrashID) {
					t.Errorf("the crash's stderr is not in the text report:\n%s", stdout)
				}
			})
		}
	}
}

// TestOfflineFrontEnd runs every test implementation through export, an
// offline answer, and verify.
func TestOfflineFrontEnd(t *testing.T) {
	for _, name := range fakeimpl.Names {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if code, _, stderr := cupelConform("export", "--suite", "../../runner/testdata/suite", dir); code != 0 {
				t.Fatalf("export: exit %d: %s", code, stderr)
			}
			answer := exec.Command("sh", "-c", implCmd(t, name)+" answer "+filepath.Join(dir, "cases.jsonl")+" "+filepath.Join(dir, "results.jsonl"))
			if out, err := answer.CombinedOutput(); err != nil {
				t.Fatalf("answering: %v\n%s", err, out)
			}
			code, stdout, stderr := cupelConform(append([]string{"verify", "--suite", "../../runner/testdata/suite", dir}, outputs(dir)...)...)
			if name == fakeimpl.Crashing {
				// The crash left its case without a result: verify refuses
				// the file as a whole.
				if code != 3 || !strings.Contains(stderr, "1 cases have no result (first: "+fakeimpl.CrashID+")") {
					t.Errorf("exit %d, want 3 for a missing result\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
				}
				return
			}
			want := wantCode(name, "")
			if code != want {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, want, stdout, stderr)
			}
			checkReports(t, dir, func(c *casefile.Case) protocol.Outcome { return fakeimpl.WantOffline(name, c) }, fakeimpl.Level(name))
		})
	}
}
