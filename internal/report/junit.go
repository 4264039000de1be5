package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// JUnit XML structures, in the element order of the Jenkins JUnit schema
// (testdata/jenkins-junit.xsd), which most CI servers read.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string           `xml:"name,attr"`
	Tests      int              `xml:"tests,attr"`
	Failures   int              `xml:"failures,attr"`
	Errors     int              `xml:"errors,attr"`
	Skipped    int              `xml:"skipped,attr"`
	Time       string           `xml:"time,attr"`
	Timestamp  string           `xml:"timestamp,attr,omitempty"`
	Properties *junitProperties `xml:"properties,omitempty"`
	Cases      []junitCase      `xml:"testcase"`
}

type junitProperties struct {
	Property []junitProperty `xml:"property"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	Error     *junitMessage `xml:"error,omitempty"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	SystemOut *junitBody    `xml:"system-out,omitempty"`
	SystemErr *junitBody    `xml:"system-err,omitempty"`
}

type junitBody struct {
	Body string `xml:",cdata"`
}

// junitSkipped is <skipped>: an optional message and text.
type junitSkipped struct {
	Message string `xml:"message,attr,omitempty"`
	Body    string `xml:",cdata"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Body    string `xml:",cdata"`
}

// LevelTestName is the name of the last test case of the JUnit report and
// the last test point of the TAP report, present only when the run has a
// target level: it fails exactly when the level misses the target.
const LevelTestName = "conformance level"

// WriteJUnit writes the report as JUnit XML, rendering the run's
// [runner.Verdict]: one testsuite per tier and stage, then, when the run
// has a target level, a testsuite "conformance" whose one test case,
// "conformance level", fails exactly when the level misses the target. A
// gated case is a failure (an error for errors, crashes and timeouts),
// with the inputs and the diff in its body; a warning is skipped with the
// message "… not required for …"; an expected failure that does not count
// and a case not run are skipped. A run that stopped without a verdict has
// one error, the test case "infrastructure" of the testsuite
// "conformance", with the error and the implementation's stderr tail, and
// no "conformance level" test case. suite, when set, lets failures show
// their inputs.
func WriteJUnit(w io.Writer, r *runner.Report, suite *casefile.Suite) error {
	v := r.Verdict()
	class := v.Classes()
	out := junitSuites{Name: "cupel-conform " + implementationName(r), Time: seconds(r.Duration)}
	groups := map[string]*junitSuite{}
	var order []string
	times := map[string]time.Duration{}
	for _, c := range r.Cases {
		g := c.Tier + "/" + c.Stage
		s := groups[g]
		if s == nil {
			s = &junitSuite{Name: g}
			groups[g] = s
			order = append(order, g)
		}
		times[g] += time.Duration(c.Duration)
		jc := junitCase{Name: c.ID, Classname: strings.ReplaceAll(g, "/", "."), Time: seconds(c.Duration)}
		if c.Stderr != "" {
			jc.SystemErr = &junitBody{c.Stderr}
		}
		if len(c.Requirements) > 0 {
			jc.SystemOut = &junitBody{"requirements: " + strings.Join(c.Requirements, " ") + "\n"}
		}
		msg := junitMessage{Message: oneLineMsg(c.Message), Type: string(c.Outcome), Body: caseDetail(r, withoutStderr(c), suite)}
		switch class[c.ID] {
		case runner.ClassGated:
			switch c.Outcome {
			case protocol.OutcomeError, protocol.OutcomeCrash, protocol.OutcomeTimeout:
				jc.Error = &msg
				s.Errors++
			default:
				if c.Outcome == protocol.OutcomeUnsupported {
					msg.Message = c.Tier + " case unsupported: " + reasonOf(c)
				}
				jc.Failure = &msg
				s.Failures++
			}
		case runner.ClassWarning:
			jc.Skipped = &junitSkipped{Message: oneLineMsg(warningMessage(c, v)), Body: msg.Body}
			s.Skipped++
		default:
			if c.Outcome != protocol.OutcomePass {
				jc.Skipped = &junitSkipped{Body: outcomeMessage(c.Outcome, c.Message)}
				s.Skipped++
			}
		}
		s.Tests++
		s.Cases = append(s.Cases, jc)
	}
	sort.Strings(order)
	stamp := ""
	if !r.Started.IsZero() {
		stamp = r.Started.UTC().Format("2006-01-02T15:04:05")
	}
	for _, g := range order {
		s := groups[g]
		s.Time, s.Timestamp = seconds(runner.Seconds(times[g])), stamp
		out.Suites = append(out.Suites, *s)
	}
	if exists, ok, why := levelTest(r, v); exists {
		props := []junitProperty{{"runner", r.Runner.Name + " " + r.Runner.Version},
			{"spec_version", r.Suite.SpecVersion}, {"suite_digest", r.Suite.Digest}, {"level", string(v.Level)},
			{"target_level", string(v.Target)}}
		if lines := requirementSummary(r); lines != nil {
			props = append(props, junitProperty{"requirements", strings.Join(lines, "; ")})
		}
		lvl := junitSuite{Name: "conformance", Tests: 1, Time: "0.000", Timestamp: stamp, Properties: &junitProperties{props}}
		lc := junitCase{Name: LevelTestName, Classname: "conformance", Time: "0.000"}
		if !ok {
			lc.Failure = &junitMessage{Message: why, Type: "level", Body: why + " (" + r.LevelReason + ")"}
			lvl.Failures = 1
		}
		lvl.Cases = []junitCase{lc}
		out.Suites = append(out.Suites, lvl)
	}
	if r.Infrastructure != "" {
		out.Suites = append(out.Suites, junitSuite{Name: "conformance", Tests: 1, Errors: 1, Time: "0.000", Timestamp: stamp,
			Cases: []junitCase{{Name: InfrastructureTestName, Classname: "conformance", Time: "0.000",
				Error: &junitMessage{Message: oneLineMsg(r.Infrastructure), Type: "infrastructure", Body: strings.Join(infrastructureStderr(r), "\n")}}}})
	}
	for _, s := range out.Suites {
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Errors += s.Errors
	}
	return encodeJUnit(w, &out)
}

// encodeJUnit writes out as an XML document, every string first made safe
// for XML (implementation text is data: see safetext.go).
func encodeJUnit(w io.Writer, out *junitSuites) error {
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	junitSafe(out)
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func seconds(d runner.Seconds) string { return fmt.Sprintf("%.3f", time.Duration(d).Seconds()) }
