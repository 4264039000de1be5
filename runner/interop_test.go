package runner_test

import (
	"context"
	"math"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/offline"
	"github.com/cupel-go/go-cupel/internal/testtool"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

var _ = Describe("Interoperability", func() {
	It("drives an adapter written in Python (standard library only)", func() {
		py := testtool.Python3(GinkgoT(), "the interoperability test with a Python adapter")
		p := protocol.NewProcess(protocol.ProcessOptions{Argv: []string{py, "testdata/pyadapter/adapter.py"}, StartupTimeout: 10 * time.Second})
		rep, err := runner.Run(context.Background(), p, runner.Options{Timeout: 5 * time.Second})
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Implementation.Language).To(Equal("python"))
		Expect(rep.Infrastructure).To(BeEmpty())
		for _, c := range rep.Cases {
			switch {
			case strings.HasPrefix(c.ID, "required/scoring/reflexive"), strings.HasPrefix(c.ID, "required/placing/chronological"):
				Expect(c.Outcome).To(Equal(protocol.OutcomePass), c.ID+": "+c.Message)
			case c.Outcome != protocol.OutcomePass:
				Expect(c.Outcome).To(Equal(protocol.OutcomeUnsupported), c.ID+": "+c.Message)
			}
		}
		Expect(rep.Level).To(Equal(runner.LevelNone))
		Expect(rep.Err()).To(MatchError(runner.ErrFailed))
	})

	It("reads the bare NaN and Infinity tokens that Python writes, but not null", func() {
		results := `{"type":"hello","protocol":"cupel-conform/1","implementation":{"name":"py"}}
{"type":"result","seq":1,"id":"a","status":"ok","output":{"scores":[{"index":0,"score":NaN},{"index":1,"score":-Infinity},{"index":2,"score":Infinity}]},"reason":"NaN stays \"NaN\" in strings"}
`
		res, err := offline.ReadResults(strings.NewReader(results))
		Expect(err).NotTo(HaveOccurred())
		r, err := res.Run(context.Background(), protocol.Request{ID: "a"})
		Expect(err).NotTo(HaveOccurred())
		s := r.Output.Scores
		Expect(math.IsNaN(float64(s[0].Score))).To(BeTrue())
		Expect(math.IsInf(float64(s[1].Score), -1)).To(BeTrue())
		Expect(math.IsInf(float64(s[2].Score), 1)).To(BeTrue())
		Expect(r.Reason).To(Equal(`NaN stays "NaN" in strings`))

		_, err = offline.ReadResults(strings.NewReader(`{"type":"hello","protocol":"cupel-conform/1","implementation":{"name":"js"}}
{"type":"result","seq":1,"id":"a","status":"ok","output":{"scores":[{"index":0,"score":null}]}}
`))
		Expect(err).To(MatchError(ContainSubstring("null is not a number")))
	})
})
