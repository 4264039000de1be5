package runner_test

import (
	"math/rand/v2"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/hostile"
	"github.com/cupel-go/go-cupel/internal/wirejson/wirejsontest"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// The property of the protocol's reading (PROTOCOL.md, "Reading a line"):
// whatever line an implementation sends, a case passes only if the line's
// documented fields, read byte for byte, are a correct answer. The lines
// are go-cupel's honest results and wrong ones (a documented field
// changed), then rewritten as an implementation could send them: keys
// reordered, unknown keys added, twins by case or by folding, keys given
// twice (hostile.MutateResult, which says which rewrites the protocol
// refuses). Each is read as the runner reads a result line
// (protocol.DecodeResult) and judged (runner.Compare).
var _ = Describe("a result line, however it is written", func() {
	It("passes its case only when its documented fields, read byte for byte, are a correct answer", func() {
		suite, err := casefile.LoadSuite(nil)
		Expect(err).NotTo(HaveOccurred())
		r := rand.New(rand.NewPCG(34, 1))
		var passes, refusals, wrongs int
		for _, c := range suite.Cases {
			honest := honestLine(c)
			for range 12 {
				base := honest
				if r.IntN(2) == 0 {
					base = hostile.WrongResult(r, honest)
				}
				// base states each key once, exactly: its reading is
				// plain, and whether it is correct is its verdict.
				bm, err := protocol.DecodeResult(base)
				Expect(err).NotTo(HaveOccurred(), string(base))
				correct := bm.Type == protocol.TypeResult && bm.Seq == 1 && bm.ID == c.ID &&
					runner.Compare(c, bm.Result).Outcome == protocol.OutcomePass
				if !correct {
					wrongs++
				}

				line, forged := hostile.MutateResult(r, base)
				m, err := protocol.DecodeResult(line)
				if forged {
					Expect(err).To(MatchError(protocol.ErrProtocol), "%s: %s", c.ID, line)
					refusals++
					continue
				}
				Expect(err).NotTo(HaveOccurred(), "%s: %s", c.ID, line)
				Expect(wirejsontest.Equal(m, bm)).To(BeTrue(), "%s: %s", c.ID, line)
				pass := m.Type == protocol.TypeResult && m.Seq == 1 && m.ID == c.ID &&
					runner.Compare(c, m.Result).Outcome == protocol.OutcomePass
				Expect(pass).To(Equal(correct), "%s: %s", c.ID, line)
				if pass {
					passes++
				}
			}
		}
		// The draw reaches every kind of line.
		Expect(passes).To(BeNumerically(">", 100))
		Expect(refusals).To(BeNumerically(">", 100))
		Expect(wrongs).To(BeNumerically(">", 100))
	})
})
