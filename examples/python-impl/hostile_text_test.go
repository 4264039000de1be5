package pythonimpl

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cupel-go/go-cupel/internal/cli"
	"github.com/cupel-go/go-cupel/internal/report/reportcheck"
	"github.com/cupel-go/go-cupel/internal/testtool"
)

// hostilePatches turn a copy of cupel_impl.py into an implementation whose
// text is hostile to reports, as a logger's colours and a careless error
// message are: its name and its unsupported reasons carry ANSI colours and
// markup; its first placing case crashes it after logging colours,
// markup, "]]>", control characters and a lone surrogate to stderr (a
// crash, so that the stderr tail is in the report however the machine
// schedules the runner's reads); its first scoring case fails with such
// an error message.
var hostilePatches = []struct{ old, new string }{
	{`"name": "cupel-python-example",`, `"name": "\x1b[1mcupel-python-example\x1b[0m <marquee>bold</marquee> # TODO \x0b",`},
	{`        result.update(status="unsupported", reason=str(e))`,
		`        result.update(status="unsupported", reason="\x1b[33m<blink>" + str(e) + "</blink>\x1b[0m # SKIP \x07\n  ...")`},
	{`    try:
        output = run_case(message.get("stage"), message["case"])`,
		`    if message.get("stage") == "placing" and not os.path.exists(CRASHED):
        open(CRASHED, "w").close()
        sys.stderr.write("\x1b[31merror\x1b[0m: <script>alert(1)</script> ]]> \x00\x0b # TODO\n")
        sys.stderr.flush()
        sys.stderr.buffer.write(b"\xed\xa0\x80 a lone surrogate, \xff a stray byte\n")
        sys.stderr.flush()
        sys.exit(3)
    if message.get("stage") == "scoring" and not HOSTILE["scoring"]:
        HOSTILE["scoring"] = True
        result.update(status="error", error={"kind": "internal", "message": "\x1b[31m<img src=x onerror=alert(2)>\x1b[0m\x00\n]]>"})
        return result
    try:
        output = run_case(message.get("stage"), message["case"])`},
	{`def handle_run(message):`, `import os
CRASHED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "crashed")
HOSTILE = {"scoring": False}


def handle_run(message):`},
}

// TestHostileText runs cupel-conform against the hostile copy of the
// example, and reads what it wrote as CI servers and browsers do: the
// JUnit file parses and is valid against the Jenkins schema, the TAP
// parses, and the HTML page has no element or attribute of the
// implementation's markup.
func TestHostileText(t *testing.T) {
	py := python3(t)
	xmllint := testtool.Need(t, "the check of the JUnit report against the Jenkins schema (package libxml2-utils)", "xmllint")
	src, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	prog := string(src)
	for _, p := range hostilePatches {
		if strings.Count(prog, p.old) != 1 {
			t.Fatalf("cupel_impl.py no longer has %q once: update hostilePatches", p.old)
		}
		prog = strings.Replace(prog, p.old, p.new, 1)
	}
	dir := t.TempDir()
	hostile := filepath.Join(dir, "hostile_impl.py")
	if err := os.WriteFile(hostile, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	out := func(name string) string { return filepath.Join(dir, name) }
	var stdout, stderr bytes.Buffer
	code := cli.Main([]string{"run", "--quiet", "--impl-cmd", py + " " + hostile,
		"--json", out("r.json"), "--junit", out("r.xml"), "--tap", out("r.tap")}, strings.NewReader(""), &stdout, &stderr)
	if code != 1 {
		t.Fatalf("run: exit code %d, want 1 (the copy fails cases)\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	if code := cli.Main([]string{"report", "--html", out("r.html"), out("r.json")}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("report --html: exit code %d\n%s", code, stderr.String())
	}
	read := func(name string) []byte {
		b, err := os.ReadFile(out(name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}

	junit := read("r.xml")
	j, err := reportcheck.JUnit(junit)
	if err != nil {
		t.Fatalf("%v\n%s", err, junit)
	}
	if err := reportcheck.JUnitSchema(xmllint, "../../internal/report/testdata/jenkins-junit.xsd", out("r.xml")); err != nil {
		t.Error(err)
	}
	var stderrSeen, failures int
	for _, s := range j.Suites {
		for _, c := range s.Cases {
			if c.SystemErr != nil && strings.Contains(*c.SystemErr, "error: <script>alert(1)</script> ]]> ␀␋ # TODO") {
				stderrSeen++
			}
			if c.Failure != nil || c.Error != nil {
				failures++
			}
		}
	}
	if stderrSeen == 0 {
		t.Errorf("no JUnit test case carries the stderr, without its colours and with its control characters shown:\n%s", junit)
	}
	if failures < 2 {
		t.Errorf("%d JUnit failures and errors, want the wrong placing answer and the scoring error at least", failures)
	}

	tap := string(read("r.tap"))
	if _, err := reportcheck.TAP(tap); err != nil {
		t.Errorf("%v\n%s", err, tap)
	}
	if strings.Contains(tap, "\x1b") {
		t.Errorf("the TAP report has an ANSI escape:\n%s", tap)
	}

	page := read("r.html")
	sk, err := reportcheck.Skeleton(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range sk {
		tag, _, _ := strings.Cut(e, " ")
		if tag == "img" || tag == "marquee" || tag == "blink" || strings.Contains(e, "onerror") {
			t.Errorf("the HTML page has the element <%s> from the implementation's text", e)
		}
	}
	if bytes.Contains(page, []byte("<script>alert(1)")) {
		t.Error("the HTML page has the implementation's <script> unescaped")
	}
}
