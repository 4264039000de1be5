package reportcheck

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
	"golang.org/x/net/html"
)

// JUnitSuites is what a JUnit reader takes from a report.
type JUnitSuites struct {
	XMLName xml.Name `xml:"testsuites"`
	Name    string   `xml:"name,attr"`
	Suites  []struct {
		Name  string `xml:"name,attr"`
		Cases []struct {
			Name    string  `xml:"name,attr"`
			Skipped *string `xml:"skipped"`
			Failure *struct {
				Message string `xml:"message,attr"`
				Body    string `xml:",chardata"`
			} `xml:"failure"`
			Error *struct {
				Message string `xml:"message,attr"`
				Body    string `xml:",chardata"`
			} `xml:"error"`
			SystemOut *string `xml:"system-out"`
			SystemErr *string `xml:"system-err"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// JUnit parses a JUnit report with encoding/xml, which rejects characters
// XML 1.0 does not allow, and checks it has at least one test suite.
func JUnit(data []byte) (*JUnitSuites, error) {
	var s JUnitSuites
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	if err := d.Decode(&s); err != nil {
		return nil, fmt.Errorf("junit: %w", err)
	}
	if len(s.Suites) == 0 {
		return nil, fmt.Errorf("junit: no testsuite")
	}
	return &s, nil
}

// JUnitSchema validates the JUnit file at path against the Jenkins JUnit
// schema xsd with xmllint (the path of the xmllint program).
func JUnitSchema(xmllint, xsd, path string) error {
	out, err := exec.Command(xmllint, "--noout", "--schema", xsd, path).CombinedOutput()
	if err != nil {
		return fmt.Errorf("xmllint --schema %s %s: %w\n%s", xsd, path, err, out)
	}
	return nil
}

// TAPPoint is one test point of a TAP report.
type TAPPoint struct {
	OK          bool
	Number      int
	Description string // unescaped
	Directive   string // "SKIP" or "TODO", or ""
	Reason      string
	YAML        map[string]any // the YAML block, if any
}

var (
	planLine  = regexp.MustCompile(`^1\.\.(\d+)(?: # .*)?$`)
	pointLine = regexp.MustCompile(`^(not )?ok(?: (\d+))?(?: - ((?:[^#\\]|\\.)*?))?(?: # (SKIP|TODO)(?:\S*)(?: ((?:[^#\\]|\\.)*))?)?$`)
)

// TAP parses a TAP 14 report: a version line, then lines that are each a
// plan, a test point, a comment, a YAML block (between "  ---" and "  ..."
// after a test point, whose body a YAML reader accepts) or an indented
// subtest (checked the same way, four spaces in). Every line is valid
// UTF-8 without control characters other than tab, the plan comes once,
// and the test points are numbered 1 to the plan.
func TAP(text string) ([]TAPPoint, error) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) == 0 || lines[0] != "TAP version 14" {
		return nil, fmt.Errorf("tap: the first line is not \"TAP version 14\"")
	}
	return tapBody(lines[1:], 2)
}

func tapBody(lines []string, first int) ([]TAPPoint, error) {
	var points []TAPPoint
	plan := -1
	for i := 0; i < len(lines); i++ {
		l, n := lines[i], first+i
		if !utf8.ValidString(l) {
			return nil, fmt.Errorf("tap line %d: invalid UTF-8: %q", n, l)
		}
		for _, r := range l {
			if r < 0x20 && r != '\t' || r == 0x7f {
				return nil, fmt.Errorf("tap line %d: control character %U: %q", n, r, l)
			}
		}
		switch {
		case planLine.MatchString(l):
			if plan >= 0 {
				return nil, fmt.Errorf("tap line %d: a second plan", n)
			}
			plan, _ = strconv.Atoi(planLine.FindStringSubmatch(l)[1])
		case strings.HasPrefix(l, "#"):
		case l == "  ---":
			if len(points) == 0 || points[len(points)-1].YAML != nil || i == 0 || !pointLine.MatchString(lines[i-1]) {
				return nil, fmt.Errorf("tap line %d: a YAML block not right after a test point", n)
			}
			var body []string
			j := i + 1
			for ; j < len(lines) && lines[j] != "  ..."; j++ {
				if !strings.HasPrefix(lines[j], "  ") {
					return nil, fmt.Errorf("tap line %d: YAML block line not indented: %q", first+j, lines[j])
				}
				body = append(body, lines[j][2:])
			}
			if j == len(lines) {
				return nil, fmt.Errorf("tap line %d: YAML block without its \"  ...\"", n)
			}
			var y map[string]any
			if err := yaml.Unmarshal([]byte(strings.Join(body, "\n")+"\n"), &y); err != nil {
				return nil, fmt.Errorf("tap line %d: YAML block: %w\n%s", n, err, strings.Join(body, "\n"))
			}
			if y == nil {
				y = map[string]any{}
			}
			points[len(points)-1].YAML = y
			i = j
		case strings.HasPrefix(l, "    "):
			j := i
			var sub []string
			for ; j < len(lines) && strings.HasPrefix(lines[j], "    "); j++ {
				sub = append(sub, lines[j][4:])
			}
			if _, err := tapBody(sub, n); err != nil {
				return nil, fmt.Errorf("subtest: %w", err)
			}
			i = j - 1
		case pointLine.MatchString(l):
			m := pointLine.FindStringSubmatch(l)
			p := TAPPoint{OK: m[1] == "", Description: tapUnescape(m[3]), Directive: m[4], Reason: tapUnescape(m[5])}
			p.Number, _ = strconv.Atoi(m[2])
			if p.Number != len(points)+1 {
				return nil, fmt.Errorf("tap line %d: test point %d, want %d", n, p.Number, len(points)+1)
			}
			points = append(points, p)
		default:
			return nil, fmt.Errorf("tap line %d: neither plan, test point, comment, YAML block nor subtest: %q", n, l)
		}
	}
	if plan < 0 {
		return nil, fmt.Errorf("tap: no plan")
	}
	if plan != len(points) {
		return nil, fmt.Errorf("tap: plan 1..%d, %d test points", plan, len(points))
	}
	return points, nil
}

func tapUnescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// Skeleton is the element structure of an HTML page: each element's tag
// and attribute names, in document order, without text or attribute
// values.
func Skeleton(page []byte) ([]string, error) {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return nil, err
	}
	var out []string
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		e := n.Data
		for _, a := range n.Attr {
			e += " " + a.Key
		}
		out = append(out, e)
	}
	return out, nil
}

// Defang replaces every byte that could make markup in s (< > & " ' ` =
// /) with x: a page rendered with Defang(s) wherever it had s has the same
// Skeleton as the page with s, unless s's markup became elements or
// attributes.
func Defang(s string) string {
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune("<>&\"'`=/", r) {
			return 'x'
		}
		return r
	}, s)
}
