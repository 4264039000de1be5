package protocol_test

import (
	"context"
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// go-cupel's results are written by wire.go, not by encoding/json, and read
// back by it: for every embedded vector the bytes must be encoding/json's,
// and what the runner reads the same.
var _ = Describe("go-cupel's result lines", func() {
	It("are written as encoding/json writes them, and read back as it reads them", func() {
		suite, err := casefile.LoadSuite(nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(suite.Cases).NotTo(BeEmpty())
		for i, c := range suite.Cases {
			req := protocol.NewRequest(i+1, c)
			res, err := runner.Engine().Run(context.Background(), req)
			Expect(err).NotTo(HaveOccurred(), c.ID)
			m := protocol.ResultMessage{Type: protocol.TypeResult, Seq: req.Seq, ID: req.ID, Result: res}
			want, err := json.Marshal(m)
			Expect(err).NotTo(HaveOccurred(), c.ID)
			got, err := protocol.EncodeLine(m)
			Expect(err).NotTo(HaveOccurred(), c.ID)
			Expect(string(got)).To(Equal(string(want)), c.ID)

			var slow protocol.ResultMessage
			Expect(json.Unmarshal(got, &slow)).To(Succeed(), c.ID)
			fast, ok := protocol.ReadResult(got)
			if !ok { // an escape in a message: encoding/json reads it
				continue
			}
			a, err := json.Marshal(fast)
			Expect(err).NotTo(HaveOccurred(), c.ID)
			b, err := json.Marshal(slow)
			Expect(err).NotTo(HaveOccurred(), c.ID)
			Expect(string(a)).To(Equal(string(b)), c.ID)
		}
	})
})
