package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
)

// WriteJUnitMany writes the reports of a comparison run as one JUnit XML
// file with one testsuite per implementation, named after it. Each suite
// is what [WriteJUnit] writes of that implementation's report, rendering
// its own [runner.Verdict]: its test cases (the "conformance level" case
// included, when the run has a target), with the implementation's name
// before each classname.
func WriteJUnitMany(w io.Writer, reports []runner.NamedReport, suite *casefile.Suite) error {
	out := junitSuites{Name: "cupel-conform"}
	var total time.Duration
	for _, n := range reports {
		var buf bytes.Buffer
		if err := WriteJUnit(&buf, n.Report, suite); err != nil {
			return fmt.Errorf("%s: %w", n.Name, err)
		}
		var one junitSuites
		if err := xml.Unmarshal(buf.Bytes(), &one); err != nil {
			return fmt.Errorf("%s: %w", n.Name, err)
		}
		s := junitSuite{Name: n.Name, Time: one.Time,
			Properties: &junitProperties{[]junitProperty{{"implementation", n.Name}}}}
		for _, g := range one.Suites {
			s.Tests += g.Tests
			s.Failures += g.Failures
			s.Errors += g.Errors
			s.Skipped += g.Skipped
			if s.Timestamp == "" {
				s.Timestamp = g.Timestamp
			}
			if g.Properties != nil {
				s.Properties.Property = append(s.Properties.Property, g.Properties.Property...)
			}
			for _, c := range g.Cases {
				c.Classname = n.Name + "." + c.Classname
				s.Cases = append(s.Cases, c)
			}
		}
		total += time.Duration(n.Report.Duration)
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Errors += s.Errors
		out.Suites = append(out.Suites, s)
	}
	out.Time = seconds(runner.Seconds(total))
	return encodeJUnit(w, &out) // the names -i gave are data too
}

// FileName is an implementation's name as a file name in the directory
// of a comparison run's --tap and --badge: letters, digits, '.', '-' and
// '_' kept, anything else '_'.
func FileName(name string) string {
	s := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			return r
		}
		return '_'
	}, name)
	if strings.Trim(s, ".") == "" {
		s = "_" + s
	}
	return s
}
