package protocol_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// workedExchange returns the run (">") and result ("<") lines of the worked
// exchange in PROTOCOL.md, unwrapped.
func workedExchange() (runs, results []string) {
	GinkgoHelper()
	doc, err := os.ReadFile("PROTOCOL.md")
	Expect(err).NotTo(HaveOccurred())
	s := string(doc)
	i := strings.Index(s, "## A worked exchange")
	Expect(i).To(BeNumerically(">", 0))
	s = s[i:]
	s = s[strings.Index(s, "```\n")+4:]
	s = s[:strings.Index(s, "```")]
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		switch {
		case strings.HasPrefix(l, "> ") || strings.HasPrefix(l, "< "):
			lines = append(lines, l)
		case strings.HasPrefix(l, "   ") && len(lines) > 0:
			lines[len(lines)-1] += strings.TrimSpace(l)
		}
	}
	for _, l := range lines {
		if strings.Contains(l, `"type":"run"`) {
			runs = append(runs, l[2:])
		}
		if strings.Contains(l, `"type":"result"`) {
			results = append(results, l[2:])
		}
	}
	return runs, results
}

func sameJSON(a, b string) {
	GinkgoHelper()
	var x, y any
	Expect(json.Unmarshal([]byte(a), &x)).To(Succeed(), a)
	Expect(json.Unmarshal([]byte(b), &y)).To(Succeed(), b)
	Expect(x).To(Equal(y))
}

var _ = Describe("PROTOCOL.md", func() {
	It("shows the run and result lines that the runner and cupel-conform adapter exchange", func() {
		runs, results := workedExchange()
		Expect(runs).To(HaveLen(3))
		Expect(results).To(HaveLen(3))
		suite, err := casefile.LoadSuite(nil)
		Expect(err).NotTo(HaveOccurred())
		var in bytes.Buffer
		in.WriteString(`{"type":"hello","protocol":["cupel-conform/1"]}` + "\n")
		for _, line := range runs {
			var m protocol.RunMessage
			Expect(json.Unmarshal([]byte(line), &m)).To(Succeed())
			c := suite.Case(m.ID)
			Expect(c).NotTo(BeNil(), "PROTOCOL.md's worked exchange runs %s, which the embedded suite does not have", m.ID)
			want, _ := json.Marshal(protocol.RunMessage{Type: protocol.TypeRun, Request: protocol.NewRequest(m.Seq, c)})
			sameJSON(line, string(want))
			in.WriteString(line + "\n")
		}
		var out bytes.Buffer
		Expect(protocol.Serve(context.Background(), runner.Engine(), &in, &out)).To(Succeed())
		got := strings.Split(strings.TrimSpace(out.String()), "\n")
		Expect(got).To(HaveLen(4))
		for i, want := range results {
			sameJSON(got[i+1], want)
		}
	})
})
