package runner_test

import (
	"bytes"
	"encoding/json"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

var _ = Describe("Report.WriteJSON", func() {
	// encoded is the report as encoding/json's Encoder writes it, the
	// bytes WriteJSON streams.
	encoded := func(r *runner.Report) string {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		Expect(enc.Encode(r)).To(Succeed())
		return b.String()
	}
	written := func(r *runner.Report) string {
		var b bytes.Buffer
		Expect(r.WriteJSON(&b)).To(Succeed())
		return b.String()
	}

	It("streams the bytes encoding/json writes, case by case", func() {
		rep := runWith(newOracle(), fixtureOptions())
		Expect(len(rep.Cases)).To(BeNumerically(">", 1))
		// Texts that encoding/json escapes, in the head and in a case.
		rep.Implementation.Name = "<b>&\u2028\x01"
		rep.Cases[0].Outcome, rep.Cases[0].Message = protocol.OutcomeFail, "a\n<b>\"&\u2029"
		rep.Cases[0].Details = []string{"x", strings.Repeat("y", 100)}
		Expect(written(rep)).To(Equal(encoded(rep)))
	})
	It("writes a report without cases as encoding/json does", func() {
		for _, cases := range [][]runner.CaseResult{nil, {}} {
			rep := &runner.Report{Schema: runner.ReportSchema, Cases: cases}
			Expect(written(rep)).To(Equal(encoded(rep)))
		}
	})
})
